/**
 * Compilation of any circuit to a device: custom gates inlined, every gate lowered exactly to
 * one-qubit unitaries + CX (lower-to-cx.ts), peephole (fusion, inverse-pair cancellation),
 * layout and SWAP routing on the coupling map (routing.ts: SABRE or greedy), SWAPs as three CX
 * (oriented for directional entanglers), peephole again, then CX → the device's entangler and
 * every fused one-qubit run → the device's one-qubit basis (synthesis.ts), and a last peephole
 * on the native gates. Exact up to the tracked global phase (the spec checks unitaries).
 *
 * Measurements keep the user's classical bits, so counts stay in the circuit's logical bit order;
 * a circuit without measurements gets `measure` of every qubit into a new register `meas` (what
 * the simulator does for such circuits).
 */
import { CircuitError } from '../errors.js';
import { addCreg, expandCircuit, type Circuit, type Operation } from '../ir/circuit.js';
import { num } from '../ir/expr.js';
import { buildCoupling } from './coupling.js';
import { lowerToCx, opQubits, type WorkCircuit, type WorkOp } from './lower-to-cx.js';
import { peephole } from './peephole.js';
import { route, type Router } from './routing.js';
import { cxTranslation, synthesizeOneQubit, type OneQubitBasis, type TwoQubitNative } from './synthesis.js';

export interface DeviceTarget {
  numQubits: number;
  /** Gate names the device executes, e.g. ['rz', 'sx', 'x', 'cz'] or ['gpi', 'gpi2', 'ms']. */
  nativeGates: string[];
  /**
   * Pairs of physical qubits that can run the two-qubit gate; null = all-to-all. Undirected for
   * symmetric entanglers (cz, ms, rxx); for directional ones (cx, ecr) an edge [a, b] means the
   * gate runs as (a, b) only, unless [b, a] is listed too.
   */
  couplingMap: [number, number][] | null;
}

export interface CompileStats {
  nativeGateCount: number;
  twoQubitGateCount: number;
  swapCount: number;
  /** Layers of the native circuit (as-soon-as-possible; measurements count, barriers do not). */
  depth: number;
  /** Layers counting only two-qubit gates. */
  twoQubitDepth: number;
}

export interface CompiledCircuit {
  /** Native gates only, on physical qubits (numQubits = the device's), measurements into the user's clbits. */
  circuit: Circuit;
  /** initialLayout[q] = physical qubit holding the circuit's qubit q at the start. */
  initialLayout: number[];
  /** finalLayout[q] = physical qubit holding the circuit's qubit q at the end. */
  finalLayout: number[];
  stats: CompileStats;
}

export interface CompileOptions {
  seed?: number;
  router?: Router;
  /** SABRE layout trials (default 6). */
  trials?: number;
  /** Fixed initial layout (circuit qubit q → physical qubit), skipping the layout search. */
  initialLayout?: number[];
}

const TWO_QUBIT_NATIVES: TwoQubitNative[] = ['cx', 'cz', 'ecr', 'ms', 'rxx'];
const DIRECTIONAL = new Set<TwoQubitNative>(['cx', 'ecr']);
/** Names a device may list that are not gates to synthesise into. */
const NON_GATES = new Set(['id', 'delay', 'measure', 'reset', 'barrier']);
const MAX_DEVICE_QUBITS = 1024;

export interface NativeSet {
  oneQubit: OneQubitBasis;
  allowX: boolean;
  twoQubit: TwoQubitNative | null;
}

export const SUPPORTED_NATIVE_SETS = '{rz, sx[, x]}, {gpi, gpi2}, {rx, ry}, {rz, ry} or {u}, with one of cx, cz, ecr, ms, rxx';

/** The one-qubit basis and entangler a native gate list compiles to; throws when there is none. */
export function nativeSet(gates: string[]): NativeSet {
  const has = new Set(gates.map((g) => g.toLowerCase()).filter((g) => !NON_GATES.has(g)));
  let oneQubit: OneQubitBasis | null = null;
  if (has.has('rz') && has.has('sx')) oneQubit = 'zsx';
  else if (has.has('gpi') && has.has('gpi2')) oneQubit = 'gpi';
  else if (has.has('rx') && has.has('ry')) oneQubit = 'rxry';
  else if (has.has('rz') && has.has('ry')) oneQubit = 'rzry';
  else if (has.has('u') || has.has('u3')) oneQubit = 'u';
  const twoQubit = TWO_QUBIT_NATIVES.find((g) => has.has(g)) ?? null;
  if (!oneQubit)
    throw new CircuitError(
      'unsupported',
      `native gates [${gates.join(', ')}] have no one-qubit basis the compiler can synthesise into; supported: ${SUPPORTED_NATIVE_SETS}`,
    );
  return { oneQubit, allowX: has.has('x'), twoQubit };
}

