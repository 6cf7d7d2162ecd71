// Scoring of detected transition segments against the simulator's exact segments: a detection matches a truth
// segment when their directions differ by ≤ 5°, both detected endpoints lie within 3 px of the truth line and
// the detection's midpoint projects onto the truth segment (± 3 px); one-to-one greedy matching by distance.
// Truth segments shorter than MIN_TRUTH_LENGTH px, interdot segments and segments whose noise-free contrast is below
// MIN_TRUTH_VISIBILITY × the white-noise σ (the simulator's `visibility`) are "don't care": a detection matching one
// is neither a hit nor a false alarm.
/** A detected line segment [x1, y1, x2, y2]: x = column, y = row (pixel centres). */
export type Segment = [number, number, number, number];

export const LINE_MATCH_PX = 3;
export const LINE_MATCH_DEGREES = 5;
export const MIN_TRUTH_LENGTH = 10;
/**
 * A transition whose step (sensor) or line height (transport) in the noise-free read-out is below one white-noise σ
 * of a single pixel is not in the data to be found: the sensor sits so far down its Coulomb peak that the charge
 * change barely moves it. Fixed before measuring, not tuned (docs/models/charge-stability.md).
 */
export const MIN_TRUTH_VISIBILITY = 1;

export interface TruthSegment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  kind: string;
  /** Noise-free contrast over the white-noise σ (simulator); absent = visible. */
  visibility?: number;
}

export interface LineCounts {
  hits: number;
  misses: number;
  falseAlarms: number;
}

/** Whether a truth segment is scored (a dot transition, ≥ MIN_TRUTH_LENGTH px, visible) rather than don't-care. */
export function isCountedTruth(t: TruthSegment, minVisibility = MIN_TRUTH_VISIBILITY): boolean {
  return (
    t.kind !== 'interdot' && t.kind !== 'other' && Math.hypot(t.x2 - t.x1, t.y2 - t.y1) >= MIN_TRUTH_LENGTH && !((t.visibility ?? Infinity) < minVisibility)
  );
}

function matchDistance(d: Segment, t: TruthSegment): number {
  const lt = Math.hypot(t.x2 - t.x1, t.y2 - t.y1);
  const ld = Math.hypot(d[2] - d[0], d[3] - d[1]);
  if (lt === 0 || ld === 0) return Infinity;
  const tx = (t.x2 - t.x1) / lt;
  const ty = (t.y2 - t.y1) / lt;
  const cos = Math.abs(((d[2] - d[0]) * tx + (d[3] - d[1]) * ty) / ld);
  if (Math.acos(Math.min(1, cos)) > (LINE_MATCH_DEGREES * Math.PI) / 180) return Infinity;
  const perp = (x: number, y: number): number => Math.abs(-(x - t.x1) * ty + (y - t.y1) * tx);
  const e1 = perp(d[0], d[1]);
  const e2 = perp(d[2], d[3]);
  if (e1 > LINE_MATCH_PX || e2 > LINE_MATCH_PX) return Infinity;
  const s = ((d[0] + d[2]) / 2 - t.x1) * tx + ((d[1] + d[3]) / 2 - t.y1) * ty;
  if (s < -LINE_MATCH_PX || s > lt + LINE_MATCH_PX) return Infinity;
  return (e1 + e2) / 2;
}

/** `minVisibility` 0 gives the metric as it was before visibility was labelled (every dot transition counted). */
export function countLineMatches(detected: Segment[], truth: TruthSegment[], minVisibility = MIN_TRUTH_VISIBILITY): LineCounts {
  const counted = truth.filter((t) => isCountedTruth(t, minVisibility));
  const ignored = truth.filter((t) => !counted.includes(t));
  const pairs: [number, number, number][] = [];
  detected.forEach((d, i) => {
    counted.forEach((t, j) => {
      const dist = matchDistance(d, t);
      if (dist < Infinity) pairs.push([dist, i, j]);
    });
  });
  pairs.sort((a, b) => a[0] - b[0]);
  const usedD = new Set<number>();
  const usedT = new Set<number>();
  for (const [, i, j] of pairs) {
    if (usedD.has(i) || usedT.has(j)) continue;
    usedD.add(i);
    usedT.add(j);
  }
  let falseAlarms = 0;
  detected.forEach((d, i) => {
    if (usedD.has(i)) return;
    // A detection on a don't-care segment, or a second piece of an already matched line, is not a false alarm.
    if (ignored.some((t) => matchDistance(d, t) < Infinity) || counted.some((t) => matchDistance(d, t) < Infinity)) return;
    falseAlarms++;
  });
  return { hits: usedT.size, misses: counted.length - usedT.size, falseAlarms };
}

export function lineF1(counts: LineCounts): { f1: number; precision: number; recall: number } {
  const precision = counts.hits + counts.falseAlarms > 0 ? counts.hits / (counts.hits + counts.falseAlarms) : 1;
  const recall = counts.hits + counts.misses > 0 ? counts.hits / (counts.hits + counts.misses) : 1;
  return { f1: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0, precision, recall };
}
