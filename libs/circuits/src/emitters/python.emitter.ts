/**
 * Python source for Qiskit, Cirq, PennyLane and Amazon Braket. Custom gates are inlined and
 * gates lowered to each SDK's vocabulary; the Qiskit and Cirq output stays inside the subset the
 * front ends read, so converting back gives the same unitary.
 */
import { CircuitError } from '../errors.js';
import type { Circuit, GateOp, Operation } from '../ir/circuit.js';
import { NUMPY_STYLE, evalExpr, formatExpr, formatNumber, type Expr, type FormatStyle } from '../ir/expr.js';
import { conditionShape, locate, lowerCircuit, registerIdentifiers, type Supports } from './lowering.js';

const fmt = (v: number): string => formatNumber(v, NUMPY_STYLE);
const PY_RESERVED = new Set([
  'qc',
  'np',
  'cirq',
  'qml',
  'circuit',
  'circ',
  'dev',
  'Circuit',
  'QuantumCircuit',
  'QuantumRegister',
  'ClassicalRegister',
  'and',
  'as',
  'assert',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
  'range',
  'len',
  'print',
  'q',
]);
const vals = (op: GateOp): number[] => op.params.map((p) => evalExpr(p));
/** Parameters as source text: numbers as `fmt` writes them, free parameters by name (Qiskit `Parameter`s, sympy `Symbol`s). */
const texts = (op: GateOp, style: FormatStyle = NUMPY_STYLE): string[] => op.params.map((p) => formatExpr(p, style));
/** sympy's functions for Symbol expressions (numpy's ufuncs call `x.sin()`, which a Symbol lacks). */
const SYMPY_STYLE: FormatStyle = { pi: 'np.pi', pow: '**', fn: (n) => `sympy.${n === 'ln' ? 'log' : n}` };

/** PennyLane and Braket output takes numbers only: free parameters are refused, naming them. */
function requireNumbers(circuit: Circuit, target: string): void {
  if (circuit.inputs?.length)
    throw new CircuitError(
      'unsupported',
      `${target} output takes numeric parameters; unbound: ${circuit.inputs.join(', ')} (give their values with entry_point_args, or convert to Qiskit, Cirq or OpenQASM 3, which keep them free)`,
    );
}

// ---------------------------------------------------------------- Qiskit
const QISKIT_METHODS = new Set([
  'h',
  'x',
  'y',
  'z',
  's',
  'sdg',
  't',
  'tdg',
  'sx',
  'sxdg',
  'id',
  'rx',
  'ry',
  'rz',
  'p',
  'u',
  'cx',
  'cy',
  'cz',
  'ch',
  'swap',
  'iswap',
  'ecr',
  'ccx',
  'cswap',
  'ccz',
  'crx',
  'cry',
  'crz',
  'cp',
  'cu',
  'rxx',
  'ryy',
  'rzz',
  'csx',
]);
const QISKIT_CLASSES: Record<string, string> = {
  h: 'HGate',
  x: 'XGate',
  y: 'YGate',
  z: 'ZGate',
  s: 'SGate',
  sdg: 'SdgGate',
  t: 'TGate',
  tdg: 'TdgGate',
  sx: 'SXGate',
  sxdg: 'SXdgGate',
  rx: 'RXGate',
  ry: 'RYGate',
  rz: 'RZGate',
  p: 'PhaseGate',
  u: 'UGate',
  swap: 'SwapGate',
  iswap: 'iSwapGate',
  rxx: 'RXXGate',
  ryy: 'RYYGate',
  rzz: 'RZZGate',
  ecr: 'ECRGate',
};

