import { maxWeightMatching, minWeightPerfectMatching, type WeightedEdge } from './blossom.matching.js';
import { seededRandom } from './seeded-random.js';

/** Exhaustive best matching: [total weight, size] maximised lexicographically as asked. */
function bruteForce(n: number, edges: WeightedEdge[], maxCardinality: boolean): { weight: number; size: number } {
  let best = { weight: 0, size: 0 };
  const used = new Uint8Array(n);
  const visit = (k: number, weight: number, size: number): void => {
    const better = maxCardinality ? size > best.size || (size === best.size && weight > best.weight) : weight > best.weight;
    if (better) best = { weight, size };
    for (let e = k; e < edges.length; e++) {
      const { u, v, weight: w } = edges[e]!;
      if (used[u] || used[v]) continue;
      used[u] = used[v] = 1;
      visit(e + 1, weight + w, size + 1);
      used[u] = used[v] = 0;
    }
  };
  visit(0, 0, 0);
  return best;
}

function randomGraph(random: () => number, n: number, density: number, maxWeight: number): WeightedEdge[] {
  const edges: WeightedEdge[] = [];
  for (let u = 0; u < n; u++) for (let v = u + 1; v < n; v++) if (random() < density) edges.push({ u, v, weight: Math.floor(random() * maxWeight) });
  return edges;
}

function check(n: number, edges: WeightedEdge[], mate: Int32Array): { weight: number; size: number } {
  let weight = 0;
  let size = 0;
  for (let v = 0; v < n; v++) {
    const w = mate[v]!;
    if (w < 0) continue;
    expect(mate[w]).toBe(v);
    if (v < w) {
      const edge = edges.filter((e) => (e.u === v && e.v === w) || (e.u === w && e.v === v));
      expect(edge.length).toBeGreaterThan(0);
      weight += Math.max(...edge.map((e) => e.weight));
      size++;
    }
  }
  return { weight, size };
}

describe(maxWeightMatching.name, () => {
  it('equals exhaustive search on 600 random graphs (2–11 vertices, sparse to complete, with and without maximum cardinality)', () => {
    const random = seededRandom(2024);
    for (let trial = 0; trial < 600; trial++) {
      const n = 2 + Math.floor(random() * 10);
      const edges = randomGraph(random, n, 0.2 + 0.8 * random(), trial % 3 === 0 ? 4 : 100);
      const maxCardinality = trial % 2 === 0;
      const sut = maxWeightMatching(n, edges, maxCardinality);
      const expected = bruteForce(n, edges, maxCardinality);
      const got = check(n, edges, sut);
      if (maxCardinality) expect(got.size).toBe(expected.size);
      expect(got.weight).toBe(expected.weight);
    }
  });

  it('handles the textbook blossom cases (nested blossoms, S-blossom relabelled as T, expansion)', () => {
    // Cases from van Rantwijk's test suite of mwmatching.py.
    const e = (list: [number, number, number][]): WeightedEdge[] => list.map(([u, v, weight]) => ({ u, v, weight }));
    expect(
      Array.from(
        maxWeightMatching(
          5,
          e([
            [1, 2, 8],
            [1, 3, 9],
            [2, 3, 10],
            [3, 4, 7],
          ]),
          false,
        ),
      ),
    ).toEqual([-1, 2, 1, 4, 3]);
    expect(
      Array.from(
        maxWeightMatching(
          7,
          e([
            [1, 2, 9],
            [1, 3, 8],
            [2, 3, 10],
            [1, 4, 5],
            [4, 5, 4],
            [1, 6, 3],
          ]),
          false,
        ),
      ),
    ).toEqual([-1, 6, 3, 2, 5, 4, 1]);
    expect(
      Array.from(
        maxWeightMatching(
          9,
          e([
            [1, 2, 23],
            [1, 5, 22],
            [1, 6, 15],
            [2, 3, 25],
            [3, 4, 22],
            [4, 5, 25],
            [4, 8, 14],
            [5, 7, 13],
          ]),
          false,
        ),
      ),
    ).toEqual([-1, 6, 3, 2, 8, 7, 1, 5, 4]);
    expect(
      Array.from(
        maxWeightMatching(
          11,
          e([
            [1, 2, 40],
            [1, 3, 40],
            [2, 3, 60],
            [2, 4, 55],
            [3, 5, 55],
            [4, 5, 50],
            [1, 8, 15],
            [5, 7, 30],
            [7, 6, 10],
            [8, 10, 10],
            [4, 9, 30],
          ]),
          false,
        ),
      ),
    ).toEqual([-1, 2, 1, 5, 9, 3, 7, 6, 10, 4, 8]);
  });
});

describe(minWeightPerfectMatching.name, () => {
  it('finds the minimum-weight perfect matching of random complete graphs (exhaustive check)', () => {
    const random = seededRandom(77);
    for (let trial = 0; trial < 200; trial++) {
      const n = 2 * (1 + Math.floor(random() * 5));
      const edges = randomGraph(random, n, 1, 50);
      const sut = minWeightPerfectMatching(n, edges);
      const got = check(n, edges, sut);
      expect(got.size).toBe(n / 2);
      const top = Math.max(...edges.map((x) => x.weight)) + 1;
      const best = bruteForce(
        n,
        edges.map((x) => ({ ...x, weight: top - x.weight })),
        true,
      );
      expect(got.weight).toBe((n / 2) * top - best.weight);
    }
  });

  it('throws when no perfect matching exists', () => {
    expect(() => minWeightPerfectMatching(3, [{ u: 0, v: 1, weight: 1 }])).toThrow('no perfect matching');
  });
});
