/**
 * Peephole optimisation: consecutive one-qubit gates on a qubit are fused into one 2×2 unitary
 * (identities disappear), and adjacent two-qubit gates that multiply to the identity cancel
 * (cx·cx, cz·cz, ecr·ecr, swap·swap, ms/rxx pairs whose angles sum to a multiple of 2π). Both
 * passes repeat until nothing changes, so a cancellation that exposes a fusion is found too.
 */
import { multiply, type Matrix } from '../ir/complex-matrix.js';
import { phaseBetween, wrapAngle } from './synthesis.js';
import { opQubits, type WorkCircuit, type WorkOp } from './lower-to-cx.js';
import { STANDARD_GATES } from '../ir/gates.js';

const I2 = STANDARD_GATES.get('id')!.base([]);
const SYMMETRIC = new Set(['cz', 'swap']);
const SELF_INVERSE = new Set(['cx', 'cz', 'ecr', 'swap']);
const MAX_ROUNDS = 6;

/** Fuses runs of `u` ops per qubit; a run equal to the identity (up to phase) is dropped. */
function fuse(c: WorkCircuit): boolean {
  const out: WorkOp[] = [];
  const pending = new Map<number, { m: Matrix; count: number }>();
  let changed = false;
  const flush = (q: number): void => {
    const p = pending.get(q);
    if (!p) return;
    pending.delete(q);
    const phase = phaseBetween(p.m, I2, 1e-12);
    if (phase !== undefined) {
      c.globalPhase += phase;
      changed = true;
      return;
    }
    if (p.count > 1) changed = true;
    out.push({ k: 'u', q, m: p.m });
  };
  for (const op of c.ops) {
    if (op.k === 'u') {
      const prev = pending.get(op.q);
      pending.set(op.q, prev ? { m: multiply(op.m, prev.m), count: prev.count + 1 } : { m: op.m, count: 1 });
      continue;
    }
    for (const q of opQubits(op)) flush(q);
    out.push(op);
  }
  for (const q of [...pending.keys()]) flush(q);
  c.ops = out;
  return changed;
}

type G2 = Extract<WorkOp, { k: 'g2' }>;

/** Phase e^{iδ} when a·b = e^{iδ} I, else undefined. */
function cancels(a: G2, b: G2): number | undefined {
  if (a.name !== b.name) return undefined;
  const same = a.a === b.a && a.b === b.b;
  const swapped = a.a === b.b && a.b === b.a;
  if (!same && !swapped) return undefined;
  if (SELF_INVERSE.has(a.name)) return same || SYMMETRIC.has(a.name) ? 0 : undefined;
  if (a.name === 'rxx' || a.name === 'ms') {
    // ms(φ0, φ1, θ) = exp(−iθ/2 σ(φ0)⊗σ(φ1)); σ(φ + π) = −σ(φ); rxx = ms(0, 0, ·).
    const [a0, a1, ta] = a.name === 'ms' ? a.params : [0, 0, a.params[0]];
    let [b0, b1, tb] = b.name === 'ms' ? b.params : [0, 0, b.params[0]];
    if (swapped) [b0, b1] = [b1, b0];
    const k0 = (b0 - a0) / Math.PI,
      k1 = (b1 - a1) / Math.PI;
    if (Math.abs(k0 - Math.round(k0)) > 1e-9 || Math.abs(k1 - Math.round(k1)) > 1e-9) return undefined;
    const sign = (Math.round(k0) + Math.round(k1)) % 2 === 0 ? 1 : -1;
    const turns = (ta + sign * tb) / (2 * Math.PI);
    if (Math.abs(turns - Math.round(turns)) > 1e-9) return undefined;
    // exp(−iπk P) = (−1)^k I
    return Math.round(turns) % 2 === 0 ? 0 : Math.PI;
  }
  return undefined;
}

/** Removes adjacent cancelling two-qubit pairs (nothing else on either qubit between them). */
function cancelPairs(c: WorkCircuit): boolean {
  const stacks = new Map<number, number[]>();
  const removed = new Uint8Array(c.ops.length);
  let changed = false;
  const top = (q: number): number => {
    const s = stacks.get(q);
    return s?.length ? s[s.length - 1] : -1;
  };
  c.ops.forEach((op, i) => {
    if (op.k === 'g2') {
      const j = top(op.a);
      if (j >= 0 && j === top(op.b)) {
        const prev = c.ops[j];
        const phase = prev.k === 'g2' ? cancels(prev, op) : undefined;
        if (phase !== undefined) {
          removed[i] = removed[j] = 1;
          stacks.get(op.a)!.pop();
          stacks.get(op.b)!.pop();
          c.globalPhase += phase;
          changed = true;
          return;
        }
      }
    }
    for (const q of opQubits(op)) {
      if (!stacks.has(q)) stacks.set(q, []);
      stacks.get(q)!.push(i);
    }
  });
  if (changed) c.ops = c.ops.filter((_, i) => !removed[i]);
  return changed;
}

export function peephole(c: WorkCircuit): void {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const fused = fuse(c);
    const cancelled = cancelPairs(c);
    if (!fused && !cancelled) break;
  }
  c.globalPhase = wrapAngle(c.globalPhase);
}
