// Union-find decoding on the space-time graph (Delfosse & Nickerson, Quantum 5, 595 (2021)): clusters grow from the
// detection events by half-edges, odd clusters only and the smallest boundary first ("weighted growth", their
// §5), merge when an edge is fully grown, and stop when every cluster is even or touches the boundary; the peeling
// decoder (Delfosse & Zémor, Phys. Rev. Research 2, 033042 (2020)) then picks a correction inside each cluster on a
// spanning forest rooted at the boundary. Edge lengths from the noise model's log-likelihoods (decoding-graph.ts).
import { DEFAULT_DECODING_WEIGHTS, edgeLengths, type DecodingWeights } from './decoding-graph.js';
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

export function unionFindDecoder(code: RotatedSurfaceCode, weights: DecodingWeights = DEFAULT_DECODING_WEIGHTS): SyndromeDecoder {
  const lengths = edgeLengths(weights);
  const graphs = new Map<string, SpaceTimeGraph>();
  const graphFor = (type: StabilizerType, rounds: number): SpaceTimeGraph => {
    const key = `${type}:${rounds}`;
    let graph = graphs.get(key);
    if (!graph) graphs.set(key, (graph = spaceTimeGraph(code, type, rounds, lengths)));
    return graph;
  };
  return {
    decode(type: StabilizerType, events: Uint8Array, correction: Uint8Array): number {
      const m = code.stabilizers[type].length;
      const rounds = events.length / m;
      const g = graphFor(type, rounds);
      const { vertices, boundary, edgeU, edgeV, edgeQubit, edgeLength, adjacencyStart, adjacency } = g;
      const parent = Int32Array.from({ length: vertices }, (_, i) => i);
      const parity = new Uint8Array(vertices);
      const touchesBoundary = new Uint8Array(vertices);
      touchesBoundary[boundary] = 1;
      const members: (number[] | undefined)[] = new Array(vertices);
      const support = new Int32Array(edgeU.length);
      const defect = new Uint8Array(vertices);
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
        const ma = (members[ra] ??= [ra]);
        const mb = (members[rb] ??= [rb]);
        if (ma.length < mb.length) [ra, rb] = [rb, ra];
        const big = members[ra]!;
        for (const x of members[rb]!) big.push(x);
        members[rb] = undefined;
        parent[rb] = ra;
        parity[ra]! ^= parity[rb]!;
        touchesBoundary[ra]! |= touchesBoundary[rb]!;
        roots.push(ra);
      };
      const fused: number[] = [];
      for (;;) {
        // Odd clusters (deduplicated current roots), each with its boundary size (edges not yet fully grown).
        const seen = new Set<number>();
        const odd: number[] = [];
        for (const r of roots) {
          const root = find(r);
          if (seen.has(root)) continue;
          seen.add(root);
          if (parity[root] && !touchesBoundary[root]) odd.push(root);
        }
        roots = odd.slice();
        if (odd.length === 0) break;
        let smallest = Infinity;
        const sizes = odd.map((root) => {
          let size = 0;
          for (const x of members[root]!) {
            for (let a = adjacencyStart[x]!; a < adjacencyStart[x + 1]!; a++) if (support[adjacency[a]!]! < edgeLength[adjacency[a]!]!) size++;
          }
          smallest = Math.min(smallest, size);
          return size;
        });
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
        for (const e of fused) union(edgeU[e]!, edgeV[e]!);
      }
      // Peeling: a spanning forest of the fully grown edges, the boundary first so that it roots its tree.
      const visited = new Uint8Array(vertices);
      const parentEdge = new Int32Array(vertices).fill(-1);
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
      correction.fill(0);
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
