/**
 * The circuit IR every front end produces and every emitter, the simulator, resource counting
 * and cutting consume. Qubits and clbits are flat indices; registers name contiguous ranges.
 */
import { evalExpr, num, substitute, type Expr } from './expr.js';
import { GATE_ALIASES, STANDARD_GATES, namedInverse } from './gates.js';
import { decomposeGate } from './decompositions.js';
import { CircuitError, semanticError, unsupported } from '../errors.js';
import { MAX_EXPANDED_OPERATIONS, checkBitCount } from '../limits.js';

export interface Register {
  name: string;
  size: number;
  /** Index of the register's element 0 in the flat qubit/clbit numbering. */
  offset: number;
}

/** A classical condition: the clbits (little-endian) equal `value`. */
export interface Condition {
  clbits: number[];
  value: number;
}

export interface GateOp {
  kind: 'gate';
  /** Canonical standard gate name or the name of a custom definition. */
  name: string;
  /** Arguments; with `controls`, the first `controls` are extra controls. */
  qubits: number[];
  params: Expr[];
  /** Extra (positive) controls added by a `ctrl @` modifier or `.control(n)`. */
  controls?: number;
  condition?: Condition;
  line?: number;
}
export interface MeasureOp {
  kind: 'measure';
  qubit: number;
  clbit: number;
  condition?: Condition;
  line?: number;
}
export interface ResetOp {
  kind: 'reset';
  qubit: number;
  condition?: Condition;
  line?: number;
}
export interface BarrierOp {
  kind: 'barrier';
  qubits: number[];
  line?: number;
}
export type Operation = GateOp | MeasureOp | ResetOp | BarrierOp;

/** A custom gate: parameters by name, qubit arguments by position; `body` null for `opaque`. */
export interface GateDefinition {
  name: string;
  params: string[];
  qubits: number;
  body: (GateOp | BarrierOp)[] | null;
  line?: number;
}

export interface Circuit {
  numQubits: number;
  numClbits: number;
  qregs: Register[];
  cregs: Register[];
  definitions: Map<string, GateDefinition>;
  ops: Operation[];
  /** Global phase in radians (Cirq's X**t and Qiskit's global_phase carry one). */
  globalPhase: number;
  /**
   * Free parameters (OpenQASM 3 `input float`, Qiskit `Parameter`, sympy `Symbol`), in declaration order; gate
   * parameters refer to them by name (`{k: 'id', name}`). Only parses that ask for them keep them
   * (`freeParameters`); a circuit with inputs cannot be simulated (`requireBound`).
   */
  inputs?: string[];
}

/** Refuses a circuit with free parameters for `what` (simulation, a device, …), naming them: a 422, not a crash. */
export function requireBound(c: Circuit, what: string): void {
  if (c.inputs?.length)
    throw semanticError(
      undefined,
      `${what} needs a value for every parameter; unbound: ${c.inputs.join(', ')} (give them with entry_point_args, assign_parameters / cirq.resolve_parameters in the code, or numbers in place of the OpenQASM 3 inputs)`,
    );
}

const RESERVED_INPUT_NAMES = new Set([
  'pi',
  'tau',
  'euler',
  'input',
  'output',
  'float',
  'angle',
  'qubit',
  'bit',
  'int',
  'gate',
  'measure',
  'reset',
  'barrier',
  'if',
  'else',
  'for',
  'in',
  'np',
  'cirq',
  'sympy',
  'qc',
  'q',
  'c',
  'circuit',
]);

/**
 * Source-safe, unique identifiers for free parameters from their labels (`theta[0]` → `theta_0`; a clash with a
 * reserved word or another label gets a suffix), in the labels' order.
 */
export function inputIdentifiers(labels: readonly string[]): string[] {
  const used = new Set<string>();
  return labels.map((label) => {
    let base =
      label
        .replace(/\[(\d+)\]/g, '_$1')
        .replace(/[^A-Za-z0-9_]/g, '_')
        .replace(/_+$/, '') || 'p';
    if (/^\d/.test(base)) base = `p_${base}`;
    let name = base;
    for (let i = 1; used.has(name) || RESERVED_INPUT_NAMES.has(name); i++) name = `${base}_${i}`;
    used.add(name);
    return name;
  });
}

