/**
 * Noisy simulation of a (compiled, physical-qubit) circuit under a device noise model.
 *
 * Schedule: as soon as possible per qubit with the device's gate times; diagonal one-qubit gates
 * (rz, p, s, t, z, …) are virtual frame changes (0 µs, no error); barriers synchronise their
 * qubits; terminal measurements form one final readout layer (devices read out together), so a
 * qubit that finishes early idles until then. Noise per operation, in Aer's order: idle thermal
 * relaxation since the qubit's last operation, the gate, its depolarizing channel (Pauli
 * probability p, see noise-model.ts), thermal relaxation over the gate's duration; readout error
 * flips each recorded bit. Channels: Nielsen & Chuang §8.3 (depolarizing, amplitude and phase
 * damping); thermal relaxation as in Qiskit Aer's thermal_relaxation_error (Georgopoulos, Emary,
 * Zuliani, Phys. Rev. A 104, 062432 (2021) describe the same model).
 *
 * Methods (`auto` picks the cheaper by an estimate): exact density matrix (terminal measurements
 * only, ≤ 10 used qubits) or Monte-Carlo
 * trajectories (one state vector per shot; amplitude damping unravelled into a quantum jump
 * |1⟩→|0⟩ with probability γ·P(1) or the no-jump Kraus operator diag(1, √(1−γ)), the remaining
 * dephasing as a Z with probability (1 − e^{−t/T2}/√(1−γ))/2, depolarizing as a random Pauli).
 * Only qubits the circuit touches are simulated. Seeded and reproducible.
 */
import { CircuitError } from '../errors.js';
import { expandCircuit, paramValues, type Circuit, type Condition, type GateOp } from '../ir/circuit.js';
import { isDiagonal, kron2, multiply, type Matrix } from '../ir/complex-matrix.js';
import { gateMatrix, STANDARD_GATES } from '../ir/gates.js';
import { applyDense1, applyDenseK, applyDiagonal1, applyDiagonalK, applyPhaseOnOnes, collapse, flip, probabilityOfOne } from '../simulator/kernels.js';
import type { Instruction } from '../simulator/program.js';
import { createRng, randomSeed, type Rng } from '../simulator/rng.js';
import { clbitKeyFormatter, DEFAULT_MEMORY_LIMIT_BYTES, formatBytes, withMeasureAll } from '../simulator/simulate.js';
import { conditionHolds, zeroState } from '../simulator/statevector.js';
import {
  applySuperop,
  densityDiagonal,
  depolarizingSuperop,
  IDENTITY_SUPEROP_1,
  kronSuperop,
  relaxationSuperop,
  unitarySuperop,
  zeroDensity,
} from './density-matrix.js';
import { validateNoiseModel, type NoiseModel } from './noise-model.js';

export type NoisyMethod = 'auto' | 'density-matrix' | 'trajectories';

export interface NoisySimulationOptions {
  shots: number;
  seed?: number;
  method?: NoisyMethod;
  memoryLimitBytes?: number;
}

export interface NoisySimulationResult {
  /** Bitstrings over the circuit's classical bits (Qiskit order, like `simulate`) → count; sums to shots. */
  counts: Record<string, number>;
  method: 'density-matrix' | 'trajectories';
  shots: number;
  seed: number;
  /** Qubits actually simulated (those the circuit touches). */
  simulatedQubits: number;
}

/**
 * Relative cost per element touched, measured with `npm run bench:qpu-routing` (b): a
 * density-matrix superoperator pass costs about 12× a trajectory's per-amplitude step work
 * (10 qubits, 95 CZ: 45 ns per ρ element and pass vs 3.8 ns per amplitude and step).
 */
const DENSITY_COST_PER_ELEMENT = 12;
/** State-vector passes per trajectory step (gate, damping, occasional Pauli). */
const TRAJECTORY_PASSES_PER_STEP = 2.5;

/** Estimated work of the density-matrix method: ~3 superoperator passes per two-qubit gate plus one per qubit, over 4^k elements. */
function densityCost(p: Plan): number {
  const two = p.steps.filter((s) => s.t === 'gate' && s.qubits.length === 2).length;
  return DENSITY_COST_PER_ELEMENT * 4 ** p.k * (3 * two + p.k);
}

/** Estimated work of the trajectories: every step of every shot over 2^k amplitudes. */
function trajectoryCost(p: Plan, shots: number): number {
  return shots * 2 ** p.k * TRAJECTORY_PASSES_PER_STEP * Math.max(1, p.steps.length);
}

