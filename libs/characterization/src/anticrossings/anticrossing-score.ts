// Scoring of detected avoided crossings against simulator labels: one-to-one matching of (x, y) positions within
// ANTICROSSING_MATCH_PX (Euclidean, pixels), closest pairs first; detections near an ignored (edge) crossing are
// neither true nor false positives. Also the position error and the splitting error of the matched pairs.

export const ANTICROSSING_MATCH_PX = 4;

export interface CrossingPoint {
  x: number;
  y: number;
  splitting: number;
}

export interface AnticrossingCounts {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Sum over matched pairs of the position error (px) and of |splitting error| (rows). */
  positionErrorSum: number;
  splittingErrorSum: number;
}

export function emptyAnticrossingCounts(): AnticrossingCounts {
  return { truePositives: 0, falsePositives: 0, falseNegatives: 0, positionErrorSum: 0, splittingErrorSum: 0 };
}

export function countAnticrossingMatches(
  detected: readonly CrossingPoint[],
  truth: readonly CrossingPoint[],
  ignored: readonly CrossingPoint[] = [],
  into = emptyAnticrossingCounts(),
): AnticrossingCounts {
  const distance = (a: CrossingPoint, b: CrossingPoint): number => Math.hypot(a.x - b.x, a.y - b.y);
  const pairs: [number, number, number][] = [];
  detected.forEach((d, i) => {
    truth.forEach((t, k) => {
      const e = distance(d, t);
      if (e <= ANTICROSSING_MATCH_PX) pairs.push([e, i, k]);
    });
  });
  pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1] || p[2] - q[2]);
  const usedD = new Array<boolean>(detected.length).fill(false);
  const usedT = new Array<boolean>(truth.length).fill(false);
  for (const [e, i, k] of pairs) {
    if (usedD[i] || usedT[k]) continue;
    usedD[i] = usedT[k] = true;
    into.truePositives++;
    into.positionErrorSum += e;
    into.splittingErrorSum += Math.abs(detected[i]!.splitting - truth[k]!.splitting);
  }
  detected.forEach((d, i) => {
    if (!usedD[i] && !ignored.some((t) => distance(d, t) <= ANTICROSSING_MATCH_PX)) into.falsePositives++;
  });
  into.falseNegatives += truth.length - usedT.filter(Boolean).length;
  return into;
}

export function anticrossingScore(c: AnticrossingCounts): {
  precision: number;
  recall: number;
  f1: number;
  meanPositionError: number;
  meanSplittingError: number;
} {
  const precision = c.truePositives / Math.max(1, c.truePositives + c.falsePositives);
  const recall = c.truePositives / Math.max(1, c.truePositives + c.falseNegatives);
  const f1 =
    c.truePositives + c.falsePositives + c.falseNegatives === 0 ? 1 : (2 * c.truePositives) / (2 * c.truePositives + c.falsePositives + c.falseNegatives);
  return {
    precision,
    recall,
    f1,
    meanPositionError: c.positionErrorSum / Math.max(1, c.truePositives),
    meanSplittingError: c.splittingErrorSum / Math.max(1, c.truePositives),
  };
}
