// The space-time decoding graph of one stabilizer type (Dennis et al., J. Math. Phys. 43, 4452 (2002), §IV):
// nodes = (stabilizer, round) plus one boundary node; a space edge per data qubit and round (the qubit's one or two
// stabilizers of that type, or stabilizer–boundary), a time edge per stabilizer between consecutive rounds (a
// measurement error). Edge weights are log-likelihood ratios ln((1 − p)/p) for data flips and ln((1 − q)/q) for
// measurement flips, scaled to integers so that matching is exact.
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

/** Spatial structure of one type: stabilizer graph distances and one shortest data-qubit path per pair and to the boundary. */
export interface SpatialGraph {
  type: StabilizerType;
  /** Number of stabilizers of this type. */
  m: number;
  /** hops[a * m + b]: number of data qubits on a shortest path between stabilizers a and b. */
  hops: Int32Array;
  /** boundaryHops[a]: data qubits on a shortest path from a to the boundary. */
  boundaryHops: Int32Array;
  /** Data qubits of one shortest path a → b (a < b) at paths[a * m + b]; a → boundary at boundaryPaths[a]. */
  paths: number[][];
  boundaryPaths: number[][];
  /** Per data qubit: its stabilizers of this type ([a] or [a, b]). */
  qubitStabilizers: number[][];
}

export function spatialGraph(code: RotatedSurfaceCode, type: StabilizerType): SpatialGraph {
  const m = code.stabilizers[type].length;
  const boundary = m;
  const qubitStabilizers = code.qubitStabilizers[type];
  // Adjacency over m stabilizers + the boundary node, each edge labelled by its data qubit.
  const adjacency: { to: number; qubit: number }[][] = Array.from({ length: m + 1 }, () => []);
  qubitStabilizers.forEach((stabs, qubit) => {
    const a = stabs[0]!;
    const b = stabs.length > 1 ? stabs[1]! : boundary;
    adjacency[a]!.push({ to: b, qubit });
    adjacency[b]!.push({ to: a, qubit });
  });
  const hops = new Int32Array(m * m);
  const boundaryHops = new Int32Array(m);
  const paths: number[][] = new Array(m * m);
  const boundaryPaths: number[][] = new Array(m);
  const distance = new Int32Array(m + 1);
  const viaQubit = new Int32Array(m + 1);
  const viaNode = new Int32Array(m + 1);
  const pathTo = (target: number): number[] => {
    const path: number[] = [];
    for (let node = target; viaNode[node]! >= 0; node = viaNode[node]!) path.push(viaQubit[node]!);
    return path;
  };
  for (let source = 0; source < m; source++) {
    distance.fill(-1);
    viaNode.fill(-1);
    distance[source] = 0;
    const queue = [source];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head]!;
      if (node === boundary) continue; // paths do not pass through the boundary
      for (const { to, qubit } of adjacency[node]!) {
        if (distance[to] !== -1) continue;
        distance[to] = distance[node]! + 1;
        viaQubit[to] = qubit;
        viaNode[to] = node;
        queue.push(to);
      }
    }
    for (let target = 0; target < m; target++) {
      hops[source * m + target] = distance[target]!;
      if (target > source) paths[source * m + target] = pathTo(target);
    }
    boundaryHops[source] = distance[boundary]!;
    boundaryPaths[source] = pathTo(boundary);
  }
  return { type, m, hops, boundaryHops, paths, boundaryPaths, qubitStabilizers };
}

/** Data qubits of the stored shortest path between stabilizers a and b (a ≠ b). */
export function pathBetween(graph: SpatialGraph, a: number, b: number): number[] {
  return a < b ? graph.paths[a * graph.m + b]! : graph.paths[b * graph.m + a]!;
}
