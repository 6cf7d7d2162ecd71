/**
 * Initial layout and routing with SWAP insertion.
 *
 * SABRE (Li, Ding, Xie, "Tackling the Qubit Mapping Problem for NISQ-Era Quantum Devices",
 * ASPLOS 2019): gates whose dependencies are met form the front layer F; executable ones are
 * applied; otherwise the SWAP on an edge touching F minimising
 *   H = max(decay(p), decay(p')) · ( Σ_{g∈F} D[π(g)]/|F| + W · Σ_{g∈E} D[π(g)]/|E| )
 * is inserted (E: the next ≤ 20 two-qubit gates, W = 0.5; decay += 0.001 per use of a qubit,
 * reset after 5 swaps or any executed gate). The initial layout comes from the paper's reverse
 * traversal: route forward, take the final layout as the initial layout of the reversed
 * circuit, route it, and use its final layout (two rounds); several seeded trials (one starting
 * from the trivial layout) keep the routing with the fewest swaps. A release valve (Qiskit's
 * SabreSwap) routes the closest front gate along a shortest path if 10·n swaps make no progress.
 *
 * The greedy router, for comparison, has no look-ahead: gates in program order, each blocked gate
 * gets the swaps along a shortest path that make its qubits adjacent (trivial initial layout
 * unless one is given).
 */
import { createRng, type Rng } from '../simulator/rng.js';
import { shortestPath, type Coupling } from './coupling.js';
import { opQubits, type WorkOp } from './lower-to-cx.js';

export type Router = 'sabre' | 'greedy';

export const SABRE_EXTENDED_SET_SIZE = 20;
export const SABRE_EXTENDED_SET_WEIGHT = 0.5;
export const SABRE_DECAY_INCREMENT = 0.001;
export const SABRE_DECAY_RESET_INTERVAL = 5;
export const SABRE_LAYOUT_ROUNDS = 2;
export const SABRE_DEFAULT_TRIALS = 6;

export interface RoutingResult {
  /** Operations on physical qubits, with inserted `swap` two-qubit gates. */
  ops: WorkOp[];
  /** Virtual qubit (the circuit's qubits first, then ancillas) → physical qubit, before and after. */
  initialLayout: Int32Array;
  finalLayout: Int32Array;
  swaps: number;
}

export interface RoutingOptions {
  router?: Router;
  seed?: number;
  trials?: number;
  /** A fixed initial layout (virtual → physical, all device qubits): no layout search. */
  layout?: Int32Array;
}

interface Dag {
  ops: WorkOp[];
  succ: number[][];
  preds: Int32Array;
}

function buildDag(ops: WorkOp[], numQubits: number): Dag {
  const last = new Int32Array(numQubits).fill(-1);
  const succ: number[][] = ops.map(() => []);
  const preds = new Int32Array(ops.length);
  ops.forEach((op, i) => {
    const seen = new Set<number>();
    for (const q of opQubits(op)) {
      const p = last[q];
      if (p >= 0 && !seen.has(p)) {
        seen.add(p);
        succ[p].push(i);
        preds[i]++;
      }
      last[q] = i;
    }
  });
  return { ops, succ, preds };
}

const needsAdjacency = (op: WorkOp): op is Extract<WorkOp, { k: 'g2' }> => op.k === 'g2';

function mapOp(op: WorkOp, l2p: Int32Array): WorkOp {
  switch (op.k) {
    case 'g2':
      return { ...op, a: l2p[op.a], b: l2p[op.b] };
    case 'barrier':
      return { ...op, qubits: op.qubits.map((q) => l2p[q]) };
    default:
      return { ...op, q: l2p[op.q] };
  }
}

function applySwap(l2p: Int32Array, p2l: Int32Array, p: number, q: number): void {
  const a = p2l[p],
    b = p2l[q];
  p2l[p] = b;
  p2l[q] = a;
  l2p[a] = q;
  l2p[b] = p;
}