export function emptyCircuit(): Circuit {
  return { numQubits: 0, numClbits: 0, qregs: [], cregs: [], definitions: new Map(), ops: [], globalPhase: 0 };
}

export function addQreg(c: Circuit, name: string, size: number): Register {
  checkBitCount('qubits', c.numQubits + size);
  const reg = { name, size, offset: c.numQubits };
  c.qregs.push(reg);
  c.numQubits += size;
  return reg;
}

export function addCreg(c: Circuit, name: string, size: number): Register {
  checkBitCount('clbits', c.numClbits + size);
  const reg = { name, size, offset: c.numClbits };
  c.cregs.push(reg);
  c.numClbits += size;
  return reg;
}

/** Canonical name of a gate spelled by a front end (`CX` → `cx`, `phase` → `p`). */
export const canonicalGateName = (name: string): string => GATE_ALIASES.get(name) ?? GATE_ALIASES.get(name.toLowerCase()) ?? name;

/** Number of qubit arguments and parameters a gate takes, standard or custom. */
export function gateSignature(c: Circuit, name: string): { qubits: number; params: number } | undefined {
  const std = STANDARD_GATES.get(name);
  if (std) return { qubits: std.qubits, params: std.params };
  const def = c.definitions.get(name);
  return def ? { qubits: def.qubits, params: def.params.length } : undefined;
}

export const isGate = (op: Operation): op is GateOp => op.kind === 'gate';

const MAX_EXPANSION_DEPTH = 64;

/**
 * The circuit with every custom gate inlined (recursively), so only standard gates remain.
 * Opaque gates have no body: expanding one is an error naming the gate.
 */
export function expandCircuit(c: Circuit): Circuit {
  // Sizes first (each definition once, memoized): 64 definitions that each call the previous twice are refused at
  // once instead of after inlining two million operations (seconds of CPU for a few hundred bytes of input).
  const sizes = new Map<string, number>();
  let total = 0;
  for (const op of c.ops) {
    total += inlinedSize(c, op, sizes, new Set());
    if (total > MAX_EXPANDED_OPERATIONS) throw tooManyExpandedOperations(op.line);
  }
  const ops: Operation[] = [];
  for (const op of c.ops) expandInto(c, op, ops, 0);
  return { ...c, definitions: new Map(), ops };
}

const tooManyExpandedOperations = (line: number | undefined): CircuitError =>
  new CircuitError('limit', `a circuit may have at most ${MAX_EXPANDED_OPERATIONS} operations once its custom gates are inlined; this one has more`, line);

/**
 * Operations `op` becomes once inlined, capped just above the limit. Gates that cannot be expanded (undefined,
 * opaque, recursive) count 1 here: expandInto names the problem.
 */
function inlinedSize(c: Circuit, op: Operation, sizes: Map<string, number>, open: Set<string>): number {
  if (op.kind !== 'gate' || STANDARD_GATES.has(op.name)) return 1;
  const known = sizes.get(op.name);
  if (known !== undefined) return known;
  const def = c.definitions.get(op.name);
  if (!def?.body || open.has(op.name)) return 1;
  open.add(op.name);
  let size = 0;
  for (const inner of def.body) size = Math.min(MAX_EXPANDED_OPERATIONS + 1, size + inlinedSize(c, inner, sizes, open));
  open.delete(op.name);
  sizes.set(op.name, size);
  return size;
}

