/**
 * Wire cutting (Peng, Harrow, Ozols & Wu, PRL 125, 150504 (2020)): cutting a qubit wire replaces
 * the identity channel by ρ = ½ Σ_{O∈{I,X,Y,Z}} Tr(Oρ) O, i.e. the upstream subcircuit measures
 * the wire in basis O and the downstream one prepares an eigenstate of O:
 *   I → (+1)|0⟩ + (+1)|1⟩,  Z → (+1)|0⟩ + (−1)|1⟩,  X → 2|+⟩ − |0⟩ − |1⟩,  Y → 2|+i⟩ − |0⟩ − |1⟩.
 * The uncut distribution is p(x) = 2^−K Σ_O Σ_prep Π coefficients · Π_f T_f(x_f), where T_f is the
 * subcircuit's output distribution weighted by the ±1 eigenvalues of its measured cut wires.
 *
 * Cut positions are chosen to minimise the number of cuts: every combination of k cuts between
 * consecutive multi-qubit gates on a wire is tried for k = 0, 1, … (exhaustive while the search
 * space is small, greedy beyond it) until every subcircuit has at most `maxQubits` qubits.
 */
import { CircuitError } from '../errors.js';
import { addCreg, addQreg, emptyCircuit, expandCircuit, type Circuit, type GateOp, type Operation } from '../ir/circuit.js';

export const MAX_CUTS = 6;
const EXHAUSTIVE_LIMIT = 200_000;

export type Basis = 'I' | 'X' | 'Y' | 'Z';
export type Preparation = '0' | '1' | '+' | '+i';
export const BASES: readonly Basis[] = ['I', 'X', 'Y', 'Z'];

/** The preparations (with coefficients) that stand for measuring basis O upstream. */
export const PREPARATION_TERMS: Record<Basis, [number, Preparation][]> = {
  I: [
    [1, '0'],
    [1, '1'],
  ],
  Z: [
    [1, '0'],
    [-1, '1'],
  ],
  X: [
    [2, '+'],
    [-1, '0'],
    [-1, '1'],
  ],
  Y: [
    [2, '+i'],
    [-1, '0'],
    [-1, '1'],
  ],
};

export interface WireCut {
  /** Original qubit whose wire is cut. */
  qubit: number;
  /** Index (in the expanded circuit's operations) of the gate after which the wire is cut. */
  afterOp: number;
}

export interface Fragment {
  /** Local qubit i is segment `segments[i]` of original qubit `qubits[i]`. */
  qubits: number[];
  segments: number[];
  /** Gates of the fragment, on local qubit indices, in circuit order. */
  ops: GateOp[];
  /** Cut k arrives on local qubit `inputs[k]` (to be prepared). */
  inputs: Map<number, number>;
  /** Cut k leaves from local qubit `outputs[k]` (to be measured in a basis). */
  outputs: Map<number, number>;
  /** Original measured clbit → local qubit holding it at the end. */
  results: Map<number, number>;
}

export interface CutPlan {
  numQubits: number;
  /** Measured clbits of the original circuit, in order (bit j of the reconstructed outcome is clbits[j]). */
  clbits: number[];
  cuts: WireCut[];
  fragments: Fragment[];
}

interface Wire {
  /** Operation indices of the multi-qubit gates on this wire, in order. */
  multi: number[];
}

/** Splits a circuit (unitary gates, then terminal measurements) into fragments of ≤ maxQubits qubits. */
export function planWireCuts(circuit: Circuit, maxQubits: number): CutPlan {
  if (!Number.isInteger(maxQubits) || maxQubits < 1) throw new CircuitError('semantic', `max_subcircuit_qubits must be a positive integer; got ${maxQubits}`);
  const c = expandCircuit(circuit);
  const { gates, measured } = unitaryAndMeasurements(c);
  for (const g of gates) {
    if (g.qubits.length > maxQubits)
      throw new CircuitError(
        'semantic',
        `gate ${g.name} acts on ${g.qubits.length} qubits, more than max_subcircuit_qubits = ${maxQubits}; wire cuts cannot split a gate`,
        g.line,
      );
  }
  const wires: Wire[] = Array.from({ length: c.numQubits }, () => ({ multi: [] }));
  gates.forEach((g, i) => {
    if (g.qubits.length > 1) for (const q of g.qubits) wires[q].multi.push(i);
  });
  // Candidate cut k on wire w: between its k-th and (k+1)-th multi-qubit gate (k ≥ 1).
  const candidates: [number, number][] = [];
  wires.forEach((w, q) => {
    for (let k = 1; k < w.multi.length; k++) candidates.push([q, k]);
  });
  const widthOf = (chosen: [number, number][]) => fragmentWidths(gates, wires, chosen, c.numQubits);
  let best: [number, number][] | undefined;
  for (let k = 0; k <= MAX_CUTS && !best; k++) {
    if (binomial(candidates.length, k) <= EXHAUSTIVE_LIMIT) {
      best = firstCombination(candidates, k, (chosen) => Math.max(...widthOf(chosen)) <= maxQubits);
    } else {
      best = greedy(candidates, k, maxQubits, widthOf);
    }
  }
  if (!best) throw new CircuitError('limit', `the circuit cannot be split into subcircuits of at most ${maxQubits} qubits with ${MAX_CUTS} or fewer wire cuts`);
  return buildPlan(c, gates, wires, best, measured);
}

