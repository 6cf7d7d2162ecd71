// Exact minimum-weight perfect matching decoding (Dennis et al., J. Math. Phys. 43, 4452 (2002); Fowler,
// Whiteside & Hollenberg, Phys. Rev. Lett. 108, 180501 (2012)): detection events are matched in pairs or to the
// boundary along shortest space-time paths, weights ln((1 − p)/p) per data flip and ln((1 − q)/q) per measurement
// flip, parallel boundary edges merged (decoding-graph.ts). Path lengths are separable (the same space edges in every
// round, a time edge at every stabilizer), so dist = spatial distance + w_t·|Δt|. Exact reductions before Edmonds'
// blossom: a pair whose distance is not below the sum of their boundary distances is never needed, so the events
// split into independent components; each component gets one boundary copy per event, copies joined (weight 0)
// exactly where their events are (Fowler, Quantum Inf. Comput. 15, 145 (2015), §3; the boundary construction of
// PyMatching, Higgott, ACM TQC 3, 16 (2022)).
// Bounded work per shot: a component of more than MAX_EXACT_COMPONENT events (far above threshold; the blossom costs
// its size cubed) is not matched exactly; that shot and type is decoded by union-find with local matching instead
// (union-find.decoder.ts), and the decoder reports it (`inexact`).
import { minWeightPerfectMatching, type WeightedEdge } from './blossom.matching.js';
import { DEFAULT_DECODING_WEIGHTS, matchingLengths, pathBetween, spatialGraph, type DecodingWeights, type SpatialGraph } from './decoding-graph.js';
import type { RotatedSurfaceCode, StabilizerType } from './rotated-surface-code.js';
import type { SyndromeDecoder } from './syndrome-decoder.js';
import { unionFindDecoder } from './union-find.decoder.js';

/** Largest component (detection events) matched exactly by the blossom; larger ones fall back (see the header). */
export const MAX_EXACT_COMPONENT = 160;

export interface MatchingDecoder extends SyndromeDecoder {
  /** Decodes since creation whose matching was not exact (a component above MAX_EXACT_COMPONENT). */
  readonly inexact: number;
}

export interface MatchingDecoderOptions {
  /** Merge parallel boundary edges (default true; false = the unmerged graph, kept for comparisons in the benchmark). */
  mergeBoundary?: boolean;
}

export function matchingDecoder(
  code: RotatedSurfaceCode,
  weights: DecodingWeights = DEFAULT_DECODING_WEIGHTS,
  options: MatchingDecoderOptions = {},
): MatchingDecoder {
  const lengths = matchingLengths(weights, options);
  const graphs: [SpatialGraph, SpatialGraph] = [spatialGraph(code, 0, lengths), spatialGraph(code, 1, lengths)];
  let fallback: SyndromeDecoder | undefined;
  let inexact = 0;
  return {
    get inexact() {
      return inexact;
    },
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
      const partner = matchDetectionEvents(
        stab.length,
        (i, j) => graph.distance[stab[i]! * m + stab[j]!]! + lengths.time * Math.abs(round[i]! - round[j]!),
        (i) => graph.boundaryDistance[stab[i]!]!,
        { round, timeLength: lengths.time, maxComponent: MAX_EXACT_COMPONENT },
      );
      if (!partner) {
        inexact++;
        fallback ??= unionFindDecoder(code, weights);
        return fallback.decode(type, events, correction);
      }
      return applyMatching(code, graph, type, stab, partner, correction);
    },
  };
}

/** Writes the correction of a pairing (partner index or -1 = boundary) of events at stabilizers `stab`; returns the logical flip. */
export function applyMatching(
  code: RotatedSurfaceCode,
  graph: SpatialGraph,
  type: StabilizerType,
  stab: readonly number[],
  partner: Int32Array,
  correction: Uint8Array,
): number {
  correction.fill(0);
  const apply = (path: readonly number[]): void => {
    for (const q of path) correction[q]! ^= 1;
  };
  partner.forEach((j, i) => {
    if (j === -1) apply(graph.boundaryPaths[stab[i]!]!);
    else if (j > i && stab[i] !== stab[j]) apply(pathBetween(graph, stab[i]!, stab[j]!));
  });
  let flip = 0;
  for (const q of code.logicalSupport[type]) flip ^= correction[q]!;
  return flip;
}

/** Components up to this many events are solved exactly by dynamic programming over subsets instead of the blossom. */
const MAX_SUBSET_COMPONENT = 10;
const subsetCost = new Float64Array(1 << MAX_SUBSET_COMPONENT);
const subsetChoice = new Int32Array(1 << MAX_SUBSET_COMPONENT);
const subsetDistance = new Float64Array(MAX_SUBSET_COMPONENT * MAX_SUBSET_COMPONENT);