/** Largest number of (touched) qubits the density-matrix method takes in `auto` mode. */
export const DENSITY_MATRIX_MAX_QUBITS = 10;
const BYTES_PER_COMPLEX = 16;

interface Relax {
  q: number;
  gamma: number;
  /** Coherence factor e^{−t/T2}. */
  f: number;
}

type Step =
  | { t: 'gate'; qubits: number[]; u: Matrix; ins: Instruction; p: number; before: Relax[]; after: Relax[]; cond?: Condition }
  | { t: 'measure'; q: number; c: number; p01: number; p10: number; before: Relax[]; after: Relax[]; terminal: boolean; cond?: Condition }
  | { t: 'reset'; q: number; before: Relax[]; after: Relax[]; cond?: Condition }
  | { t: 'idle'; relax: Relax[] };

interface Plan {
  k: number;
  steps: Step[];
  /** True when every measurement is terminal (each qubit measured at most once, nothing after it), no reset, no condition. */
  terminalOnly: boolean;
  numClbits: number;
}

const I2 = new Float64Array([1, 0, 0, 0, 0, 0, 1, 0]);

/** The state-vector instruction for a 1- or 2-qubit unitary (diagonal ones as phase kernels). */
function instructionFor(qubits: number[], u: Matrix): Instruction {
  if (isDiagonal(u, 1e-15)) {
    const n = qubits.length === 1 ? 2 : 4;
    const d = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      d[2 * i] = u[2 * (i * n + i)];
      d[2 * i + 1] = u[2 * (i * n + i) + 1];
    }
    const onesOnly = d.slice(0, d.length - 2).every((v, i) => Math.abs(v - (i % 2 ? 0 : 1)) < 1e-15);
    if (qubits.length === 2 && onesOnly) return { t: 'phase', qubits, re: d[6], im: d[7] }; // cz, cp: phase on |11⟩
    return qubits.length === 1 ? { t: 'diag1', q: qubits[0], d } : { t: 'diagk', controls: [], qubits, d };
  }
  return qubits.length === 1 ? { t: 'dense1', q: qubits[0], m: u } : { t: 'densek', controls: [], qubits, m: u };
}

const isVirtual = (op: GateOp): boolean => {
  const g = STANDARD_GATES.get(op.name);
  return !!g && g.qubits === 1 && !!g.diagonal && !op.controls && op.name !== 'id';
};

