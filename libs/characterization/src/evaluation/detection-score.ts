// Scoring of 1-D detections against ground truth: one-to-one matching within a tolerance (closest pairs first),
// then precision = TP/(TP+FP), recall = TP/(TP+FN), F1 = 2PR/(P+R) over all traces pooled (micro average).
// Detections that match nothing but lie within tolerance of an "ignored" truth (too faint, or centred just
// outside the window) are neither true nor false positives.

export interface DetectionCounts {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

export interface DetectionScore extends DetectionCounts {
  precision: number;
  recall: number;
  f1: number;
}

export interface DetectionTruth {
  indices: readonly number[];
  /** Per-truth tolerance in samples (inclusive), or one value for all. */
  tolerance: number | readonly number[];
  ignored?: readonly number[];
  ignoredTolerance?: number;
}

export function countDetections(detected: readonly number[], truth: DetectionTruth): DetectionCounts {
  const tolerances = truth.indices.map((_, k) => (typeof truth.tolerance === 'number' ? truth.tolerance : truth.tolerance[k]!));
  const pairs: [number, number, number][] = [];
  detected.forEach((d, i) => {
    truth.indices.forEach((t, k) => {
      const distance = Math.abs(d - t);
      if (distance <= tolerances[k]! + 1e-9) pairs.push([distance, i, k]);
    });
  });
  pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);
  const detectionUsed = new Array<boolean>(detected.length).fill(false);
  const truthUsed = new Array<boolean>(truth.indices.length).fill(false);
  let truePositives = 0;
  for (const [, i, k] of pairs) {
    if (detectionUsed[i] || truthUsed[k]) continue;
    detectionUsed[i] = truthUsed[k] = true;
    truePositives++;
  }
  const ignoredTolerance = truth.ignoredTolerance ?? (typeof truth.tolerance === 'number' ? truth.tolerance : 2);
  let falsePositives = 0;
  detected.forEach((d, i) => {
    if (detectionUsed[i]) return;
    const excused = (truth.ignored ?? []).some((t) => Math.abs(d - t) <= ignoredTolerance + 1e-9);
    if (!excused) falsePositives++;
  });
  return { truePositives, falsePositives, falseNegatives: truth.indices.length - truePositives };
}

export function addDetectionCounts(a: DetectionCounts, b: DetectionCounts): DetectionCounts {
  return {
    truePositives: a.truePositives + b.truePositives,
    falsePositives: a.falsePositives + b.falsePositives,
    falseNegatives: a.falseNegatives + b.falseNegatives,
  };
}

export function scoreDetections(counts: DetectionCounts): DetectionScore {
  const { truePositives: tp, falsePositives: fp, falseNegatives: fn } = counts;
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = tp + fp + fn === 0 ? 1 : (2 * tp) / (2 * tp + fp + fn);
  return { ...counts, precision, recall, f1 };
}
