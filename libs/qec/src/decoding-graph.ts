// The space-time decoding graph of one stabilizer type (Dennis et al., J. Math. Phys. 43, 4452 (2002), §IV):
// nodes = (stabilizer, round) plus one boundary node; a space edge per data qubit and round (the qubit's one or two
// stabilizers of that type, or stabilizer–boundary), a time edge per stabilizer between consecutive rounds (a
// measurement error). Edge weights are log-likelihood ratios ln((1 − p)/p) for data flips and ln((1 − q)/q) for
// measurement flips, scaled to integers so that matching is exact. Parallel edges are merged as in a detector error
// model (Gidney, Stim, Quantum 5, 497 (2021); Higgott, PyMatching, ACM TQC 3, 16 (2022)): a stabilizer with c data
// qubits on the boundary has one boundary edge of probability (1 − (1 − 2p)^c)/2 (all c flip the same observables).
import type { RotatedSurfaceCode, StabilizerType } from './rotated-surface-code.js';

/** Physical error rates the weights are computed from (the served models assume p = q = 1 %; only q/p matters there). */
export interface DecodingWeights {
  /** Data-qubit flip probability per round (space edges). */
  p: number;
  /** Measurement flip probability (time edges). */
  q: number;
}

export const DEFAULT_DECODING_WEIGHTS: DecodingWeights = { p: 0.01, q: 0.01 };

/** Integer lengths: the smaller of the two weights maps to 2 (two half-edge growth steps for union-find). */
export function edgeLengths(weights: DecodingWeights): { space: number; time: number } {
  const llr = (p: number): number => Math.log((1 - p) / Math.min(Math.max(p, 1e-12), 0.5 - 1e-9));
  const ws = llr(weights.p);
  const wt = llr(weights.q);
  const unit = Math.min(ws, wt);
  return { space: Math.max(1, Math.round((2 * ws) / unit)), time: Math.max(1, Math.round((2 * wt) / unit)) };
}

/** Integer resolution of the matching weights: the smaller log-likelihood ratio maps to this many units. */
export const MATCHING_WEIGHT_RESOLUTION = 100;

/** Log-likelihood ratio ln((1 − p)/p), p clamped to (0, ½). */
export function logLikelihoodRatio(p: number): number {
  const clamped = Math.min(Math.max(p, 1e-12), 0.5 - 1e-9);
  return Math.log((1 - clamped) / clamped);
}

/** Integer weights of the matching graph: space and time edges, and a boundary edge merging c parallel data qubits (index c). */
export interface MatchingLengths {
  space: number;
  time: number;
  /** boundary[c] for c = 1, 2 parallel boundary qubits of one stabilizer (index 0 unused). */
  boundary: [number, number, number];
}

/** `mergeBoundary: false` gives every boundary edge the single-qubit weight (the graph before merging; for comparisons). */
export function matchingLengths(weights: DecodingWeights, options: { mergeBoundary?: boolean } = {}): MatchingLengths {
  const merged = (c: number): number => (options.mergeBoundary === false ? weights.p : (1 - (1 - 2 * weights.p) ** c) / 2);
  const ws = logLikelihoodRatio(weights.p);
  const wt = logLikelihoodRatio(weights.q);
  const unit = Math.min(ws, wt) / MATCHING_WEIGHT_RESOLUTION;
  // Capped so that path lengths (≤ ~2D edges) stay far inside 32-bit integers even for extreme p/q ratios.
  const scaled = (w: number): number => Math.min(1_000_000, Math.max(1, Math.round(w / unit)));
  return { space: scaled(ws), time: scaled(wt), boundary: [0, scaled(logLikelihoodRatio(merged(1))), scaled(logLikelihoodRatio(merged(2)))] };
}

/** Spatial structure of one type: stabilizer graph distances and one shortest data-qubit path per pair and to the boundary. */
export interface SpatialGraph {
  type: StabilizerType;
  /** Number of stabilizers of this type. */
  m: number;
  /** hops[a * m + b]: number of data qubits on the stored shortest path between stabilizers a and b (the fewest with unit lengths). */
  hops: Int32Array;
  /** boundaryHops[a]: data qubits on the stored shortest path from a to the boundary (a merged boundary edge counts once). */
  boundaryHops: Int32Array;
  /**
   * distance[a * m + b]: weighted shortest-path length between stabilizers a and b (space edges `lengths.space`,
   * merged boundary edges `lengths.boundary[c]`; paths do not pass through the boundary); boundaryDistance[a] to the
   * boundary. With the unit lengths of spatialGraph(code, type) these equal hops and boundaryHops.
   */
  distance: Int32Array;
  boundaryDistance: Int32Array;
  /** Data qubits of one shortest (by distance) path a → b (a < b) at paths[a * m + b]; a → boundary at boundaryPaths[a]. */
  paths: number[][];
  boundaryPaths: number[][];
  /** Per data qubit: its stabilizers of this type ([a] or [a, b]). */
  qubitStabilizers: number[][];
}