function plan(circuit: Circuit, noise: NoiseModel): Plan {
  const used = new Map<number, number>();
  const touch = (q: number) => {
    if (!used.has(q)) used.set(q, used.size);
  };
  for (const op of circuit.ops) {
    if (op.kind === 'gate') op.qubits.forEach(touch);
    else if (op.kind !== 'barrier') touch(op.qubit);
  }
  for (const q of used.keys())
    if (q >= noise.qubits.length) throw new CircuitError('semantic', `qubit ${q} has no noise figures (the model describes ${noise.qubits.length} qubits)`);
  const k = used.size;
  const edgeError = new Map<string, number>();
  for (const e of noise.edges) {
    edgeError.set(`${e.qubits[0]},${e.qubits[1]}`, e.two_qubit_error);
    edgeError.set(`${e.qubits[1]},${e.qubits[0]}`, e.two_qubit_error);
  }
  const times = noise.gate_times_us;
  const relax = (phys: number, t: number): Relax | null => {
    if (t <= 0) return null;
    const { t1_us: t1, t2_us: t2 } = noise.qubits[phys];
    const gamma = t1 ? -Math.expm1(-t / t1) : 0;
    const f = t2 ? Math.exp(-t / t2) : t1 ? Math.exp(-t / (2 * t1)) : 1;
    if (gamma === 0 && f === 1) return null;
    return { q: used.get(phys)!, gamma, f };
  };
  const relaxAll = (qubits: number[], t: number): Relax[] => qubits.map((q) => relax(q, t)).filter((r): r is Relax => r !== null);

  // Which measurements are terminal (nothing later touches the qubit).
  const terminal = new Set<number>();
  const touchedLater = new Set<number>();
  let terminalOnly = true;
  const measuredQubits = new Set<number>();
  for (let i = circuit.ops.length - 1; i >= 0; i--) {
    const op = circuit.ops[i];
    if (op.kind === 'barrier') continue;
    if ('condition' in op && op.condition) terminalOnly = false;
    if (op.kind === 'reset') terminalOnly = false;
    if (op.kind === 'measure') {
      if (!touchedLater.has(op.qubit)) terminal.add(i);
      else terminalOnly = false;
      if (measuredQubits.has(op.qubit)) terminalOnly = false;
      measuredQubits.add(op.qubit);
    }
    for (const q of op.kind === 'gate' ? op.qubits : [op.qubit]) touchedLater.add(q);
  }

  const ready = new Map<number, number>();
  const at = (q: number) => ready.get(q) ?? 0;
  const steps: Step[] = [];
  const pendingMeasures: { index: number; q: number }[] = [];
  const pendingVirtual = new Map<number, Matrix>();
  const flushVirtual = (qubits: number[]) => {
    for (const q of qubits) {
      const m = pendingVirtual.get(q);
      if (!m) continue;
      pendingVirtual.delete(q);
      const local = [used.get(q)!];
      steps.push({ t: 'gate', qubits: local, u: m, ins: instructionFor(local, m), p: 0, before: [], after: [] });
    }
  };
  circuit.ops.forEach((op, index) => {
    if (op.kind !== 'gate') flushVirtual(op.kind === 'barrier' ? op.qubits.filter((q) => used.has(q)) : [op.qubit]);
    if (op.kind === 'barrier') {
      const qs = op.qubits.filter((q) => used.has(q));
      const start = Math.max(0, ...qs.map(at));
      const idle = qs.map((q) => relax(q, start - at(q))).filter((r): r is Relax => r !== null);
      if (idle.length) steps.push({ t: 'idle', relax: idle });
      for (const q of qs) ready.set(q, start);
      return;
    }
    if (op.kind === 'measure' && terminal.has(index)) {
      pendingMeasures.push({ index, q: op.qubit });
      return;
    }
    const qubits = op.kind === 'gate' ? op.qubits : [op.qubit];
    const start = Math.max(...qubits.map(at));
    const before = qubits.map((q) => relax(q, start - at(q))).filter((r): r is Relax => r !== null);
    if (op.kind === 'gate') {
      if (op.name === 'gphase' || (op.name === 'id' && times.single === 0)) return;
      if (op.qubits.length > 2)
        throw new CircuitError(
          'unsupported',
          `noisy simulation takes one- and two-qubit gates (compile the circuit for the device first); got ${op.name} on ${op.qubits.length} qubits`,
          op.line,
        );
      if (new Set(op.qubits).size !== op.qubits.length) throw new CircuitError('semantic', `gate ${op.name} is applied to the same qubit twice`, op.line);
      const gate = STANDARD_GATES.get(op.name);
      if (!gate) throw new CircuitError('semantic', `gate ${op.name} is not a standard gate`, op.line);
      let u = gateMatrix(gate, paramValues(op));
      if ((op.controls ?? 0) > 0)
        throw new CircuitError('unsupported', `noisy simulation takes plain one- and two-qubit gates; got ${op.name} with extra controls`, op.line);
      const virtual = isVirtual(op);
      if (virtual && !op.condition) {
        // A frame change: no time, no error; folded into the qubit's next gate.
        const prev = pendingVirtual.get(op.qubits[0]);
        pendingVirtual.set(op.qubits[0], prev ? multiply(u, prev) : u);
        return;
      }
      if (op.condition) flushVirtual(op.qubits);
      else if (op.qubits.length === 1) {
        const prev = pendingVirtual.get(op.qubits[0]);
        if (prev) u = multiply(u, prev);
        pendingVirtual.delete(op.qubits[0]);
      } else {
        const pa = pendingVirtual.get(op.qubits[0]) ?? I2,
          pb = pendingVirtual.get(op.qubits[1]) ?? I2;
        if (pa !== I2 || pb !== I2) u = multiply(u, kron2(pa, pb));
        pendingVirtual.delete(op.qubits[0]);
        pendingVirtual.delete(op.qubits[1]);
      }
      const duration = virtual ? 0 : op.qubits.length === 1 ? times.single : times.two;
      let p = 0;
      if (!virtual) {
        if (op.qubits.length === 1) p = noise.qubits[op.qubits[0]].single_qubit_error;
        else {
          const e = edgeError.get(`${op.qubits[0]},${op.qubits[1]}`);
          if (e === undefined)
            throw new CircuitError('semantic', `no two_qubit_error for qubits (${op.qubits.join(', ')}): the device has no such edge`, op.line);
          p = e;
        }
      }
      const local = op.qubits.map((q) => used.get(q)!);
      steps.push({ t: 'gate', qubits: local, u, ins: instructionFor(local, u), p, before, after: relaxAll(op.qubits, duration), cond: op.condition });
      for (const q of op.qubits) ready.set(q, start + duration);
    } else if (op.kind === 'measure') {
      const r = noise.qubits[op.qubit];
      steps.push({
        t: 'measure',
        q: used.get(op.qubit)!,
        c: op.clbit,
        p01: r.readout_p01 ?? r.readout_error,
        p10: r.readout_p10 ?? r.readout_error,
        before,
        after: relaxAll([op.qubit], times.measure),
        terminal: false,
        cond: op.condition,
      });
      ready.set(op.qubit, start + times.measure);
    } else {
      steps.push({ t: 'reset', q: used.get(op.qubit)!, before, after: relaxAll([op.qubit], times.measure), cond: op.condition });
      ready.set(op.qubit, start + times.measure);
    }
  });
  flushVirtual([...pendingVirtual.keys()]);
  // The final readout layer starts when the last operation ends.
  const end = Math.max(0, ...[...used.keys()].map(at));
  for (const { index, q } of pendingMeasures) {
    const op = circuit.ops[index] as Extract<Circuit['ops'][number], { kind: 'measure' }>;
    const r = noise.qubits[q];
    steps.push({
      t: 'measure',
      q: used.get(q)!,
      c: op.clbit,
      p01: r.readout_p01 ?? r.readout_error,
      p10: r.readout_p10 ?? r.readout_error,
      before: relaxAll([q], end - at(q)),
      after: [],
      terminal: true,
      cond: op.condition,
    });
  }
  return { k, steps, terminalOnly, numClbits: circuit.numClbits };
}

