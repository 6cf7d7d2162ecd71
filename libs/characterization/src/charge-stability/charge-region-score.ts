// Mean region IoU of a charge-stability-diagram segmentation against the simulator's region labels
// (libs/device-physics/src/charge-stability: one label per charge state, 0 on the 1-px transition mask).
// - Don't-care: pixels whose TRUE label is 0 (the transition mask) are ignored on both sides.
// - Truth regions smaller than MIN_TRUTH_REGION_AREA scored pixels (slivers cut by the window edge) are not scored.
// - Matching: each scored truth region takes the predicted region (label > 0) of best IoU over the cared pixels
//   (not one-to-one: one predicted region may serve several truth regions, but its union with each of them then
//   contains the others, so under-segmentation is penalised; over-segmentation is penalised because only one
//   piece counts). Predicted 0 pixels (boundaries) inside a truth region count against it.
// - Mean IoU = mean over all scored truth regions (pooled over diagrams in the benchmark).
// This is the region-matching IoU of semantic/instance segmentation (Everingham et al., IJCV 88, 303 (2010),
// Sec. 4.3 for the IoU, with per-object best-overlap matching as in the "covering" score of Arbeláez et al.,
// IEEE TPAMI 33, 898 (2011), Sec. 3.1, unweighted by area).

export const MIN_TRUTH_REGION_AREA = 64;

/** IoU of every scored truth region with its best predicted region, in order of first appearance. */
export function regionIoUs(predicted: ArrayLike<number>, truth: ArrayLike<number>): number[] {
  if (predicted.length !== truth.length) throw new RangeError(`expected equal sizes; got ${predicted.length} and ${truth.length}`);
  const truthArea = new Map<number, number>();
  const predictedArea = new Map<number, number>();
  const overlap = new Map<number, Map<number, number>>();
  for (let i = 0; i < truth.length; i++) {
    const t = truth[i]!;
    if (t === 0) continue;
    const p = predicted[i]!;
    truthArea.set(t, (truthArea.get(t) ?? 0) + 1);
    if (p === 0) continue;
    predictedArea.set(p, (predictedArea.get(p) ?? 0) + 1);
    let row = overlap.get(t);
    if (!row) {
      row = new Map();
      overlap.set(t, row);
    }
    row.set(p, (row.get(p) ?? 0) + 1);
  }
  const ious: number[] = [];
  for (const [t, area] of truthArea) {
    if (area < MIN_TRUTH_REGION_AREA) continue;
    let best = 0;
    for (const [p, inter] of overlap.get(t) ?? []) best = Math.max(best, inter / (area + predictedArea.get(p)! - inter));
    ious.push(best);
  }
  return ious;
}

/** Mean of regionIoUs (1 when there is no scored truth region). */
export function meanRegionIoU(predicted: ArrayLike<number>, truth: ArrayLike<number>): number {
  const ious = regionIoUs(predicted, truth);
  return ious.length ? ious.reduce((a, b) => a + b, 0) / ious.length : 1;
}
