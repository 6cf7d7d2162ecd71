// Exact minimum-weight perfect matching decoding (Dennis et al., J. Math. Phys. 43, 4452 (2002); Fowler,
// Whiteside & Hollenberg, Phys. Rev. Lett. 108, 180501 (2012)): detection events are matched in pairs or to the
// boundary along shortest space-time paths, weights ln((1 − p)/p) per data flip and ln((1 − q)/q) per measurement
// flip. Path lengths are separable (space edges exist in every round, time edges at every stabilizer), so
// dist = w_s·hops + w_t·|Δt|. Exact reductions before Edmonds' blossom: a pair whose distance is not below the sum of
// their boundary distances is never needed, so the events split into independent components; each component gets
// one boundary copy per event, copies joined (weight 0) exactly where their events are (Fowler, Quantum Inf.
// Comput. 15, 145 (2015), §3; the boundary construction of PyMatching, Higgott, ACM TQC 3, 16 (2022)).
import { minWeightPerfectMatching, type WeightedEdge } from './blossom.matching.js';
import { DEFAULT_DECODING_WEIGHTS, edgeLengths, pathBetween, spatialGraph, type DecodingWeights, type SpatialGraph } from './decoding-graph.js';
import type { RotatedSurfaceCode, StabilizerType } from './rotated-surface-code.js';
import type { SyndromeDecoder } from './syndrome-decoder.js';

export function matchingDecoder(code: RotatedSurfaceCode, weights: DecodingWeights = DEFAULT_DECODING_WEIGHTS): SyndromeDecoder {
  const graphs: [SpatialGraph, SpatialGraph] = [spatialGraph(code, 0), spatialGraph(code, 1)];
  const lengths = edgeLengths(weights);
  return {
    decode(type: StabilizerType, events: Uint8Array, correction: Uint8Array): number {
      const graph = graphs[type];
      const m = graph.m;
      const stab: number[] = [];
      const round: number[] = [];
      for (let i = 0; i < events.length; i++) {
        if (events[i]) {
          stab.push(i % m);
          round.push(Math.floor(i / m));
        }
      }
      correction.fill(0);
      const apply = (path: readonly number[]): void => {
        for (const q of path) correction[q]! ^= 1;
      };
      const partner = matchDetectionEvents(
        stab.length,
        (i, j) => lengths.space * graph.hops[stab[i]! * m + stab[j]!]! + lengths.time * Math.abs(round[i]! - round[j]!),
        (i) => lengths.space * graph.boundaryHops[stab[i]!]!,
      );
      partner.forEach((j, i) => {
        if (j === -1) apply(graph.boundaryPaths[stab[i]!]!);
        else if (j > i && stab[i] !== stab[j]) apply(pathBetween(graph, stab[i]!, stab[j]!));
      });
      let flip = 0;
      for (const q of code.logicalSupport[type]) flip ^= correction[q]!;
      return flip;
    },
  };
}

/**
 * A minimum-weight pairing of `count` detection events, each either matched to another (partner index) or to the
 * boundary (-1), for integer distances `distance(i, j)` and boundary distances `boundary(i)`.
 */
export function matchDetectionEvents(count: number, distance: (i: number, j: number) => number, boundary: (i: number) => number): Int32Array {
  const partner = new Int32Array(count).fill(-1);
  const bdist = Int32Array.from({ length: count }, (_, i) => boundary(i));
  // Components of the "worth pairing" relation: a pair at least as far apart as its two boundary distances is never needed.
  const parent = Int32Array.from({ length: count }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const pairs: [number, number, number][] = [];
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      const dij = distance(i, j);
      if (dij < bdist[i]! + bdist[j]!) {
        pairs.push([i, j, dij]);
        parent[find(i)] = find(j);
      }
    }
  }
  const members = new Map<number, number[]>();
  for (let i = 0; i < count; i++) {
    const root = find(i);
    const list = members.get(root);
    if (list) list.push(i);
    else members.set(root, [i]);
  }
  const pairsOf = new Map<number, [number, number, number][]>();
  for (const pair of pairs) {
    const root = find(pair[0]);
    const list = pairsOf.get(root);
    if (list) list.push(pair);
    else pairsOf.set(root, [pair]);
  }
  const local = new Int32Array(count);
  for (const [root, component] of members) {
    const s = component.length;
    if (s === 1) continue;
    if (s === 2) {
      partner[component[0]!] = component[1]!;
      partner[component[1]!] = component[0]!;
      continue;
    }
    component.forEach((event, index) => (local[event] = index));
    // Vertices 0 … s−1 are the events, s … 2s−1 their boundary copies; copies pair up at no cost exactly where
    // their events could, so every solution "these pairs, the rest to the boundary" is a perfect matching here.
    const edges: WeightedEdge[] = [];
    for (const [i, j, w] of pairsOf.get(root)!) {
      edges.push({ u: local[i]!, v: local[j]!, weight: w });
      edges.push({ u: s + local[i]!, v: s + local[j]!, weight: 0 });
    }
    component.forEach((event, index) => edges.push({ u: index, v: s + index, weight: bdist[event]! }));
    const mate = minWeightPerfectMatching(2 * s, edges);
    for (let index = 0; index < s; index++) if (mate[index]! < s) partner[component[index]!] = component[mate[index]!]!;
  }
  return partner;
}