function expandInto(c: Circuit, op: Operation, out: Operation[], depth: number): void {
  if (op.kind !== 'gate' || STANDARD_GATES.has(op.name)) {
    // The bound again for inverseGate's expansions (expandCircuit checked the sizes before inlining).
    if (out.length >= MAX_EXPANDED_OPERATIONS) throw tooManyExpandedOperations(op.line);
    out.push(op);
    return;
  }
  const def = c.definitions.get(op.name);
  if (!def) throw semanticError(op.line, `gate ${op.name} is not defined`);
  if (!def.body) throw unsupported(op.line, op.name, `opaque gate ${op.name} has no definition, so it cannot be simulated or converted`);
  if (depth > MAX_EXPANSION_DEPTH) throw semanticError(op.line, `gate ${op.name} is defined recursively`);
  const controls = op.controls ?? 0;
  const controlQubits = op.qubits.slice(0, controls);
  const args = op.qubits.slice(controls);
  const bindings = new Map(def.params.map((name, i) => [name, op.params[i]]));
  for (const inner of def.body) {
    if (inner.kind === 'barrier') {
      out.push({ kind: 'barrier', qubits: inner.qubits.map((q) => args[q]), line: op.line });
      continue;
    }
    const innerControls = inner.controls ?? 0;
    const expanded: GateOp = {
      kind: 'gate',
      name: inner.name,
      qubits: [...controlQubits, ...inner.qubits.map((q) => args[q])],
      params: inner.params.map((e) => substitute(e, bindings)),
      line: op.line,
    };
    if (controls + innerControls > 0) expanded.controls = controls + innerControls;
    if (op.condition) expanded.condition = op.condition;
    expandInto(c, expanded, out, depth + 1);
  }
}

/** Parameter values of a gate operation (all parameters of expanded circuits are constant). */
export const paramValues = (op: GateOp): number[] => op.params.map((e) => evalExpr(e));

const negate = (e: Expr): Expr => (e.k === 'num' ? num(-e.v) : e.k === 'neg' ? e.a : { k: 'neg', a: e });

/**
 * The inverse of a gate operation as a list of operations: a named inverse when the catalogue
 * has one, otherwise the reversed inverse of its decomposition or custom definition.
 */
export function inverseGate(c: Circuit, op: GateOp): GateOp[] {
  if (STANDARD_GATES.has(op.name)) {
    const inv = namedInverse(op.name, op.params, negate, num);
    if (inv) return [{ ...op, name: inv.name, params: inv.params }];
    const steps = decomposeGate(op);
    if (!steps) throw unsupported(op.line, `inv @ ${op.name}`, `no inverse is known for gate ${op.name}`);
    return steps.reverse().flatMap((g) => inverseGate(c, g));
  }
  const expanded: Operation[] = [];
  expandInto(c, op, expanded, 0);
  return expanded
    .filter(isGate)
    .reverse()
    .flatMap((g) => inverseGate(c, g));
}

/** Standard gates a controlled gate folds into (`ctrl @ x` is `cx`, `ctrl @ cx` is `ccx`, …). */
const CONTROLLED_FORMS: Record<string, string> = {
  x: 'cx',
  y: 'cy',
  z: 'cz',
  h: 'ch',
  p: 'cp',
  u1: 'cu1',
  rx: 'crx',
  ry: 'cry',
  rz: 'crz',
  u3: 'cu3',
  sx: 'csx',
  swap: 'cswap',
  cx: 'ccx',
  ccx: 'c3x',
  c3x: 'c4x',
  cz: 'ccz',
  csx: 'c3sqrtx_2',
};

/** Folds extra controls into named controlled gates where the catalogue has one. */
export function canonicalizeControls(op: GateOp): GateOp {
  let current = op;
  while ((current.controls ?? 0) > 0) {
    let name = CONTROLLED_FORMS[current.name];
    let params = current.params;
    if (current.name === 'u') {
      name = 'cu';
      params = [...params, num(0)];
    }
    if (current.name === 'gphase') {
      name = 'p';
    }
    if (!name || name === 'c3sqrtx_2') break;
    const controls = (current.controls ?? 0) - 1;
    if (current.name === 'gphase') {
      // A controlled global phase is a phase on the (last) control.
      current = { ...current, name: 'p', params, controls: controls || undefined };
    } else current = { ...current, name, params, controls: controls || undefined };
    if (!current.controls) delete current.controls;
  }
  return current;
}