export function simulateNoisy(circuit: Circuit, noiseModel: NoiseModel, options: NoisySimulationOptions): NoisySimulationResult {
  const shots = options.shots;
  if (!Number.isInteger(shots) || shots < 1) throw new CircuitError('limit', `shots must be a positive integer; got ${shots}`);
  const noise = validateNoiseModel(noiseModel);
  const seed = options.seed ?? randomSeed();
  const limit = options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES;
  let expanded = expandCircuit(circuit);
  if (!expanded.ops.some((op) => op.kind === 'measure')) expanded = withMeasureAll(expanded);
  const p = plan(expanded, noise);
  const requested = options.method ?? 'auto';
  const dmBytes = BYTES_PER_COMPLEX * 4 ** p.k;
  const trajBytes = BYTES_PER_COMPLEX * 2 ** p.k;
  let method: 'density-matrix' | 'trajectories';
  if (requested === 'auto')
    method =
      p.terminalOnly && p.k <= DENSITY_MATRIX_MAX_QUBITS && dmBytes <= limit && densityCost(p) <= trajectoryCost(p, shots) ? 'density-matrix' : 'trajectories';
  else method = requested;
  if (method === 'density-matrix') {
    if (!p.terminalOnly)
      throw new CircuitError(
        'unsupported',
        'the density-matrix method needs terminal measurements only (no reset, mid-circuit measurement or condition); use method "trajectories"',
      );
    if (dmBytes > limit)
      throw new CircuitError(
        'memory',
        `a density matrix of ${p.k} qubits needs ${formatBytes(dmBytes)}; the limit is ${formatBytes(limit)} (use method "trajectories")`,
      );
  } else if (trajBytes > limit)
    throw new CircuitError('memory', `a state vector of ${p.k} qubits needs ${formatBytes(trajBytes)}; the limit is ${formatBytes(limit)}`);
  const rng = createRng(seed);
  const keyOf = clbitKeyFormatter(expanded);
  const counts = method === 'density-matrix' ? runDensity(p, shots, rng, keyOf) : runTrajectories(p, shots, rng, keyOf);
  return { counts: Object.fromEntries(counts), method, shots, seed, simulatedQubits: p.k };
}