function validateTarget(target: DeviceTarget): void {
  if (!Number.isInteger(target.numQubits) || target.numQubits < 1 || target.numQubits > MAX_DEVICE_QUBITS) {
    throw new CircuitError('semantic', `device numQubits must be an integer in 1..${MAX_DEVICE_QUBITS}; got ${target.numQubits}`);
  }
  if (!Array.isArray(target.nativeGates) || target.nativeGates.length === 0)
    throw new CircuitError('semantic', 'device nativeGates must be a non-empty list of gate names');
}

export function compileToDevice(source: Circuit, target: DeviceTarget, options: CompileOptions = {}): CompiledCircuit {
  validateTarget(target);
  const natives = nativeSet(target.nativeGates);
  let expanded = expandCircuit(source);
  if (expanded.numQubits > target.numQubits) {
    throw new CircuitError('limit', `the circuit uses ${expanded.numQubits} qubits; the device has ${target.numQubits}`);
  }
  if (!expanded.ops.some((op) => op.kind === 'measure')) expanded = withMeasureAll(expanded);
  const coupling = buildCoupling(target.numQubits, target.couplingMap);

  const logical = lowerToCx(expanded);
  if (!natives.twoQubit && logical.ops.some((op) => op.k === 'g2')) {
    throw new CircuitError(
      'unsupported',
      `the circuit needs two-qubit gates but the device's native gates [${target.nativeGates.join(', ')}] have no entangler (cx, cz, ecr, ms or rxx)`,
    );
  }
  peephole(logical);

  // Terminal measurements leave routing and are read out at the end from the final layout, so no
  // swap ever passes through a measured qubit (measurements stay terminal, as devices read out).
  const terminal = terminalMeasurements(logical.ops);
  const routed = route(
    logical.ops.filter((_, i) => !terminal.has(i)),
    coupling,
    {
      router: options.router,
      seed: options.seed,
      trials: options.trials,
      layout: options.initialLayout && fullLayout(options.initialLayout, expanded.numQubits, target.numQubits),
    },
  );
  for (const i of [...terminal].sort((a, b) => a - b)) {
    const m = logical.ops[i] as Extract<WorkOp, { k: 'measure' }>;
    routed.ops.push({ k: 'measure', q: routed.finalLayout[m.q], c: m.c });
  }
  const physical: WorkCircuit = { numQubits: target.numQubits, ops: [], globalPhase: logical.globalPhase };
  const directional = natives.twoQubit !== null && DIRECTIONAL.has(natives.twoQubit) && !coupling.allToAll;
  const forward = (a: number, b: number): boolean => !directional || coupling.directed.has(a * target.numQubits + b);
  for (const op of routed.ops) {
    if (op.k === 'g2' && op.name === 'swap') {
      // SWAP = CX(a,b)·CX(b,a)·CX(a,b): orient so two of the three run forward.
      const [a, b] = forward(op.a, op.b) ? [op.a, op.b] : [op.b, op.a];
      physical.ops.push(cx(a, b), cx(b, a), cx(a, b));
    } else physical.ops.push(op);
  }
  peephole(physical);

  const native: WorkCircuit = { numQubits: target.numQubits, ops: [], globalPhase: physical.globalPhase };
  for (const op of physical.ops) {
    if (op.k !== 'g2') {
      native.ops.push(op);
      continue;
    }
    const reversedOnly = !forward(op.a, op.b);
    const { steps, phase } = cxTranslation(natives.twoQubit!, reversedOnly);
    const q = [op.a, op.b];
    native.globalPhase += phase;
    for (const s of steps)
      native.ops.push(s.k === 'u' ? { k: 'u', q: q[s.q], m: s.m } : { k: 'g2', name: s.name, a: q[s.a], b: q[s.b], params: [...s.params] });
  }
  peephole(native);

  const ops: Operation[] = [];
  let globalPhase = native.globalPhase;
  for (const op of native.ops) {
    switch (op.k) {
      case 'u': {
        const { gates, phase } = synthesizeOneQubit(op.m, natives.oneQubit, natives.allowX);
        globalPhase += phase;
        for (const g of gates) ops.push({ kind: 'gate', name: g.name, qubits: [op.q], params: g.params.map(num) });
        break;
      }
      case 'g1':
        ops.push({ kind: 'gate', name: op.name, qubits: [op.q], params: op.params.map(num) });
        break;
      case 'g2':
        ops.push({ kind: 'gate', name: op.name, qubits: [op.a, op.b], params: op.params.map(num) });
        break;
      case 'measure':
        ops.push({ kind: 'measure', qubit: op.q, clbit: op.c });
        break;
      case 'reset':
        ops.push({ kind: 'reset', qubit: op.q });
        break;
      case 'barrier':
        ops.push({ kind: 'barrier', qubits: op.qubits });
        break;
    }
  }
  const circuit: Circuit = {
    numQubits: target.numQubits,
    numClbits: expanded.numClbits,
    qregs: [{ name: 'q', size: target.numQubits, offset: 0 }],
    cregs: expanded.cregs.map((r) => ({ ...r })),
    definitions: new Map(),
    ops,
    globalPhase,
  };
  const n = expanded.numQubits;
  return {
    circuit,
    initialLayout: Array.from(routed.initialLayout.subarray(0, n)),
    finalLayout: Array.from(routed.finalLayout.subarray(0, n)),
    stats: { ...circuitStats(circuit), swapCount: routed.swaps },
  };
}