/** One SABRE traversal of `dag` from layout `l2p` (modified in place to the final layout). */
function sabrePass(dag: Dag, coupling: Coupling, l2p: Int32Array, rng: Rng, emit: WorkOp[] | null): number {
  const n = coupling.numQubits;
  const D = coupling.dist;
  const p2l = new Int32Array(n);
  for (let v = 0; v < n; v++) p2l[l2p[v]] = v;
  const remaining = dag.preds.slice();
  const decay = new Float64Array(n).fill(1);
  let ready: number[] = [];
  for (let i = 0; i < dag.ops.length; i++) if (remaining[i] === 0) ready.push(i);
  let front: number[] = [];
  let swaps = 0;
  let sinceProgress = 0;
  const valve = 10 * n;

  const execute = (): boolean => {
    let progressed = false;
    const stack = ready;
    ready = [];
    const blocked: number[] = [];
    while (stack.length) {
      const i = stack.pop()!;
      const op = dag.ops[i];
      if (needsAdjacency(op) && D[l2p[op.a] * n + l2p[op.b]] !== 1) {
        blocked.push(i);
        continue;
      }
      progressed = true;
      if (emit) emit.push(mapOp(op, l2p));
      for (const s of dag.succ[i]) if (--remaining[s] === 0) stack.push(s);
    }
    front = blocked;
    return progressed;
  };

  const swapAndEmit = (p: number, q: number): void => {
    applySwap(l2p, p2l, p, q);
    if (emit) emit.push({ k: 'g2', name: 'swap', a: p, b: q, params: [] });
    swaps++;
  };

  for (;;) {
    ready.push(...front);
    if (execute()) {
      decay.fill(1);
      sinceProgress = 0;
    }
    if (front.length === 0) break;
    if (sinceProgress >= valve) {
      // Release valve: route the closest front gate along a shortest path.
      let best = front[0];
      for (const i of front) {
        const op = dag.ops[i] as Extract<WorkOp, { k: 'g2' }>;
        const b = dag.ops[best] as Extract<WorkOp, { k: 'g2' }>;
        if (D[l2p[op.a] * n + l2p[op.b]] < D[l2p[b.a] * n + l2p[b.b]]) best = i;
      }
      const g = dag.ops[best] as Extract<WorkOp, { k: 'g2' }>;
      const path = shortestPath(coupling, l2p[g.a], l2p[g.b]);
      for (let j = 0; j + 2 < path.length; j++) swapAndEmit(path[j], path[j + 1]);
      sinceProgress = 0;
      continue;
    }
    const frontPairs = front.map((i) => dag.ops[i] as Extract<WorkOp, { k: 'g2' }>);
    const extended = extendedSet(dag, front, remaining);
    let bestScore = Infinity;
    let best: [number, number][] = [];
    const seen = new Set<number>();
    for (const g of frontPairs)
      for (const p of [l2p[g.a], l2p[g.b]])
        for (const q of coupling.neighbours[p]) {
          const key = Math.min(p, q) * n + Math.max(p, q);
          if (seen.has(key)) continue;
          seen.add(key);
          const moved = (v: number): number => {
            const x = l2p[v];
            return x === p ? q : x === q ? p : x;
          };
          let f = 0;
          for (const h of frontPairs) f += D[moved(h.a) * n + moved(h.b)];
          let e = 0;
          for (const h of extended) e += D[moved(h.a) * n + moved(h.b)];
          const score = Math.max(decay[p], decay[q]) * (f / frontPairs.length + (extended.length ? (SABRE_EXTENDED_SET_WEIGHT * e) / extended.length : 0));
          if (score < bestScore - 1e-12) {
            bestScore = score;
            best = [[p, q]];
          } else if (Math.abs(score - bestScore) <= 1e-12) best.push([p, q]);
        }
    const [p, q] = best[Math.floor(rng.next() * best.length)];
    swapAndEmit(p, q);
    decay[p] += SABRE_DECAY_INCREMENT;
    decay[q] += SABRE_DECAY_INCREMENT;
    sinceProgress++;
    if (sinceProgress % SABRE_DECAY_RESET_INTERVAL === 0) decay.fill(1);
  }
  return swaps;
}

