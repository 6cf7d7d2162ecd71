// Union-find decoding on the space-time graph (Delfosse & Nickerson, Quantum 5, 595 (2021)): clusters grow from the
// detection events by half-edges, odd clusters only and the smallest boundary first ("weighted growth", their
// §5), merge when an edge is fully grown, and stop when every cluster is even or touches the boundary; the peeling
// decoder (Delfosse & Zémor, Phys. Rev. Research 2, 033042 (2020)) then picks a correction inside each cluster on a
// spanning forest rooted at the boundary. Edge lengths from the noise model's log-likelihoods (decoding-graph.ts).
// Local matching inside clusters: the events of each final cluster (clusters touching the boundary are not merged
// through it) are paired by exact minimum-weight matching among themselves with the matching decoder's space-time
// distances, which replaces peeling's arbitrary choice of a correction inside a cluster by the cheapest one (the
// union-find clusters as the partition of a matching problem: cf. Wu & Zhong, "Interpretation of union-find decoder
// on weighted graphs and application to XZZX surface code", arXiv:2211.03288, and the clustering step of
// Higgott & Gidney's sparse blossom, arXiv:2303.15933). A cluster whose matching component would exceed
// MAX_LOCAL_COMPONENT events (far above threshold) is peeled instead, so the work per shot stays near-linear.
import {
  DEFAULT_DECODING_WEIGHTS,
  edgeLengths,
  matchingLengths,
  pathBetween,
  spatialGraph,
  type DecodingWeights,
  type SpatialGraph,
} from './decoding-graph.js';
import { matchDetectionEvents } from './matching.decoder.js';
import type { RotatedSurfaceCode, StabilizerType } from './rotated-surface-code.js';
import type { SyndromeDecoder } from './syndrome-decoder.js';

/** The explicit space-time graph of one type over T rounds (vertex t·m + k, boundary vertex T·m), CSR adjacency. */
interface SpaceTimeGraph {
  vertices: number;
  boundary: number;
  edgeU: Int32Array;
  edgeV: Int32Array;
  /** Data qubit of a space edge, -1 for a time edge. */
  edgeQubit: Int32Array;
  edgeLength: Int32Array;
  adjacencyStart: Int32Array;
  adjacency: Int32Array;
}

function spaceTimeGraph(code: RotatedSurfaceCode, type: StabilizerType, rounds: number, lengths: { space: number; time: number }): SpaceTimeGraph {
  const m = code.stabilizers[type].length;
  const boundary = rounds * m;
  const u: number[] = [];
  const v: number[] = [];
  const qubit: number[] = [];
  const length: number[] = [];
  for (let t = 0; t < rounds; t++) {
    code.qubitStabilizers[type].forEach((stabs, q) => {
      u.push(t * m + stabs[0]!);
      v.push(stabs.length > 1 ? t * m + stabs[1]! : boundary);
      qubit.push(q);
      length.push(lengths.space);
    });
    if (t + 1 < rounds) {
      for (let k = 0; k < m; k++) {
        u.push(t * m + k);
        v.push((t + 1) * m + k);
        qubit.push(-1);
        length.push(lengths.time);
      }
    }
  }
  const vertices = boundary + 1;
  const degree = new Int32Array(vertices + 1);
  for (let e = 0; e < u.length; e++) {
    degree[u[e]! + 1]!++;
    degree[v[e]! + 1]!++;
  }
  for (let i = 0; i < vertices; i++) degree[i + 1]! += degree[i]!;
  const fill = degree.slice(0, vertices);
  const adjacency = new Int32Array(2 * u.length);
  for (let e = 0; e < u.length; e++) {
    adjacency[fill[u[e]!]!++] = e;
    adjacency[fill[v[e]!]!++] = e;
  }
  return {
    vertices,
    boundary,
    edgeU: Int32Array.from(u),
    edgeV: Int32Array.from(v),
    edgeQubit: Int32Array.from(qubit),
    edgeLength: Int32Array.from(length),
    adjacencyStart: degree,
    adjacency,
  };
}

/** Per-graph scratch arrays, reset at the start of every decode (no state survives between decodes). */
interface Workspace {
  identity: Int32Array;
  parent: Int32Array;
  parity: Uint8Array;
  touchesBoundary: Uint8Array;
  members: (number[] | undefined)[];
  support: Int32Array;
  defect: Uint8Array;
  seen: Int32Array;
  visited: Uint8Array;
  parentEdge: Int32Array;
  /** Local matching: first and last event of each cluster root (-1 = none) and the next event of the same cluster. */
  clusterHead: Int32Array;
  clusterTail: Int32Array;
  nextEvent: Int32Array;
  stamp: number;
}

