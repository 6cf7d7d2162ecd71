/**
 * A device's connectivity for routing: adjacency and all-pairs shortest-path distances (BFS
 * from every qubit; unweighted edges, as in SABRE's distance matrix D).
 */
import { CircuitError } from '../errors.js';

export interface Coupling {
  numQubits: number;
  /** Undirected neighbours of each physical qubit. */
  neighbours: number[][];
  /** dist[a * n + b] = number of edges on a shortest path. */
  dist: Int32Array;
  /** Directed edges as listed (`a→b`), for directional entanglers. */
  directed: Set<number>;
  allToAll: boolean;
}

export function buildCoupling(numQubits: number, couplingMap: readonly (readonly [number, number])[] | null): Coupling {
  const n = numQubits;
  const neighbours: number[][] = Array.from({ length: n }, () => []);
  const directed = new Set<number>();
  if (couplingMap === null) {
    for (let a = 0; a < n; a++)
      for (let b = 0; b < n; b++)
        if (a !== b) {
          neighbours[a].push(b);
          directed.add(a * n + b);
        }
  } else {
    for (const edge of couplingMap) {
      const [a, b] = edge;
      if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || a >= n || b >= n || a === b) {
        throw new CircuitError('semantic', `coupling map edge [${edge.join(', ')}] must join two different qubits in 0..${n - 1}`);
      }
      directed.add(a * n + b);
      if (!neighbours[a].includes(b)) neighbours[a].push(b);
      if (!neighbours[b].includes(a)) neighbours[b].push(a);
    }
  }
  const dist = new Int32Array(n * n).fill(-1);
  const queue = new Int32Array(n);
  for (let s = 0; s < n; s++) {
    let head = 0,
      tail = 0;
    queue[tail++] = s;
    dist[s * n + s] = 0;
    while (head < tail) {
      const v = queue[head++];
      for (const w of neighbours[v])
        if (dist[s * n + w] < 0) {
          dist[s * n + w] = dist[s * n + v] + 1;
          queue[tail++] = w;
        }
    }
  }
  if (n > 1 && dist.some((d) => d < 0)) throw new CircuitError('semantic', 'the coupling map is not connected: every qubit must be reachable from every other');
  for (const list of neighbours) list.sort((x, y) => x - y);
  return { numQubits: n, neighbours, dist, directed, allToAll: couplingMap === null };
}

/** Physical qubits on a shortest path from a to b (both included). */
export function shortestPath(c: Coupling, a: number, b: number): number[] {
  const n = c.numQubits;
  const path = [a];
  let v = a;
  while (v !== b) {
    v = c.neighbours[v].find((w) => c.dist[w * n + b] === c.dist[v * n + b] - 1)!;
    path.push(v);
  }
  return path;
}