export function emitQiskit(circuit: Circuit): string {
  const supports: Supports = (name, controls) => (controls === 0 ? QISKIT_METHODS.has(name) : name in QISKIT_CLASSES);
  const { ops, globalPhase } = lowerCircuit(circuit, supports, 'Qiskit');
  const qids = registerIdentifiers(
    circuit.qregs.map((r) => r.name),
    PY_RESERVED,
  );
  const cids = registerIdentifiers(
    circuit.cregs.map((r) => r.name),
    new Set([...PY_RESERVED, ...qids]),
  );
  const qubit = (q: number) => {
    const { reg, index } = locate(circuit.qregs, q);
    return `${qids[reg]}[${index}]`;
  };
  const clbit = (c: number) => {
    const { reg, index } = locate(circuit.cregs, c);
    return `${cids[reg]}[${index}]`;
  };
  const classes = new Set<string>();
  const body: string[] = [];
  for (const op of ops) {
    let line: string;
    if (op.kind === 'gate') {
      const params = texts(op);
      if (op.controls) {
        classes.add(QISKIT_CLASSES[op.name]);
        line = `qc.append(${QISKIT_CLASSES[op.name]}(${params.join(', ')}).control(${op.controls}), [${op.qubits.map(qubit).join(', ')}])`;
      } else line = `qc.${op.name}(${[...params, ...op.qubits.map(qubit)].join(', ')})`;
    } else if (op.kind === 'measure') line = `qc.measure(${qubit(op.qubit)}, ${clbit(op.clbit)})`;
    else if (op.kind === 'reset') line = `qc.reset(${qubit(op.qubit)})`;
    else line = op.qubits.length ? `qc.barrier(${op.qubits.map(qubit).join(', ')})` : '';
    if (!line) continue;
    const condition = op.kind !== 'barrier' ? op.condition : undefined;
    if (condition) {
      const shape = conditionShape(circuit.cregs, condition.clbits);
      const target = shape.kind === 'register' ? cids[shape.reg] : shape.kind === 'bit' ? `${cids[shape.reg]}[${shape.index}]` : null;
      if (!target) throw new CircuitError('unsupported', 'Qiskit output: a condition must test one clbit or a whole register', op.line);
      body.push(`with qc.if_test((${target}, ${condition.value})):`, `    ${line}`);
    } else body.push(line);
  }
  const imports = ['from qiskit import QuantumCircuit, QuantumRegister, ClassicalRegister'];
  if (classes.size) imports.push(`from qiskit.circuit.library import ${[...classes].sort().join(', ')}`);
  if (circuit.inputs?.length) imports.push('from qiskit.circuit import Parameter');
  const out = [...imports, 'import numpy as np', ''];
  for (const name of circuit.inputs ?? []) out.push(`${name} = Parameter('${name}')`);
  circuit.qregs.forEach((r, i) => {
    out.push(`${qids[i]} = QuantumRegister(${r.size}, '${qids[i]}')`);
  });
  circuit.cregs.forEach((r, i) => {
    out.push(`${cids[i]} = ClassicalRegister(${r.size}, '${cids[i]}')`);
  });
  out.push(`qc = QuantumCircuit(${[...qids, ...cids].join(', ')})`);
  if (globalPhase) out.push(`qc.global_phase = ${fmt(globalPhase)}`);
  return `${[...out, ...body].join('\n')}\n`;
}

// ---------------------------------------------------------------- Cirq
const CIRQ_FIXED: Record<string, string> = {
  h: 'cirq.H',
  x: 'cirq.X',
  y: 'cirq.Y',
  z: 'cirq.Z',
  s: 'cirq.S',
  sdg: 'cirq.S**-1',
  t: 'cirq.T',
  tdg: 'cirq.T**-1',
  sx: 'cirq.X**0.5',
  sxdg: 'cirq.X**-0.5',
  id: 'cirq.I',
  cx: 'cirq.CNOT',
  cz: 'cirq.CZ',
  swap: 'cirq.SWAP',
  iswap: 'cirq.ISWAP',
  ccx: 'cirq.CCX',
  cswap: 'cirq.CSWAP',
  ccz: 'cirq.CCZ',
};
/** Cirq's parameterised gates from their parameters, written by `f` (numbers, or sympy expressions of free parameters). */
const CIRQ_PARAM: Record<string, (p: Expr[], f: (e: Expr) => string) => string> = {
  rx: ([t], f) => `cirq.rx(${f(t)})`,
  ry: ([t], f) => `cirq.ry(${f(t)})`,
  rz: ([t], f) => `cirq.rz(${f(t)})`,
  p: ([l], f) => `cirq.ZPowGate(exponent=${f(overPi(l))})`,
  cp: ([l], f) => `cirq.CZPowGate(exponent=${f(overPi(l))})`,
};
const overPi = (e: Expr): Expr => ({ k: 'bin', op: '/', a: e, b: { k: 'id', name: 'pi' } });
const CIRQ_CONTROLLABLE = new Set(['h', 'x', 'y', 'z', 's', 'sdg', 't', 'tdg', 'sx', 'sxdg', 'rx', 'ry', 'rz', 'p', 'swap', 'iswap']);