function unitaryAndMeasurements(c: Circuit): { gates: GateOp[]; measured: Map<number, number> } {
  const gates: GateOp[] = [];
  const measured = new Map<number, number>();
  const measuredQubits = new Set<number>();
  for (const op of c.ops) {
    if (op.kind === 'barrier') continue;
    if (op.condition) throw new CircuitError('unsupported', 'circuits with classical conditions cannot be cut', op.line);
    if (op.kind === 'reset') throw new CircuitError('unsupported', 'circuits with resets cannot be cut', op.line);
    if (op.kind === 'measure') {
      if (measuredQubits.has(op.qubit) || measured.has(op.clbit))
        throw new CircuitError('unsupported', 'cutting needs each qubit measured at most once, at the end', op.line);
      measured.set(op.clbit, op.qubit);
      measuredQubits.add(op.qubit);
      continue;
    }
    if (op.qubits.some((q) => measuredQubits.has(q)))
      throw new CircuitError('unsupported', 'cutting needs measurements at the end (a gate acts on a measured qubit)', op.line);
    if (op.qubits.length === 0) continue; // global phase
    gates.push(op);
  }
  if (measured.size === 0) for (let q = 0; q < c.numQubits; q++) measured.set(q, q);
  return { gates, measured };
}

/** Segment of wire q that gate #i (or a one-qubit gate seen after `ordinal` multi-qubit gates) belongs to. */
function segmentOf(cutsOnWire: number[], ordinal: number): number {
  let s = 0;
  for (const k of cutsOnWire) if (k < ordinal) s++;
  return s;
}

function ordinals(gates: GateOp[], wires: Wire[]): Map<number, number>[] {
  // ordinal of gate i on wire q: its 1-based index among the wire's multi-qubit gates, or for a
  // one-qubit gate the number of multi-qubit gates before it (so it joins the upstream segment).
  const out = wires.map(() => new Map<number, number>());
  const seen = new Int32Array(wires.length);
  gates.forEach((g, i) => {
    if (g.qubits.length > 1) for (const q of g.qubits) out[q].set(i, ++seen[q]);
    else out[g.qubits[0]].set(i, seen[g.qubits[0]]);
  });
  return out;
}