function workspace(graph: SpaceTimeGraph): Workspace {
  const v = graph.vertices;
  return {
    identity: Int32Array.from({ length: v }, (_, i) => i),
    parent: new Int32Array(v),
    parity: new Uint8Array(v),
    touchesBoundary: new Uint8Array(v),
    members: new Array(v),
    support: new Int32Array(graph.edgeU.length),
    defect: new Uint8Array(v),
    seen: new Int32Array(v),
    visited: new Uint8Array(v),
    parentEdge: new Int32Array(v),
    clusterHead: new Int32Array(v).fill(-1),
    clusterTail: new Int32Array(v),
    nextEvent: new Int32Array(v),
    stamp: 0,
  };
}

/** Largest matching component inside one cluster solved exactly; larger clusters are peeled. */
export const MAX_LOCAL_COMPONENT = 48;

export interface UnionFindOptions {
  /** Pair the events of each cluster by exact local matching (default) instead of peeling every cluster. */
  localMatching?: boolean;
}

export function unionFindDecoder(
  code: RotatedSurfaceCode,
  weights: DecodingWeights = DEFAULT_DECODING_WEIGHTS,
  options: UnionFindOptions = {},
): SyndromeDecoder {
  const lengths = edgeLengths(weights);
  const localMatching = options.localMatching ?? true;
  const matchLengths = matchingLengths(weights);
  const spatial: [SpatialGraph, SpatialGraph] = [spatialGraph(code, 0, matchLengths), spatialGraph(code, 1, matchLengths)];
  const graphs = new Map<string, { graph: SpaceTimeGraph; work: Workspace }>();
  const graphFor = (type: StabilizerType, rounds: number): { graph: SpaceTimeGraph; work: Workspace } => {
    const key = `${type}:${rounds}`;
    let entry = graphs.get(key);
    if (!entry) {
      const graph = spaceTimeGraph(code, type, rounds, lengths);
      entry = { graph, work: workspace(graph) };
      graphs.set(key, entry);
    }
    return entry;
  };
  const logicalFlip = (type: StabilizerType, correction: Uint8Array): number => {
    let flip = 0;
    for (const q of code.logicalSupport[type]) flip ^= correction[q]!;
    return flip;
  };
  /**
   * Matches the events of every cluster among themselves, writes their paths into `correction` and clears their
   * defects; returns the number of events left for peeling (clusters above MAX_LOCAL_COMPONENT).
   */
  const matchClusters = (
    type: StabilizerType,
    events: Uint8Array,
    find: (i: number) => number,
    work: Workspace,
    defect: Uint8Array,
    correction: Uint8Array,
  ): number => {
    const graph = spatial[type];
    const m = graph.m;
    const flipPath = (path: readonly number[]): void => {
      for (const q of path) correction[q]! ^= 1;
    };
    // Events grouped by cluster root as linked lists (head per root, next per event), in increasing index = round order.
    const { clusterHead, clusterTail, nextEvent } = work;
    const roots: number[] = [];
    for (let i = 0; i < events.length; i++) {
      if (!events[i]) continue;
      const root = find(i);
      nextEvent[i] = -1;
      if (clusterHead[root] === -1) {
        clusterHead[root] = i;
        roots.push(root);
      } else nextEvent[clusterTail[root]!] = i;
      clusterTail[root] = i;
    }
    let left = 0;
    for (const root of roots) {
      const first = clusterHead[root]!;
      clusterHead[root] = -1;
      const second = nextEvent[first]!;
      if (second === -1) {
        flipPath(graph.boundaryPaths[first % m]!);
        defect[first] = 0;
        continue;
      }
      if (nextEvent[second] === -1) {
        const a = first % m;
        const b = second % m;
        const pair = graph.distance[a * m + b]! + matchLengths.time * Math.abs(Math.floor(first / m) - Math.floor(second / m));
        if (pair < graph.boundaryDistance[a]! + graph.boundaryDistance[b]!) {
          if (a !== b) flipPath(pathBetween(graph, a, b));
        } else {
          flipPath(graph.boundaryPaths[a]!);
          flipPath(graph.boundaryPaths[b]!);
        }
        defect[first] = 0;
        defect[second] = 0;
        continue;
      }
      const cluster: number[] = [];
      for (let i = first; i !== -1; i = nextEvent[i]!) cluster.push(i);
      const stab = cluster.map((i) => i % m);
      const round = cluster.map((i) => Math.floor(i / m));
      const partner = matchDetectionEvents(
        cluster.length,
        (i, j) => graph.distance[stab[i]! * m + stab[j]!]! + matchLengths.time * Math.abs(round[i]! - round[j]!),
        (i) => graph.boundaryDistance[stab[i]!]!,
        { round, timeLength: matchLengths.time, maxComponent: MAX_LOCAL_COMPONENT },
      );
      if (!partner) {
        left += cluster.length;
        continue;
      }
      partner.forEach((j, i) => {
        if (j === -1) flipPath(graph.boundaryPaths[stab[i]!]!);
        else if (j > i && stab[i] !== stab[j]) flipPath(pathBetween(graph, stab[i]!, stab[j]!));
      });
      for (const i of cluster) defect[i] = 0;
    }
    return left;
  };
  return {
    decode(type: StabilizerType, events: Uint8Array, correction: Uint8Array): number {
      const m = code.stabilizers[type].length;
      const rounds = events.length / m;
      const { graph: g, work } = graphFor(type, rounds);
      const { boundary, edgeU, edgeV, edgeQubit, edgeLength, adjacencyStart, adjacency } = g;
      const { parent, parity, touchesBoundary, members, support, defect, seen, visited, parentEdge } = work;
      parent.set(work.identity);
      parity.fill(0);
      touchesBoundary.fill(0);
      touchesBoundary[boundary] = 1;
      members.fill(undefined);
      support.fill(0);
      defect.fill(0);
      let roots: number[] = [];
      for (let i = 0; i < events.length; i++) {
        if (!events[i]) continue;
        defect[i] = 1;
        parity[i] = 1;
        members[i] = [i];
        roots.push(i);
      }
      const find = (i: number): number => {
        while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
        return i;
      };
      const union = (a: number, b: number): void => {
        let ra = find(a);
        let rb = find(b);
        if (ra === rb) return;
        members[ra] ??= [ra];
        members[rb] ??= [rb];
        const ma = members[ra]!;
        const mb = members[rb]!;
        if (ma.length < mb.length) [ra, rb] = [rb, ra];
        const big = members[ra]!;
        for (const x of members[rb]!) big.push(x);
        members[rb] = undefined;
        parent[rb] = ra;
        parity[ra]! ^= parity[rb]!;
        touchesBoundary[ra]! |= touchesBoundary[rb]!;
        roots.push(ra);
      };
      // A fully grown boundary edge marks its cluster as touching the boundary; clusters are never merged through it.
      const fuse = (e: number): void => {
        const u = edgeU[e]!;
        const v = edgeV[e]!;
        if (v === boundary || u === boundary) {
          const root = find(u === boundary ? v : u);
          touchesBoundary[root] = 1;
        } else union(u, v);
      };
      const fused: number[] = [];
      const odd: number[] = [];
      const sizes: number[] = [];
      for (;;) {
        // Odd clusters (deduplicated current roots), each with its boundary size (edges not yet fully grown).
        const stamp = ++work.stamp;
        odd.length = 0;
        for (const r of roots) {
          const root = find(r);
          if (seen[root] === stamp) continue;
          seen[root] = stamp;
          if (parity[root] && !touchesBoundary[root]) odd.push(root);
        }
        if (odd.length === 0) break;
        roots = odd.slice();
        let smallest = Infinity;
        sizes.length = 0;
        for (const root of odd) {
          let size = 0;
          for (const x of members[root]!) {
            for (let a = adjacencyStart[x]!; a < adjacencyStart[x + 1]!; a++) if (support[adjacency[a]!]! < edgeLength[adjacency[a]!]!) size++;
          }
          if (size < smallest) smallest = size;
          sizes.push(size);
        }
        fused.length = 0;
        odd.forEach((root, index) => {
          if (sizes[index] !== smallest) return;
          for (const x of members[root]!) {
            for (let a = adjacencyStart[x]!; a < adjacencyStart[x + 1]!; a++) {
              const e = adjacency[a]!;
              if (support[e]! >= edgeLength[e]!) continue;
              if (++support[e]! >= edgeLength[e]!) fused.push(e);
            }
          }
        });
        for (const e of fused) fuse(e);
      }
      correction.fill(0);
      if (localMatching && matchClusters(type, events, find, work, defect, correction) === 0) return logicalFlip(type, correction);
      // Peeling (clusters not matched locally): a spanning forest of the fully grown edges, the boundary first so that it roots its tree.
      visited.fill(0);
      parentEdge.fill(-1);
      const order: number[] = [];
      const explore = (start: number): void => {
        visited[start] = 1;
        order.push(start);
        for (let head = order.length - 1; head < order.length; head++) {
          const x = order[head]!;
          for (let a = adjacencyStart[x]!; a < adjacencyStart[x + 1]!; a++) {
            const e = adjacency[a]!;
            if (support[e]! < edgeLength[e]!) continue;
            const y = edgeU[e] === x ? edgeV[e]! : edgeU[e]!;
            if (visited[y]) continue;
            visited[y] = 1;
            parentEdge[y] = e;
            order.push(y);
          }
        }
      };
      explore(boundary);
      for (let i = 0; i < events.length; i++) if (defect[i] && !visited[i]) explore(i);
      for (let index = order.length - 1; index >= 0; index--) {
        const x = order[index]!;
        const e = parentEdge[x]!;
        if (e < 0 || !defect[x]) continue;
        defect[x] = 0;
        const y = edgeU[e] === x ? edgeV[e]! : edgeU[e]!;
        defect[y]! ^= 1;
        if (edgeQubit[e]! >= 0) correction[edgeQubit[e]!]! ^= 1;
      }
      let flip = 0;
      for (const q of code.logicalSupport[type]) flip ^= correction[q]!;
      return flip;
    },
  };
}