export function emitCirq(circuit: Circuit): string {
  const supports: Supports = (name, controls) => (controls === 0 ? name in CIRQ_FIXED || name in CIRQ_PARAM : CIRQ_CONTROLLABLE.has(name));
  const { ops } = lowerCircuit(circuit, supports, 'Cirq');
  const keys = registerIdentifiers(
    circuit.cregs.map((r) => r.name),
    new Set(),
    /^[A-Za-z_][A-Za-z0-9_]*$/,
  );
  const q = (i: number) => `q[${i}]`;
  const f = (e: Expr) => formatExpr(e, circuit.inputs?.length ? SYMPY_STYLE : NUMPY_STYLE);
  const gateExpr = (op: GateOp): string => (op.name in CIRQ_FIXED ? CIRQ_FIXED[op.name] : CIRQ_PARAM[op.name](op.params, f));
  const body: string[] = [];
  const skipped = new Set<number>();
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i];
    if (op.kind === 'barrier' || skipped.has(i)) continue;
    let text: string;
    if (op.kind === 'gate') {
      const g = gateExpr(op);
      const gate = g.includes('**') ? `(${g})` : g;
      text = op.controls ? `${gate}.controlled(num_controls=${op.controls})(${op.qubits.map(q).join(', ')})` : `${gate}(${op.qubits.map(q).join(', ')})`;
    } else if (op.kind === 'measure') {
      // A run of measurements that fills a register in order is one keyed measurement, as Cirq writes it.
      const reg = locate(circuit.cregs, op.clbit).reg;
      const run = op.condition ? undefined : measurementRun(ops, i, circuit.cregs[reg]);
      if (!run)
        throw new CircuitError(
          'unsupported',
          `Cirq output: measurements into register ${circuit.cregs[reg].name} must measure each of its bits once, together`,
          op.line,
        );
      text = `cirq.measure(${run.qubits.map(q).join(', ')}, key='${keys[reg]}')`;
      for (const k of run.skip) skipped.add(k);
    } else text = `cirq.reset(${q(op.qubit)})`;
    const condition = op.condition;
    if (condition) {
      const shape = conditionShape(circuit.cregs, condition.clbits);
      if (shape.kind === 'other' || circuit.cregs[shape.reg].size !== 1 || condition.value !== 1) {
        throw new CircuitError('unsupported', 'Cirq output: a condition must test a one-bit measurement key for 1', op.line);
      }
      text = `${text}.with_classical_controls('${keys[shape.reg]}')`;
    }
    body.push(`circuit.append(${text})`);
  }
  const symbols = (circuit.inputs ?? []).map((name) => `${name} = sympy.Symbol('${name}')`);
  const imports = ['import cirq', 'import numpy as np', ...(symbols.length ? ['import sympy'] : [])];
  return `${[...imports, '', ...symbols, `q = cirq.LineQubit.range(${circuit.numQubits})`, 'circuit = cirq.Circuit()', ...body].join('\n')}\n`;
}

/** If ops[i] starts a run of consecutive measurements covering `reg` bit by bit, the qubits in bit order. */
function measurementRun(ops: Operation[], i: number, reg: { offset: number; size: number }): { qubits: number[]; skip: number[] } | undefined {
  const byBit = new Map<number, number>();
  const skip: number[] = [];
  for (let k = i; k < ops.length && byBit.size < reg.size; k++) {
    const op = ops[k];
    if (op.kind === 'barrier') continue;
    if (op.kind !== 'measure' || op.condition) break;
    if (op.clbit < reg.offset || op.clbit >= reg.offset + reg.size) continue;
    if (byBit.has(op.clbit)) break;
    byBit.set(op.clbit, op.qubit);
    if (k !== i) skip.push(k);
  }
  if (byBit.size !== reg.size) return undefined;
  return { qubits: Array.from({ length: reg.size }, (_, b) => byBit.get(reg.offset + b)!), skip };
}

