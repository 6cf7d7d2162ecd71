// Height and width of one detected peak, measured on the trace itself (the detectors' matched-filter amplitudes
// and kernel widths are biased whenever a peak's width falls between two kernels of the bank).
// Height: topographic prominence restricted to a window (scipy.signal.peak_prominences with wlen): the peak value
// minus the higher of the lowest points within `reach` samples on each side. Width: full width at half that height,
// between the linearly interpolated crossings (scipy.signal.peak_widths, rel_height = 0.5).

export interface PeakShape {
  height: number;
  fwhm: number;
}

/**
 * Measures the peak at `index` of data[offset, offset + length) within ±reach samples. Returns undefined when the
 * sample at `index` is not above both sides. Both half-height crossings then exist inside the window: each side's
 * minimum is at most the peak value minus the height.
 */
export function measurePeakShape(data: Float64Array, offset: number, length: number, index: number, reach: number): PeakShape | undefined {
  const top = data[offset + index]!;
  const lo = Math.max(0, index - reach);
  const hi = Math.min(length - 1, index + reach);
  let leftMin = top;
  let rightMin = top;
  for (let i = lo; i < index; i++) leftMin = Math.min(leftMin, data[offset + i]!);
  for (let i = index + 1; i <= hi; i++) rightMin = Math.min(rightMin, data[offset + i]!);
  const height = top - Math.max(leftMin, rightMin);
  if (!(height > 0)) return undefined;
  const half = top - height / 2;
  let left = index;
  while (data[offset + left]! > half) left--;
  let right = index;
  while (data[offset + right]! > half) right++;
  // Interpolated crossings between (left, left + 1) and (right - 1, right).
  const a = data[offset + left]!;
  const b = data[offset + left + 1]!;
  const leftCross = left + (half - a) / (b - a);
  const c = data[offset + right - 1]!;
  const d = data[offset + right]!;
  const rightCross = right - 1 + (c - half) / (c - d);
  return { height, fwhm: rightCross - leftCross };
}

/** Window half-width for a peak whose detector width estimate is `fwhm` samples: wide enough to reach background. */
export const peakShapeReach = (fwhm: number): number => Math.ceil(3 * fwhm) + 3;