function fragmentWidths(gates: GateOp[], wires: Wire[], chosen: [number, number][], n: number): number[] {
  const cutsByWire = wires.map(() => [] as number[]);
  for (const [q, k] of chosen) cutsByWire[q].push(k);
  const segIds = wires.map((_, q) => cutsByWire[q].length + 1);
  const offsets: number[] = [];
  let total = 0;
  for (let q = 0; q < n; q++) {
    offsets.push(total);
    total += segIds[q];
  }
  const parent = Int32Array.from({ length: total }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const seen = new Int32Array(n);
  for (const g of gates) {
    if (g.qubits.length < 2) continue;
    let root = -1;
    for (const q of g.qubits) {
      const s = offsets[q] + segmentOf(cutsByWire[q], ++seen[q]);
      const r = find(s);
      if (root < 0) root = r;
      else parent[r] = root;
    }
  }
  const sizes = new Map<number, number>();
  for (let s = 0; s < total; s++) sizes.set(find(s), (sizes.get(find(s)) ?? 0) + 1);
  return [...sizes.values()];
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return r;
}

function firstCombination<T>(items: T[], k: number, ok: (chosen: T[]) => boolean): T[] | undefined {
  const idx = Array.from({ length: k }, (_, i) => i);
  if (k > items.length) return undefined;
  for (;;) {
    const chosen = idx.map((i) => items[i]);
    if (ok(chosen)) return chosen;
    let j = k - 1;
    while (j >= 0 && idx[j] === items.length - k + j) j--;
    if (j < 0) return undefined;
    idx[j]++;
    for (let m = j + 1; m < k; m++) idx[m] = idx[m - 1] + 1;
  }
}

/** k cuts chosen one at a time, each the one that most reduces the widest fragment. */
function greedy(candidates: [number, number][], k: number, maxQubits: number, widthOf: (c: [number, number][]) => number[]): [number, number][] | undefined {
  const chosen: [number, number][] = [];
  for (let step = 0; step < k; step++) {
    let bestScore = Infinity;
    let bestCut: [number, number] | undefined;
    for (const cand of candidates) {
      if (chosen.includes(cand)) continue;
      const widths = widthOf([...chosen, cand]);
      const score = Math.max(...widths) * 1000 + widths.length;
      if (score < bestScore) {
        bestScore = score;
        bestCut = cand;
      }
    }
    if (!bestCut) return undefined;
    chosen.push(bestCut);
  }
  return Math.max(...widthOf(chosen)) <= maxQubits ? chosen : undefined;
}

function buildPlan(c: Circuit, gates: GateOp[], wires: Wire[], chosen: [number, number][], measured: Map<number, number>): CutPlan {
  const n = c.numQubits;
  const sortedCuts = [...chosen].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cutsByWire = wires.map(() => [] as number[]);
  for (const [q, k] of sortedCuts) cutsByWire[q].push(k);
  const ord = ordinals(gates, wires);
  // Union-find over segments, as in fragmentWidths, remembering which fragment each segment is in.
  const segKey = (q: number, s: number) => `${q}:${s}`;
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (let q = 0; q < n; q++) for (let s = 0; s <= cutsByWire[q].length; s++) parent.set(segKey(q, s), segKey(q, s));
  gates.forEach((g, i) => {
    if (g.qubits.length < 2) return;
    const roots = g.qubits.map((q) => find(segKey(q, segmentOf(cutsByWire[q], ord[q].get(i)!))));
    for (const r of roots.slice(1)) parent.set(r, roots[0]);
  });
  const fragmentOf = new Map<string, number>();
  const fragments: Fragment[] = [];
  for (let q = 0; q < n; q++)
    for (let s = 0; s <= cutsByWire[q].length; s++) {
      const root = find(segKey(q, s));
      if (!fragmentOf.has(root)) {
        fragmentOf.set(root, fragments.length);
        fragments.push({ qubits: [], segments: [], ops: [], inputs: new Map(), outputs: new Map(), results: new Map() });
      }
      const f = fragments[fragmentOf.get(root)!];
      f.qubits.push(q);
      f.segments.push(s);
    }
  const local = (q: number, s: number): [Fragment, number] => {
    const f = fragments[fragmentOf.get(find(segKey(q, s)))!];
    return [f, f.qubits.findIndex((qq, i) => qq === q && f.segments[i] === s)];
  };
  gates.forEach((g, i) => {
    const segs = g.qubits.map((q) => segmentOf(cutsByWire[q], ord[q].get(i)!));
    const [f] = local(g.qubits[0], segs[0]);
    f.ops.push({ ...g, qubits: g.qubits.map((q, j) => local(q, segs[j])[1]) });
  });
  const cuts: WireCut[] = [];
  sortedCuts.forEach(([q, k], index) => {
    const s = cutsByWire[q].indexOf(k);
    const [up, upLocal] = local(q, s);
    const [down, downLocal] = local(q, s + 1);
    up.outputs.set(index, upLocal);
    down.inputs.set(index, downLocal);
    cuts.push({ qubit: q, afterOp: c.ops.indexOf(gates[wires[q].multi[k - 1]]) });
  });
  const clbits = [...measured.keys()].sort((a, b) => a - b);
  for (const clbit of clbits) {
    const q = measured.get(clbit)!;
    const [f, l] = local(q, cutsByWire[q].length);
    f.results.set(clbit, l);
  }
  return { numQubits: n, clbits, cuts, fragments };
}

/**
 * The runnable circuit of fragment f with the given preparations of its cut inputs and bases of
 * its cut outputs: it measures its result qubits into the first clbits (in original clbit order)
 * and then its cut outputs (in cut order).
 */
export function fragmentCircuit(f: Fragment, preparations: Map<number, Preparation>, bases: Map<number, Basis>): Circuit {
  const c = emptyCircuit();
  addQreg(c, 'q', f.qubits.length);
  const ops: Operation[] = [];
  for (const [cut, q] of f.inputs) {
    const p = preparations.get(cut) ?? '0';
    if (p === '1') ops.push(gate('x', q));
    if (p === '+' || p === '+i') ops.push(gate('h', q));
    if (p === '+i') ops.push(gate('s', q));
  }
  ops.push(...f.ops);
  for (const [cut, q] of f.outputs) {
    const b = bases.get(cut) ?? 'Z';
    if (b === 'X') ops.push(gate('h', q));
    if (b === 'Y') ops.push(gate('sdg', q), gate('h', q));
  }
  const results = [...f.results.entries()].sort((a, b) => a[0] - b[0]);
  const outs = [...f.outputs.entries()].sort((a, b) => a[0] - b[0]);
  if (results.length) {
    const reg = addCreg(c, 'out', results.length);
    results.forEach(([, q], i) => {
      ops.push({ kind: 'measure', qubit: q, clbit: reg.offset + i });
    });
  }
  if (outs.length) {
    const reg = addCreg(c, 'cut', outs.length);
    outs.forEach(([, q], i) => {
      ops.push({ kind: 'measure', qubit: q, clbit: reg.offset + i });
    });
  }
  c.ops = ops;
  return c;
}

const gate = (name: string, q: number): GateOp => ({ kind: 'gate', name, qubits: [q], params: [] });

/**
 * T_f: the fragment's distribution over its result bits (index little-endian in original clbit
 * order), each outcome weighted by Π (±1 eigenvalues of the cut outputs measured in X/Y/Z).
 * `probabilities` gives P(result bits, cut bits) as a vector indexed resultIndex + 2^r · cutIndex.
 */
export function fragmentTensor(f: Fragment, bases: Map<number, Basis>, probabilities: Float64Array): Float64Array {
  const r = f.results.size;
  const outs = [...f.outputs.keys()].sort((a, b) => a - b);
  const t = new Float64Array(1 << r);
  for (let idx = 0; idx < probabilities.length; idx++) {
    const p = probabilities[idx];
    if (!p) continue;
    const res = idx & ((1 << r) - 1);
    const cutBits = idx >> r;
    let sign = 1;
    outs.forEach((cut, j) => {
      if ((bases.get(cut) ?? 'I') !== 'I' && (cutBits >> j) & 1) sign = -sign;
    });
    t[res] += sign * p;
  }
  return t;
}

/**
 * Recombines fragment tensors into the uncut distribution over the original measured clbits
 * (index little-endian: bit j is plan.clbits[j]). `tensor(f, preparations, bases)` supplies T_f.
 */
export function reconstructDistribution(
  plan: CutPlan,
  tensor: (fragment: number, preparations: Map<number, Preparation>, bases: Map<number, Basis>) => Float64Array,
): Float64Array {
  const K = plan.cuts.length;
  const nOut = plan.clbits.length;
  const result = new Float64Array(1 << nOut);
  const bitPos = new Map(plan.clbits.map((c, j) => [c, j]));
  const cache = new Map<string, Float64Array>();
  const tensorOf = (fi: number, preps: Map<number, Preparation>, bases: Map<number, Basis>): Float64Array => {
    const f = plan.fragments[fi];
    const key = `${fi}|${[...f.inputs.keys()].map((k) => preps.get(k)).join(',')}|${[...f.outputs.keys()].map((k) => bases.get(k)).join(',')}`;
    let t = cache.get(key);
    if (!t) {
      t = tensor(fi, preps, bases);
      cache.set(key, t);
    }
    return t;
  };
  // Enumerate (basis, preparation term) per cut.
  const choices = BASES.flatMap((b) => PREPARATION_TERMS[b].map(([coef, prep]) => ({ b, coef, prep })));
  const pick = new Array<number>(K).fill(0);
  for (;;) {
    const bases = new Map<number, Basis>();
    const preps = new Map<number, Preparation>();
    let coef = 1 / 2 ** K;
    for (let k = 0; k < K; k++) {
      const ch = choices[pick[k]];
      bases.set(k, ch.b);
      preps.set(k, ch.prep);
      coef *= ch.coef;
    }
    // Outer product of the fragments' tensors into the full outcome space.
    let acc = new Float64Array([coef]);
    let accBits: number[] = [];
    plan.fragments.forEach((f, fi) => {
      const t = tensorOf(fi, preps, bases);
      const fBits = [...f.results.keys()].sort((a, b) => a - b).map((c) => bitPos.get(c)!);
      const next = new Float64Array(acc.length * t.length);
      for (let a = 0; a < acc.length; a++) for (let b = 0; b < t.length; b++) next[a + acc.length * b] = acc[a] * t[b];
      acc = next;
      accBits = [...accBits, ...fBits];
    });
    for (let idx = 0; idx < acc.length; idx++) {
      let out = 0;
      accBits.forEach((bit, j) => {
        if ((idx >> j) & 1) out |= 1 << bit;
      });
      result[out] += acc[idx];
    }
    let k = 0;
    while (k < K && ++pick[k] === choices.length) pick[k++] = 0;
    if (k === K) break;
  }
  return result;
}