// ---------------------------------------------------------------- PennyLane
const PL_NAMES: Record<string, string> = {
  h: 'Hadamard',
  x: 'PauliX',
  y: 'PauliY',
  z: 'PauliZ',
  s: 'S',
  t: 'T',
  sx: 'SX',
  id: 'Identity',
  rx: 'RX',
  ry: 'RY',
  rz: 'RZ',
  p: 'PhaseShift',
  u: 'U3',
  cx: 'CNOT',
  cy: 'CY',
  cz: 'CZ',
  ch: 'CH',
  swap: 'SWAP',
  iswap: 'ISWAP',
  ecr: 'ECR',
  ccx: 'Toffoli',
  cswap: 'CSWAP',
  ccz: 'CCZ',
  crx: 'CRX',
  cry: 'CRY',
  crz: 'CRZ',
  cp: 'ControlledPhaseShift',
  rxx: 'IsingXX',
  ryy: 'IsingYY',
  rzz: 'IsingZZ',
};
const PL_ADJOINT: Record<string, string> = { sdg: 'S', tdg: 'T', sxdg: 'SX' };

export function emitPennyLane(circuit: Circuit, shots = 1024): string {
  requireNumbers(circuit, 'PennyLane');
  const supports: Supports = (name, controls) => name in PL_NAMES || (name in PL_ADJOINT && controls === 0);
  const { ops } = lowerCircuit(circuit, supports, 'PennyLane');
  const terminal = terminalMeasurements(ops);
  const body: string[] = [];
  const measured = new Map<number, string>();
  for (const op of ops) {
    if (op.kind === 'barrier') continue;
    if (op.kind === 'measure' && terminal) continue;
    let text: string;
    if (op.kind === 'measure') {
      text = `m${op.clbit} = qml.measure(wires=${op.qubit})`;
      measured.set(op.clbit, `m${op.clbit}`);
    } else if (op.kind === 'reset') text = `qml.measure(wires=${op.qubit}, reset=True)`;
    else {
      const params = vals(op).map(fmt);
      const controls = op.qubits.slice(0, op.controls ?? 0);
      const wires = op.qubits.slice(op.controls ?? 0);
      const wireText = wires.length === 1 ? `${wires[0]}` : `[${wires.join(', ')}]`;
      const core =
        op.name in PL_ADJOINT
          ? `qml.adjoint(qml.${PL_ADJOINT[op.name]}(wires=${wireText}))`
          : `qml.${PL_NAMES[op.name]}(${[...params, `wires=${wireText}`].join(', ')})`;
      text = controls.length ? `qml.ctrl(${core}, control=[${controls.join(', ')}])` : core;
    }
    const condition = op.condition;
    if (condition) {
      if (condition.clbits.length !== 1 || !measured.has(condition.clbits[0]))
        throw new CircuitError('unsupported', 'PennyLane output: a condition must test one earlier mid-circuit measurement', op.line);
      const m = measured.get(condition.clbits[0])!;
      text = `qml.cond(${condition.value ? m : `~${m}`}, lambda: ${text})()`;
    }
    body.push(`    ${text}`);
  }
  let ret: string;
  if (terminal) {
    // PennyLane writes wire order left to right: list the clbits from the highest so bit 0 is rightmost, as in Qiskit.
    const wires = [...terminal.entries()].sort((a, b) => b[0] - a[0]).map(([, qubit]) => qubit);
    ret = `    return qml.counts(wires=[${wires.join(', ')}])`;
  } else {
    const ms = [...measured.entries()].sort((a, b) => b[0] - a[0]).map(([, m]) => m);
    ret = ms.length
      ? `    return qml.counts(op=[${ms.join(', ')}])`
      : `    return qml.counts(wires=[${Array.from({ length: circuit.numQubits }, (_, i) => circuit.numQubits - 1 - i).join(', ')}])`;
  }
  return `${['import pennylane as qml', 'import numpy as np', '', `dev = qml.device("default.qubit", wires=${circuit.numQubits}, shots=${shots})`, '', '', '@qml.qnode(dev)', 'def circuit():', ...body, ret, '', '', 'print(circuit())'].join('\n')}\n`;
}

