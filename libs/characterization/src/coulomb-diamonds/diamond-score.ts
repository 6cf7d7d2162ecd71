// Scores of the Coulomb-diamond models against simulator labels. Ground truth = diamonds whose four vertices lie
// inside the window (`complete`); a detection whose centre falls inside a cut (don't-care) diamond is neither
// credited nor penalised. A detection matches a true diamond when each of its four vertices (left, top, right,
// bottom) lies within DIAMOND_MATCH_PX of the true one; matching is greedy by total vertex distance.
export type Vertex = [number, number];
/** [left, top, right, bottom], each [x, y]. */
export type DiamondVertices = [Vertex, Vertex, Vertex, Vertex];

export interface TrueDiamond {
  vertices: DiamondVertices;
  complete: boolean;
}

export const DIAMOND_MATCH_PX = 4;

export interface DiamondCounts {
  hits: number;
  misses: number;
  falseAlarms: number;
  /** Sum of vertex errors (px) over matched diamonds, and the number of vertices summed. */
  vertexErrorSum: number;
  vertexCount: number;
}

export const emptyDiamondCounts = (): DiamondCounts => ({ hits: 0, misses: 0, falseAlarms: 0, vertexErrorSum: 0, vertexCount: 0 });

export function addDiamondCounts(total: DiamondCounts, c: DiamondCounts): void {
  total.hits += c.hits;
  total.misses += c.misses;
  total.falseAlarms += c.falseAlarms;
  total.vertexErrorSum += c.vertexErrorSum;
  total.vertexCount += c.vertexCount;
}

function insidePolygon(p: Vertex, polygon: readonly Vertex[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export function countDiamondMatches(detected: readonly DiamondVertices[], truth: readonly TrueDiamond[]): DiamondCounts {
  const pairs: { d: number; t: number; cost: number; errors: number[] }[] = [];
  detected.forEach((det, d) => {
    truth.forEach((tru, t) => {
      const errors = det.map((v, k) => Math.hypot(v[0] - tru.vertices[k]![0], v[1] - tru.vertices[k]![1]));
      if (errors.every((e) => e <= DIAMOND_MATCH_PX)) pairs.push({ d, t, cost: errors.reduce((a, b) => a + b, 0), errors });
    });
  });
  pairs.sort((a, b) => a.cost - b.cost);
  const usedD = new Set<number>();
  const usedT = new Set<number>();
  const counts = emptyDiamondCounts();
  for (const p of pairs) {
    if (usedD.has(p.d) || usedT.has(p.t)) continue;
    usedD.add(p.d);
    usedT.add(p.t);
    if (!truth[p.t]!.complete) continue;
    counts.hits++;
    counts.vertexErrorSum += p.errors.reduce((a, b) => a + b, 0);
    counts.vertexCount += 4;
  }
  truth.forEach((t, i) => {
    if (t.complete && !usedT.has(i)) counts.misses++;
  });
  detected.forEach((det, i) => {
    if (usedD.has(i)) return;
    const centre: Vertex = [(det[0][0] + det[2][0]) / 2, (det[1][1] + det[3][1]) / 2];
    if (truth.some((t) => !t.complete && insidePolygon(centre, t.vertices))) return;
    counts.falseAlarms++;
  });
  return counts;
}

export function diamondF1(c: DiamondCounts): { precision: number; recall: number; f1: number; meanVertexError: number } {
  const precision = c.hits + c.falseAlarms ? c.hits / (c.hits + c.falseAlarms) : 1;
  const recall = c.hits + c.misses ? c.hits / (c.hits + c.misses) : 1;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1, meanVertexError: c.vertexCount ? c.vertexErrorSum / c.vertexCount : 0 };
}

/** Intersection over union of two binary masks (1 when both are empty). */
export function maskIoU(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    const p = a[i]! > 0;
    const q = b[i]! > 0;
    if (p && q) inter++;
    if (p || q) union++;
  }
  return union ? inter / union : 1;
}
