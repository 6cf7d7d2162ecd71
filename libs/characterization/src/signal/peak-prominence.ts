// Topographic prominence of a local maximum (as in scipy.signal.peak_prominences): the height of the peak
// above the higher of the two lowest points reached on each side before meeting a higher sample.
// Edge rule: a side that runs into the end of the trace within `minEdgeSideSamples` carries no information
// about the peak's base (the peak is cut by the window), so only the other side counts.

export interface Prominence {
  prominence: number;
  leftBase: number;
  rightBase: number;
}

export function peakProminence(
  values: Float64Array,
  index: number,
  minEdgeSideSamples: number,
  searchHalfWindow = Infinity,
  offset = 0,
  length = values.length - offset,
): number {
  const peak = values[offset + index]!;
  const leftLimit = Math.max(0, index - searchHalfWindow);
  const rightLimit = Math.min(length - 1, index + searchHalfWindow);
  let leftMin = peak;
  let i = index - 1;
  for (; i >= leftLimit; i--) {
    const v = values[offset + i]!;
    if (v > peak) break;
    if (v < leftMin) leftMin = v;
  }
  const leftCut = i < 0 && index < minEdgeSideSamples;
  let rightMin = peak;
  let j = index + 1;
  for (; j <= rightLimit; j++) {
    const v = values[offset + j]!;
    if (v > peak) break;
    if (v < rightMin) rightMin = v;
  }
  const rightCut = j > length - 1 && length - 1 - index < minEdgeSideSamples;
  if (leftCut && rightCut) return 0;
  if (leftCut) return peak - rightMin;
  if (rightCut) return peak - leftMin;
  return peak - Math.max(leftMin, rightMin);
}