/** clbit → qubit when every measurement is terminal (nothing later touches its qubit, no conditions or resets). */
function terminalMeasurements(ops: Operation[]): Map<number, number> | undefined {
  const map = new Map<number, number>();
  const touchedLater = new Set<number>();
  if (ops.some((op) => op.kind === 'reset' || (op.kind !== 'barrier' && op.condition))) return undefined;
  for (let i = ops.length - 1; i >= 0; i--) {
    const op = ops[i];
    if (op.kind === 'barrier') continue;
    if (op.kind === 'measure') {
      if (touchedLater.has(op.qubit) || map.has(op.clbit)) return undefined;
      map.set(op.clbit, op.qubit);
      touchedLater.add(op.qubit);
    } else if (op.kind === 'gate')
      op.qubits.forEach((q) => {
        touchedLater.add(q);
      });
  }
  return map.size ? map : undefined;
}

// ---------------------------------------------------------------- Amazon Braket
const BRAKET_NAMES: Record<string, string> = {
  h: 'h',
  x: 'x',
  y: 'y',
  z: 'z',
  s: 's',
  sdg: 'si',
  t: 't',
  tdg: 'ti',
  sx: 'v',
  sxdg: 'vi',
  id: 'i',
  rx: 'rx',
  ry: 'ry',
  rz: 'rz',
  p: 'phaseshift',
  cx: 'cnot',
  cy: 'cy',
  cz: 'cz',
  swap: 'swap',
  iswap: 'iswap',
  ecr: 'ecr',
  ccx: 'ccnot',
  cswap: 'cswap',
  cp: 'cphaseshift',
  rxx: 'xx',
  ryy: 'yy',
  rzz: 'zz',
};
const BRAKET_CONTROLLABLE = new Set(['h', 'x', 'y', 'z', 's', 'sdg', 't', 'tdg', 'sx', 'sxdg', 'rx', 'ry', 'rz', 'p', 'swap']);

export function emitBraket(circuit: Circuit): string {
  requireNumbers(circuit, 'Amazon Braket');
  const supports: Supports = (name, controls) => (controls === 0 ? name in BRAKET_NAMES : BRAKET_CONTROLLABLE.has(name));
  const { ops } = lowerCircuit(circuit, supports, 'Amazon Braket');
  const terminal = terminalMeasurements(ops);
  if (ops.some((op) => op.kind === 'reset' || (op.kind !== 'barrier' && op.condition)) || (ops.some((op) => op.kind === 'measure') && !terminal)) {
    throw new CircuitError(
      'unsupported',
      'Amazon Braket circuits measure at the end only: mid-circuit measurement, reset and classical conditions cannot be converted',
    );
  }
  const body: string[] = [];
  for (const op of ops) {
    if (op.kind !== 'gate') continue;
    const params = vals(op).map(fmt);
    const controls = op.qubits.slice(0, op.controls ?? 0);
    const targets = op.qubits.slice(op.controls ?? 0);
    const args = [...targets.map(String), ...params];
    if (controls.length) args.push(`control=${controls.length === 1 ? controls[0] : `[${controls.join(', ')}]`}`);
    body.push(`circ.${BRAKET_NAMES[op.name]}(${args.join(', ')})`);
  }
  if (terminal) {
    const qubits = [...terminal.values()].sort((a, b) => a - b);
    body.push('# Braket reports bitstrings with qubit 0 leftmost (big-endian)', `circ.measure([${qubits.join(', ')}])`);
  }
  return `${['from braket.circuits import Circuit', 'import numpy as np', '', 'circ = Circuit()', ...body].join('\n')}\n`;
}