const UNIT_LENGTHS: MatchingLengths = { space: 1, time: 1, boundary: [0, 1, 1] };
const spatialCache = new Map<string, SpatialGraph>();

/** The spatial graph of one type (cached per distance, type and lengths; read-only). */
export function spatialGraph(code: RotatedSurfaceCode, type: StabilizerType, lengths: MatchingLengths = UNIT_LENGTHS): SpatialGraph {
  const key = `${code.distance}:${type}:${lengths.space}:${lengths.boundary[1]}:${lengths.boundary[2]}`;
  let graph = spatialCache.get(key);
  if (!graph) {
    graph = buildSpatialGraph(code, type, lengths);
    if (spatialCache.size > 64) spatialCache.clear();
    spatialCache.set(key, graph);
  }
  return graph;
}

function buildSpatialGraph(code: RotatedSurfaceCode, type: StabilizerType, lengths: MatchingLengths): SpatialGraph {
  const m = code.stabilizers[type].length;
  const qubitStabilizers = code.qubitStabilizers[type];
  // Stabilizer graph (one edge per data qubit shared by two stabilizers) and each stabilizer's boundary qubits; the
  // c boundary qubits of a stabilizer form one merged edge of length lengths.boundary[c], labelled by the first.
  const adjacency: { to: number; qubit: number }[][] = Array.from({ length: m }, () => []);
  const boundaryQubits: number[][] = Array.from({ length: m }, () => []);
  qubitStabilizers.forEach((stabs, qubit) => {
    if (stabs.length > 1) {
      adjacency[stabs[0]!]!.push({ to: stabs[1]!, qubit });
      adjacency[stabs[1]!]!.push({ to: stabs[0]!, qubit });
    } else {
      boundaryQubits[stabs[0]!]!.push(qubit);
    }
  });
  const boundaryEdge = boundaryQubits.map((qubits) => (qubits.length ? lengths.boundary[Math.min(qubits.length, 2)]! : Infinity));
  const hops = new Int32Array(m * m);
  const boundaryHops = new Int32Array(m);
  const distanceTable = new Int32Array(m * m);
  const boundaryDistance = new Int32Array(m);
  const paths: number[][] = new Array(m * m);
  const boundaryPaths: number[][] = new Array(m);
  const depth = new Int32Array(m);
  const viaQubit = new Int32Array(m);
  const viaNode = new Int32Array(m);
  const pathTo = (target: number): number[] => {
    const path: number[] = [];
    for (let node = target; viaNode[node]! >= 0; node = viaNode[node]!) path.push(viaQubit[node]!);
    return path;
  };
  for (let source = 0; source < m; source++) {
    // Paths between stabilizers use space edges only (equal lengths): BFS. Paths to the boundary end with one merged
    // boundary edge: the best last stabilizer c minimises space·hops(a, c) + boundary edge of c (fewest hops on ties).
    depth.fill(-1);
    viaNode.fill(-1);
    depth[source] = 0;
    const queue = [source];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      for (const { to, qubit } of adjacency[node]!) {
        if (depth[to] !== -1) continue;
        depth[to] = depth[node]! + 1;
        viaQubit[to] = qubit;
        viaNode[to] = node;
        queue.push(to);
      }
    }
    let exit = -1;
    let exitLength = Infinity;
    for (const node of queue) {
      const length = lengths.space * depth[node]! + boundaryEdge[node]!;
      if (length < exitLength || (length === exitLength && depth[node]! < depth[exit]!)) {
        exit = node;
        exitLength = length;
      }
    }
    for (let target = 0; target < m; target++) {
      hops[source * m + target] = depth[target]!;
      distanceTable[source * m + target] = lengths.space * depth[target]!;
      if (target > source) paths[source * m + target] = pathTo(target);
    }
    boundaryDistance[source] = exitLength;
    boundaryHops[source] = depth[exit]! + 1;
    boundaryPaths[source] = [...pathTo(exit), boundaryQubits[exit]![0]!];
  }
  return { type, m, hops, boundaryHops, distance: distanceTable, boundaryDistance, paths, boundaryPaths, qubitStabilizers };
}

/** Data qubits of the stored shortest path between stabilizers a and b (a ≠ b). */
export function pathBetween(graph: SpatialGraph, a: number, b: number): number[] {
  return a < b ? graph.paths[a * graph.m + b]! : graph.paths[b * graph.m + a]!;
}