/** The plan as superoperators: every run of one-qubit channels on a qubit fused, each two-qubit gate with its noise in one. */
function densityProgram(p: Plan): { qubits: number[]; s: Float64Array }[] {
  const out: { qubits: number[]; s: Float64Array }[] = [];
  const pending = new Map<number, Float64Array>();
  const relaxOf = (list: Relax[], q: number): Float64Array | null => {
    let s: Float64Array | null = null;
    for (const r of list) if (r.q === q) s = s ? multiply(relaxationSuperop(r.gamma, r.f), s) : relaxationSuperop(r.gamma, r.f);
    return s;
  };
  const push1 = (q: number, s: Float64Array) => {
    const prev = pending.get(q);
    pending.set(q, prev ? multiply(s, prev) : s);
  };
  const take = (q: number) => {
    const s = pending.get(q) ?? IDENTITY_SUPEROP_1;
    pending.delete(q);
    return s;
  };
  for (const step of p.steps) {
    if (step.t === 'idle') {
      for (const r of step.relax) push1(r.q, relaxationSuperop(r.gamma, r.f));
    } else if (step.t === 'measure') {
      for (const r of step.before) push1(r.q, relaxationSuperop(r.gamma, r.f));
    } else if (step.t === 'gate') {
      const m = step.qubits.length;
      if (m === 1) {
        const q = step.qubits[0];
        const before = relaxOf(step.before, q);
        if (before) push1(q, before);
        push1(q, unitarySuperop(step.u, 1));
        if (step.p > 0) push1(q, depolarizingSuperop(1, step.p));
        const after = relaxOf(step.after, q);
        if (after) push1(q, after);
      } else {
        const [a, b] = step.qubits;
        const rb = (list: Relax[]) => kronSuperop(relaxOf(list, a) ?? IDENTITY_SUPEROP_1, relaxOf(list, b) ?? IDENTITY_SUPEROP_1);
        // Pending one-qubit channels go first as their own (4×4) passes: folding them in would make
        // the two-qubit superoperator dense (256 entries instead of a few dozen).
        for (const q of [a, b]) if (pending.has(q)) out.push({ qubits: [q], s: take(q) });
        let s = multiply(unitarySuperop(step.u, 2), rb(step.before));
        if (step.p > 0) s = multiply(depolarizingSuperop(2, step.p), s);
        s = multiply(rb(step.after), s);
        out.push({ qubits: [a, b], s });
      }
    } else throw new Error('internal: reset in a density-matrix plan');
  }
  for (const [q, s] of pending) out.push({ qubits: [q], s });
  return out;
}

function runDensity(p: Plan, shots: number, rng: Rng, keyOf: (c: Uint8Array) => string): Map<string, number> {
  const k = p.k;
  const rho = zeroDensity(k);
  for (const op of densityProgram(p)) applySuperop(rho, k, op.qubits, op.s);
  const measures = p.steps.filter((step): step is Extract<Step, { t: 'measure' }> => step.t === 'measure');
  // Readout confusion on each measured qubit's marginal, exactly.
  const probs = densityDiagonal(rho, k);
  for (const m of measures) {
    const bit = 1 << m.q;
    for (let i = 0; i < probs.length; i++) {
      if (i & bit) continue;
      const p0 = probs[i],
        p1 = probs[i | bit];
      probs[i] = (1 - m.p01) * p0 + m.p10 * p1;
      probs[i | bit] = m.p01 * p0 + (1 - m.p10) * p1;
    }
  }
  const draws = new Float64Array(shots);
  for (let i = 0; i < shots; i++) draws[i] = rng.next();
  draws.sort();
  let total = 0;
  for (const x of probs) total += x;
  const counts = new Map<string, number>();
  const clbits = new Uint8Array(p.numClbits);
  let cumulative = 0,
    d = 0,
    last = 0;
  const record = (index: number, hits: number) => {
    clbits.fill(0);
    for (const m of measures) clbits[m.c] = (index >> m.q) & 1;
    const key = keyOf(clbits);
    counts.set(key, (counts.get(key) ?? 0) + hits);
  };
  for (let i = 0; i < probs.length && d < shots; i++) {
    if (probs[i] <= 0) continue;
    last = i;
    cumulative += probs[i] / total;
    let hits = 0;
    while (d < shots && draws[d] < cumulative) {
      d++;
      hits++;
    }
    if (hits) record(i, hits);
  }
  if (d < shots) record(last, shots - d);
  return counts;
}