/**
 * Exact minimum-weight pairing of a small component (s ≤ MAX_SUBSET_COMPONENT events) by dynamic programming over
 * subsets: cost(S) = min(boundary(i) + cost(S∖i), d(i, j) + cost(S∖{i, j})) for the lowest event i of S; O(2^s·s).
 */
function matchBySubsets(component: readonly number[], distance: (i: number, j: number) => number, bdist: Int32Array, partner: Int32Array): void {
  const s = component.length;
  for (let a = 0; a < s; a++) for (let b = a + 1; b < s; b++) subsetDistance[a * s + b] = distance(component[a]!, component[b]!);
  subsetCost[0] = 0;
  const full = (1 << s) - 1;
  for (let mask = 1; mask <= full; mask++) {
    const i = 31 - Math.clz32(mask & -mask);
    const rest = mask & ~(1 << i);
    let best = bdist[component[i]!]! + subsetCost[rest]!;
    let choice = -1;
    for (let j = i + 1; j < s; j++) {
      if (!(rest & (1 << j))) continue;
      const cost = subsetDistance[i * s + j]! + subsetCost[rest & ~(1 << j)]!;
      if (cost < best) {
        best = cost;
        choice = j;
      }
    }
    subsetCost[mask] = best;
    subsetChoice[mask] = choice;
  }
  for (let mask = full; mask; ) {
    const i = 31 - Math.clz32(mask & -mask);
    const j = subsetChoice[mask]!;
    mask &= ~(1 << i);
    if (j >= 0) {
      mask &= ~(1 << j);
      partner[component[i]!] = component[j]!;
      partner[component[j]!] = component[i]!;
    }
  }
}

export interface MatchOptions {
  /**
   * Rounds of the events, non-decreasing, with the time-edge length: then a pair is only examined while
   * timeLength·Δt can still be below the two boundary distances (same result, less work).
   */
  round?: readonly number[];
  timeLength?: number;
  /** Give up (return undefined) when a component has more events than this. */
  maxComponent?: number;
}

/**
 * A minimum-weight pairing of `count` detection events, each either matched to another (partner index) or to the
 * boundary (-1), for integer distances `distance(i, j)` and boundary distances `boundary(i)`; undefined when a
 * component exceeds `options.maxComponent`.
 */
export function matchDetectionEvents(count: number, distance: (i: number, j: number) => number, boundary: (i: number) => number): Int32Array;
export function matchDetectionEvents(
  count: number,
  distance: (i: number, j: number) => number,
  boundary: (i: number) => number,
  options: MatchOptions,
): Int32Array | undefined;
export function matchDetectionEvents(
  count: number,
  distance: (i: number, j: number) => number,
  boundary: (i: number) => number,
  options: MatchOptions = {},
): Int32Array | undefined {
  const partner = new Int32Array(count).fill(-1);
  const bdist = Int32Array.from({ length: count }, (_, i) => boundary(i));
  let maxBoundary = 0;
  for (let i = 0; i < count; i++) maxBoundary = Math.max(maxBoundary, bdist[i]!);
  const { round, timeLength = 0 } = options;
  // Components of the "worth pairing" relation: a pair at least as far apart as its two boundary distances is never needed.
  const parent = Int32Array.from({ length: count }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const size = new Int32Array(count).fill(1);
  const limit = options.maxComponent ?? Infinity;
  const pairs: [number, number, number][] = [];
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      if (round && timeLength * (round[j]! - round[i]!) >= bdist[i]! + maxBoundary) break;
      const dij = distance(i, j);
      if (dij < bdist[i]! + bdist[j]!) {
        pairs.push([i, j, dij]);
        const a = find(i);
        const b = find(j);
        if (a !== b) {
          parent[a] = b;
          size[b]! += size[a]!;
          if (size[b]! > limit) return undefined;
        }
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
    if (s <= MAX_SUBSET_COMPONENT) {
      matchBySubsets(component, distance, bdist, partner);
      continue;
    }
    component.forEach((event, index) => {
      local[event] = index;
    });
    // Vertices 0 … s−1 are the events, s … 2s−1 their boundary copies; copies pair up at no cost exactly where
    // their events could, so every solution "these pairs, the rest to the boundary" is a perfect matching here.
    const edges: WeightedEdge[] = [];
    for (const [i, j, w] of pairsOf.get(root)!) {
      edges.push({ u: local[i]!, v: local[j]!, weight: w });
      edges.push({ u: s + local[i]!, v: s + local[j]!, weight: 0 });
    }
    component.forEach((event, index) => {
      edges.push({ u: index, v: s + index, weight: bdist[event]! });
    });
    const mate = minWeightPerfectMatching(2 * s, edges);
    for (let index = 0; index < s; index++) if (mate[index]! < s) partner[component[index]!] = component[mate[index]!]!;
  }
  return partner;
}