/** A user layout of the circuit's qubits, checked and extended over the device's free qubits. */
function fullLayout(layout: number[], n: number, device: number): Int32Array {
  if (!Array.isArray(layout) || layout.length !== n || new Set(layout).size !== n || !layout.every((p) => Number.isInteger(p) && p >= 0 && p < device)) {
    throw new CircuitError('semantic', `initialLayout must list ${n} different physical qubits in 0..${device - 1}; got ${JSON.stringify(layout)}`);
  }
  const used = new Set(layout);
  const free = Array.from({ length: device }, (_, p) => p).filter((p) => !used.has(p));
  return Int32Array.from([...layout, ...free]);
}

/** Indices of measurements after which nothing (but barriers) touches their qubit. */
function terminalMeasurements(ops: WorkOp[]): Set<number> {
  const out = new Set<number>();
  const touchedLater = new Set<number>();
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i];
    if (op.k === 'barrier') continue;
    if (op.k === 'measure' && !touchedLater.has(op.q)) out.add(i);
    for (const q of opQubits(op)) touchedLater.add(q);
  }
  return out;
}

const cx = (a: number, b: number): WorkOp => ({ k: 'g2', name: 'cx', a, b, params: [] });

function withMeasureAll(c: Circuit): Circuit {
  const copy: Circuit = { ...c, cregs: [...c.cregs], ops: [...c.ops] };
  const reg = addCreg(copy, 'meas', c.numQubits);
  for (let q = 0; q < c.numQubits; q++) copy.ops.push({ kind: 'measure', qubit: q, clbit: reg.offset + q });
  return copy;
}

/** Gate counts and as-soon-as-possible depths of a (native) circuit. */
export function circuitStats(c: Circuit): Omit<CompileStats, 'swapCount'> {
  const level = new Int32Array(c.numQubits);
  const level2 = new Int32Array(c.numQubits);
  let nativeGateCount = 0,
    twoQubitGateCount = 0,
    depth = 0,
    twoQubitDepth = 0;
  for (const op of c.ops) {
    if (op.kind === 'barrier') continue;
    const qubits = op.kind === 'gate' ? op.qubits : [op.qubit];
    let l = 0,
      l2 = 0;
    for (const q of qubits) {
      l = Math.max(l, level[q]);
      l2 = Math.max(l2, level2[q]);
    }
    l += 1;
    if (op.kind === 'gate') {
      nativeGateCount++;
      if (qubits.length === 2) {
        twoQubitGateCount++;
        l2 += 1;
      }
    }
    for (const q of qubits) {
      level[q] = l;
      level2[q] = l2;
    }
    depth = Math.max(depth, l);
    twoQubitDepth = Math.max(twoQubitDepth, l2);
  }
  return { nativeGateCount, twoQubitGateCount, depth, twoQubitDepth };
}