function runTrajectories(p: Plan, shots: number, rng: Rng, keyOf: (c: Uint8Array) => string): Map<string, number> {
  const k = p.k;
  const s = zeroState(k);
  const scratch = new Float64Array(32);
  const apply = (ins: Instruction): void => {
    switch (ins.t) {
      case 'dense1':
        return void applyDense1(s, k, ins.q, ins.m);
      case 'diag1':
        return void applyDiagonal1(s, k, ins.q, ins.d);
      case 'phase':
        return void applyPhaseOnOnes(s, k, ins.qubits, ins.re, ins.im);
      case 'diagk':
        return void applyDiagonalK(s, k, ins.controls, ins.qubits, ins.d);
      case 'densek':
        return void applyDenseK(s, k, ins.controls, ins.qubits, ins.m, scratch);
      default:
        throw new Error(`internal: unexpected instruction ${ins.t}`);
    }
  };
  const clbits = new Uint8Array(p.numClbits);
  const counts = new Map<string, number>();
  const pauli = (q: number, which: number) => {
    // 1 = X, 2 = Y (∝ XZ), 3 = Z
    if (which === 3 || which === 2) applyPhaseOnOnes(s, k, [q], -1, 0);
    if (which === 1 || which === 2) flip(s, k, q);
  };
  // The state is kept unnormalised between measurements (norm² in `norm2`), so the no-jump
  // damping is one pass: scale the |1⟩ half by √(1−γ) while summing its weight.
  let norm2 = 1;
  const dampOne = (q: number, keep: number): number => {
    const size = 2 << k;
    const st = 2 << q;
    let w = 0;
    for (let b = st; b < size; b += st << 1) {
      const end = b + st;
      for (let i = b; i < end; i += 2) {
        w += s[i] * s[i] + s[i + 1] * s[i + 1];
        s[i] *= keep;
        s[i + 1] *= keep;
      }
    }
    return w;
  };
  const relax = (list: Relax[]) => {
    for (const r of list) {
      if (r.gamma > 0) {
        const keep = Math.sqrt(1 - r.gamma);
        const u = rng.next();
        if (keep > 1e-6) {
          const w1 = dampOne(r.q, keep);
          if (u < (r.gamma * w1) / norm2) {
            // jump |1⟩ → |0⟩: the (scaled) |1⟩ half is proportional to ⟨1|ψ⟩
            collapse(s, k, r.q, 1, w1 * (1 - r.gamma));
            flip(s, k, r.q);
            norm2 = 1;
          } else {
            norm2 -= r.gamma * w1;
            if (norm2 < 1e-150) {
              const f = 1 / Math.sqrt(norm2);
              for (let i = 0; i < s.length; i++) s[i] *= f;
              norm2 = 1;
            }
          }
        } else {
          const w1 = probabilityOfOne(s, k, r.q);
          const jump = u < (r.gamma * w1) / norm2;
          collapse(s, k, r.q, jump ? 1 : 0, jump ? w1 : norm2 - w1);
          if (jump) flip(s, k, r.q);
          norm2 = 1;
        }
      }
      const pz = (1 - r.f / Math.sqrt(1 - r.gamma)) / 2;
      if (pz > 0 && rng.next() < pz) pauli(r.q, 3);
    }
  };
  const measure = (q: number): 0 | 1 => {
    const w1 = probabilityOfOne(s, k, q);
    const outcome: 0 | 1 = rng.next() < w1 / norm2 ? 1 : 0;
    collapse(s, k, q, outcome, outcome ? w1 : norm2 - w1);
    norm2 = 1;
    return outcome;
  };
  for (let shot = 0; shot < shots; shot++) {
    s.fill(0);
    s[0] = 1;
    norm2 = 1;
    clbits.fill(0);
    for (const step of p.steps) {
      if (step.t === 'idle') {
        relax(step.relax);
        continue;
      }
      if (step.cond && !conditionHolds(step.cond, clbits)) continue;
      relax(step.before);
      if (step.t === 'gate') {
        apply(step.ins);
        if (step.p > 0 && rng.next() < step.p) {
          if (step.qubits.length === 1) pauli(step.qubits[0], 1 + Math.floor(rng.next() * 3));
          else {
            const which = 1 + Math.floor(rng.next() * 15);
            pauli(step.qubits[0], which & 3);
            pauli(step.qubits[1], which >> 2);
          }
        }
      } else if (step.t === 'measure') {
        const outcome = measure(step.q);
        const flipBit = rng.next() < (outcome ? step.p10 : step.p01);
        clbits[step.c] = flipBit ? 1 - outcome : outcome;
      } else if (measure(step.q) === 1) flip(s, k, step.q);
      relax(step.after);
    }
    const key = keyOf(clbits);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