/** The next two-qubit gates after the front layer (breadth-first over successors). */
function extendedSet(dag: Dag, front: number[], remaining: Int32Array): Extract<WorkOp, { k: 'g2' }>[] {
  const out: Extract<WorkOp, { k: 'g2' }>[] = [];
  const visited = new Set<number>(front);
  const queue = [...front];
  const pending = new Map<number, number>();
  for (let head = 0; head < queue.length && out.length < SABRE_EXTENDED_SET_SIZE; head++) {
    for (const s of dag.succ[queue[head]]) {
      if (visited.has(s)) continue;
      // Take a successor once all its predecessors inside the look-ahead window are taken.
      const left = (pending.get(s) ?? remaining[s]) - 1;
      pending.set(s, left);
      if (left > 0) continue;
      visited.add(s);
      queue.push(s);
      const op = dag.ops[s];
      if (op.k === 'g2') {
        out.push(op);
        if (out.length >= SABRE_EXTENDED_SET_SIZE) break;
      }
    }
  }
  return out;
}

function identityLayout(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}

function randomLayout(n: number, rng: Rng): Int32Array {
  const l = identityLayout(n);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [l[i], l[j]] = [l[j], l[i]];
  }
  return l;
}

/** Greedy shortest-path routing in program order from `layout` (default trivial). */
export function routeGreedy(ops: WorkOp[], coupling: Coupling, layout?: Int32Array): RoutingResult {
  const n = coupling.numQubits;
  const l2p = layout ? layout.slice() : identityLayout(n);
  const initialLayout = l2p.slice();
  const p2l = new Int32Array(n);
  for (let v = 0; v < n; v++) p2l[l2p[v]] = v;
  const out: WorkOp[] = [];
  let swaps = 0;
  for (const op of ops) {
    if (op.k === 'g2' && coupling.dist[l2p[op.a] * n + l2p[op.b]] > 1) {
      const path = shortestPath(coupling, l2p[op.a], l2p[op.b]);
      for (let j = 0; j + 2 < path.length; j++) {
        applySwap(l2p, p2l, path[j], path[j + 1]);
        out.push({ k: 'g2', name: 'swap', a: path[j], b: path[j + 1], params: [] });
        swaps++;
      }
    }
    out.push(mapOp(op, l2p));
  }
  return { ops: out, initialLayout, finalLayout: l2p, swaps };
}

/** SABRE layout (bidirectional, several seeded trials) followed by SABRE routing. */
export function routeSabre(ops: WorkOp[], coupling: Coupling, options: { seed?: number; trials?: number; layout?: Int32Array } = {}): RoutingResult {
  const n = coupling.numQubits;
  if (options.layout) {
    const l2p = options.layout.slice();
    const out: WorkOp[] = [];
    const swaps = sabrePass(buildDag(ops, n), coupling, l2p, createRng(options.seed ?? 0), out);
    return { ops: out, initialLayout: options.layout.slice(), finalLayout: l2p, swaps };
  }
  const seed = options.seed ?? 0;
  const trials = Math.max(1, options.trials ?? SABRE_DEFAULT_TRIALS);
  const twoQubit = ops.filter((op) => op.k === 'g2');
  const forward = buildDag(twoQubit, n);
  const backward = buildDag([...twoQubit].reverse(), n);
  const full = buildDag(ops, n);
  let best: RoutingResult | null = null;
  for (let t = 0; t < trials; t++) {
    const rng = createRng(seed * 1_000_003 + t);
    const l2p = t === 0 ? identityLayout(n) : randomLayout(n, rng);
    for (let round = 0; round < SABRE_LAYOUT_ROUNDS; round++) {
      sabrePass(forward, coupling, l2p, rng, null);
      sabrePass(backward, coupling, l2p, rng, null);
    }
    const initialLayout = l2p.slice();
    const out: WorkOp[] = [];
    const swaps = sabrePass(full, coupling, l2p, rng, out);
    if (!best || swaps < best.swaps) best = { ops: out, initialLayout, finalLayout: l2p, swaps };
  }
  return best!;
}

export function route(ops: WorkOp[], coupling: Coupling, options: RoutingOptions = {}): RoutingResult {
  return (options.router ?? 'sabre') === 'greedy' ? routeGreedy(ops, coupling, options.layout) : routeSabre(ops, coupling, options);
}
