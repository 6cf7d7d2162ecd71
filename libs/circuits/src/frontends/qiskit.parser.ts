/**
 * The Qiskit subset: QuantumCircuit/QuantumRegister/ClassicalRegister, the standard gate
 * methods, measure/measure_all/barrier/reset, `append` of standard gate objects, `compose` of
 * circuits built in the same source, `c_if` and `with qc.if_test(...)`, loops over ranges and
 * arithmetic with math/numpy. The result is the circuit the program last built or changed.
 */
import { CircuitError, semanticError, unsupported } from '../errors.js';
import { MAX_EXPANDED_OPERATIONS, checkBitCount, checkListLength, checkOperationCount } from '../limits.js';
import {
  addCreg,
  addQreg,
  canonicalizeControls,
  emptyCircuit,
  inputIdentifiers,
  inverseGate,
  type Circuit,
  type Condition,
  type GateDefinition,
  type GateOp,
  type Operation,
  type Register,
} from '../ir/circuit.js';
import { evalExpr, freeNames, num, substitute, type Expr } from '../ir/expr.js';
import { STANDARD_GATES } from '../ir/gates.js';
import { matrix as denseMatrix } from '../ir/complex-matrix.js';
import { circuitBody, labelStateOps, matrixDefinition, qftOps, statePreparationDefinition, zeroReflectionOps } from './gate-library.js';
import { NdArray, toArray, toMatrix, toVector } from './python-numeric.js';
import { parsePython } from './python-parser.js';
import {
  PyDict,
  PyEvaluator,
  PyTuple,
  type EntryPointArgs,
  type PythonParseOptions,
  ignored,
  isObject,
  iterate,
  pySlice,
  toInt,
  toNumber,
  typeName,
  type PyObject,
  type PyValue,
} from './python-eval.js';

interface RegisterValue extends PyObject {
  kind: 'qreg' | 'creg';
  name: string;
  size: number;
  iterable: true;
  items: PyValue[];
}
interface BitValue extends PyObject {
  kind: 'qbit' | 'cbit';
  reg: RegisterValue;
  index: number;
}
interface CircuitValue extends PyObject {
  kind: 'qc';
  circuit: Circuit;
  regs: Map<RegisterValue, Register>;
  qubitRefs: PyValue[];
  clbitRefs: PyValue[];
  condition?: Condition;
  /** The circuit's `name` (base of the gate name `to_gate()` gives it). */
  name?: string;
}
interface GateValue extends PyObject {
  kind: 'gate';
  name: string;
  params: number[];
  qubits: number;
  controls: number;
  inverse: boolean;
  /** Integer power: repetitions (of the inverse when negative); 1 when absent. */
  power?: number;
  /** Control state over all controls (extra and built-in), bit i = control argument i; absent: all ones. */
  ctrlState?: number;
  /** Custom definitions the gate needs: its own (for a custom gate) and those its body uses. */
  defs?: Map<string, GateDefinition>;
  /** Parameters with unbound `Parameter`s (then `params` is unused). */
  symbolic?: Expr[];
}
/** A `Parameter` (or an element of a `ParameterVector`), or an expression of them. */
interface ParamValue extends PyObject {
  kind: 'param';
  expr: Expr;
}
interface ParamVector extends PyObject {
  kind: 'paramvec';
  name: string;
  size: number;
  iterable: true;
  items: PyValue[];
}
interface InstructionSet extends PyObject {
  kind: 'iset';
  ops: Operation[];
  qc: CircuitValue;
}
interface MethodValue extends PyObject {
  kind: 'method';
  qc: CircuitValue;
  name: string;
}
interface GateClass extends PyObject {
  kind: 'gateclass';
  name: string;
}
interface IfTest extends PyObject {
  kind: 'iftest';
  qc: CircuitValue;
  condition: Condition;
}

/** Qiskit method → [IR gate, parameters, qubits, extra controls]. */
const GATE_METHODS: Record<string, [string, number, number, number?]> = {
  h: ['h', 0, 1],
  x: ['x', 0, 1],
  y: ['y', 0, 1],
  z: ['z', 0, 1],
  s: ['s', 0, 1],
  sdg: ['sdg', 0, 1],
  t: ['t', 0, 1],
  tdg: ['tdg', 0, 1],
  sx: ['sx', 0, 1],
  sxdg: ['sxdg', 0, 1],
  id: ['id', 0, 1],
  i: ['id', 0, 1],
  rx: ['rx', 1, 1],
  ry: ['ry', 1, 1],
  rz: ['rz', 1, 1],
  p: ['p', 1, 1],
  u1: ['u1', 1, 1],
  u2: ['u2', 2, 1],
  u3: ['u3', 3, 1],
  u: ['u', 3, 1],
  cx: ['cx', 0, 2],
  cnot: ['cx', 0, 2],
  cy: ['cy', 0, 2],
  cz: ['cz', 0, 2],
  ch: ['ch', 0, 2],
  swap: ['swap', 0, 2],
  iswap: ['iswap', 0, 2],
  ecr: ['ecr', 0, 2],
  ccx: ['ccx', 0, 3],
  toffoli: ['ccx', 0, 3],
  cswap: ['cswap', 0, 3],
  fredkin: ['cswap', 0, 3],
  ccz: ['ccz', 0, 3],
  crx: ['crx', 1, 2],
  cry: ['cry', 1, 2],
  crz: ['crz', 1, 2],
  cp: ['cp', 1, 2],
  cu1: ['cu1', 1, 2],
  cu3: ['cu3', 3, 2],
  cu: ['cu', 4, 2],
  rxx: ['rxx', 1, 2],
  ryy: ['ryy', 1, 2],
  rzz: ['rzz', 1, 2],
  csx: ['csx', 0, 2],
  cs: ['s', 0, 2, 1],
  csdg: ['sdg', 0, 2, 1],
};

/** Gate classes of qiskit.circuit.library → Qiskit method with the same meaning. */
const GATE_CLASSES: Record<string, string> = {
  HGate: 'h',
  XGate: 'x',
  YGate: 'y',
  ZGate: 'z',
  SGate: 's',
  SdgGate: 'sdg',
  TGate: 't',
  TdgGate: 'tdg',
  SXGate: 'sx',
  SXdgGate: 'sxdg',
  IGate: 'id',
  RXGate: 'rx',
  RYGate: 'ry',
  RZGate: 'rz',
  PhaseGate: 'p',
  U1Gate: 'u1',
  U2Gate: 'u2',
  U3Gate: 'u3',
  UGate: 'u',
  CXGate: 'cx',
  CYGate: 'cy',
  CZGate: 'cz',
  CHGate: 'ch',
  SwapGate: 'swap',
  iSwapGate: 'iswap',
  ECRGate: 'ecr',
  CCXGate: 'ccx',
  CSwapGate: 'cswap',
  CCZGate: 'ccz',
  CRXGate: 'crx',
  CRYGate: 'cry',
  CRZGate: 'crz',
  CPhaseGate: 'cp',
  CU1Gate: 'cu1',
  CU3Gate: 'cu3',
  CUGate: 'cu',
  RXXGate: 'rxx',
  RYYGate: 'ryy',
  RZZGate: 'rzz',
  CSXGate: 'csx',
  CSGate: 'cs',
  CSdgGate: 'csdg',
  MCXGate: 'mcx',
};

const PARAM_KWARGS = ['theta', 'phi', 'lam', 'lambda_', 'gamma'];
const QUBIT_KWARGS = ['qubit', 'control_qubit', 'target_qubit', 'qubit1', 'qubit2', 'control_qubit1', 'control_qubit2', 'target_qubit1', 'target_qubit2'];

/** Names whose only job is to run, transpile or show a circuit: accepted and ignored. */
const EXECUTION_NAMES = new Set([
  'transpile',
  'execute',
  'Aer',
  'AerSimulator',
  'BasicAer',
  'BasicSimulator',
  'Sampler',
  'StatevectorSampler',
  'Estimator',
  'StatevectorEstimator',
  'SamplerV2',
  'EstimatorV2',
  'plot_histogram',
  'plot_bloch_multivector',
  'plot_state_city',
  'Statevector',
  'QiskitRuntimeService',
  'generate_preset_pass_manager',
  'FakeManilaV2',
  'FakeBrisbane',
]);
const EXECUTION_MODULES = [
  'qiskit_aer',
  'qiskit.providers',
  'qiskit.primitives',
  'qiskit.visualization',
  'qiskit.quantum_info',
  'qiskit_ibm_runtime',
  'qiskit.transpiler',
  'qiskit.compiler',
  'matplotlib',
  'qiskit.result',
];
const QISKIT_MODULES = [
  'qiskit',
  'qiskit.circuit',
  'qiskit.circuit.library',
  'qiskit.circuit.library.standard_gates',
  'qiskit.circuit.library.generalized_gates',
  'qiskit.circuit.library.basis_change',
  'qiskit.circuit.library.data_preparation',
  'qiskit.extensions',
];
/** Library circuits and gates built here from their published definitions (see gate-library.ts). */
const LIBRARY_NAMES = new Set([
  'QFT',
  'QFTGate',
  'GroverOperator',
  'grover_operator',
  'MCMT',
  'MCMTGate',
  'UnitaryGate',
  'Diagonal',
  'DiagonalGate',
  'StatePreparation',
  'Initialize',
  'MCPhaseGate',
  'Operator',
  'RealAmplitudes',
  'real_amplitudes',
  'EfficientSU2',
  'efficient_su2',
]);

/** Built-in controls of a standard gate (`cx` has 1); custom gates have none. */
const builtinControls = (g: { name: string }): number => STANDARD_GATES.get(g.name)?.controls ?? 0;
/** Rotation-like gates whose non-integer power scales the angle. */
const ANGLE_POWER = new Set(['rx', 'ry', 'rz', 'p', 'u1', 'rxx', 'ryy', 'rzz', 'crx', 'cry', 'crz', 'cp', 'cu1']);

export function parseQiskit(source: string, options: PythonParseOptions = {}): Circuit {
  const evaluator = new QiskitEvaluator();
  evaluator.run(parsePython(source));
  return evaluator.result(options.entryPoint, options.entryPointArgs, options.freeParameters);
}

class QiskitEvaluator extends PyEvaluator {
  private last?: CircuitValue;
  private registerCount = 0;
  private definitionCount = 0;
  /** Library circuits under construction do not count as the program's circuit. */
  private building = 0;

  /** The circuit built at top level (the one last built or changed), or the one a function returns (README "Which circuit"). */
  result(entryPoint?: string, entryArgs?: EntryPointArgs, freeParameters = false): Circuit {
    const entry = this.entryCircuit(entryPoint, this.last !== undefined, 'QuantumCircuit', entryArgs, freeParameters);
    const qc = (entry === undefined ? undefined : this.asCircuitValue(entry)) ?? this.last;
    if (!qc) throw semanticError(undefined, 'the source builds no QuantumCircuit, at top level or in a function that returns one');
    const unbound = this.circuitParameters(qc.circuit);
    if (!unbound.length) return qc.circuit;
    const labels = unbound.map((p) => this.parameterLabels.get(p)!);
    if (!freeParameters)
      throw semanticError(
        undefined,
        `the circuit has unbound parameters (${labels.join(', ')}); bind them with assign_parameters(...) in the code, or give the entry point's arguments with entry_point_args`,
      );
    // Kept free (conversion, resources): the internal ids become the parameters' own names.
    const names = inputIdentifiers(labels);
    const rename = new Map<string, Expr>(unbound.map((id, i) => [id, { k: 'id', name: names[i] }]));
    const ops = qc.circuit.ops.map((op) => (op.kind === 'gate' ? { ...op, params: op.params.map((e) => substitute(e, rename)) } : op));
    return { ...qc.circuit, ops, inputs: names };
  }

  /** An entry point's missing argument, as a `Parameter` of its name. */
  protected override symbolicArgument(name: string, line: number): PyValue {
    return this.newParameter('Parameter', [name], new Map(), line);
  }

  protected override isCircuitValue(v: PyValue): boolean {
    return isObject(v, 'qc');
  }

  /** An entry point may return a Gate/Instruction or a unitary matrix (numpy array, Operator): it is wrapped in a circuit on qubits 0…k−1. */
  protected override isEntryValue(v: PyValue): boolean {
    if (isObject(v, 'qc') || isObject(v, 'gate')) return true;
    const a = v as unknown;
    return a instanceof NdArray && a.shape.length === 2 && a.shape[0] === a.shape[1] && a.shape[0] >= 2;
  }

  private asCircuitValue(v: PyValue): CircuitValue {
    if (isObject(v, 'qc')) return v as unknown as CircuitValue;
    const gate = isObject(v, 'gate') ? (v as unknown as GateValue) : this.unitaryGate(v, undefined, 0);
    const width = gate.qubits + gate.controls;
    const qc = this.construct('QuantumCircuit', [width], new Map(), 0) as unknown as CircuitValue;
    this.applyGate(
      qc,
      gate,
      Array.from({ length: width }, (_, i) => i),
      0,
      'the returned gate',
    );
    return qc;
  }

  protected override saveState(): () => void {
    const { last, registerCount } = this;
    return () => {
      this.last = last;
      this.registerCount = registerCount;
    };
  }

  private touch(qc: CircuitValue): void {
    if (this.building === 0) this.last = qc;
  }

  protected importModule(module: string): PyValue | undefined {
    if (QISKIT_MODULES.includes(module)) return { kind: 'module', path: 'qiskit' } as unknown as PyValue;
    if (EXECUTION_MODULES.some((m) => module === m || module.startsWith(`${m}.`))) return ignored(module);
    return undefined;
  }

  protected importName(module: string, name: string, _line: number): PyValue | undefined {
    if (module === 'qiskit.quantum_info' && name === 'Operator') return this.library('Operator');
    if (EXECUTION_MODULES.some((m) => module === m || module.startsWith(`${m}.`))) return ignored(`${module}.${name}`);
    if (!QISKIT_MODULES.includes(module)) return undefined;
    return this.qiskitName(name);
  }

  /** `from qiskit import *` / `from qiskit.circuit.library import *`: every name of the subset. */
  protected override importStar(module: string, line: number): void {
    if (!QISKIT_MODULES.includes(module)) {
      super.importStar(module, line);
      return;
    }
    for (const name of ['QuantumCircuit', 'QuantumRegister', 'ClassicalRegister', ...Object.keys(GATE_CLASSES), ...LIBRARY_NAMES, ...EXECUTION_NAMES]) {
      if (name === 'Operator') continue;
      const value = this.qiskitName(name);
      if (value !== undefined) this.env.set(name, value);
    }
  }

  private qiskitName(name: string): PyValue | undefined {
    if (name === 'QuantumCircuit' || name === 'QuantumRegister' || name === 'ClassicalRegister')
      return { kind: 'builtin', name, call: (a: PyValue[], k: Map<string, PyValue>, l: number) => this.construct(name, a, k, l) } as PyValue;
    if (name in GATE_CLASSES) return { kind: 'gateclass', name } as unknown as GateClass;
    if (LIBRARY_NAMES.has(name)) return this.library(name);
    if (EXECUTION_NAMES.has(name)) return ignored(name);
    if (name === 'Parameter' || name === 'ParameterVector')
      return { kind: 'builtin', name, call: (a: PyValue[], k: Map<string, PyValue>, l: number) => this.newParameter(name, a, k, l) } as PyValue;
    return undefined;
  }

  protected override moduleAttr(mod: { kind: 'module'; path: string }, name: string, line: number): PyValue {
    if (mod.path === 'qiskit') {
      if (name === 'circuit' || name === 'library') return mod;
      const v = this.qiskitName(name);
      if (v !== undefined) return v;
    }
    return super.moduleAttr(mod, name, line);
  }

  private register(kind: 'qreg' | 'creg', size: number, name: string): RegisterValue {
    checkBitCount(kind === 'qreg' ? 'qubits' : 'clbits', size);
    const reg: RegisterValue = { kind, name, size, iterable: true, items: [] };
    reg.items = Array.from({ length: size }, (_, index) => ({ kind: kind === 'qreg' ? 'qbit' : 'cbit', reg, index }) as unknown as BitValue);
    return reg;
  }

  private construct(name: string, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
    if (name === 'QuantumRegister' || name === 'ClassicalRegister') {
      const size = toInt(args[0] ?? kwargs.get('size') ?? null, line, 'the register size');
      if (size < 1) throw semanticError(line, `${name} needs a positive size; got ${size}`);
      const given = args[1] ?? kwargs.get('name');
      const regName = typeof given === 'string' ? given : `${name === 'QuantumRegister' ? 'q' : 'c'}${this.registerCount++}`;
      if (!/^[a-z][A-Za-z0-9_]*$/.test(regName))
        throw semanticError(line, `register name '${regName}' must start with a lower-case letter and contain letters, digits and _`);
      return this.register(name === 'QuantumRegister' ? 'qreg' : 'creg', size, regName);
    }
    const qc: CircuitValue = { kind: 'qc', circuit: emptyCircuit(), regs: new Map(), qubitRefs: [], clbitRefs: [] };
    const given = kwargs.get('name');
    if (typeof given === 'string') qc.name = given;
    const gp = kwargs.get('global_phase');
    if (gp !== undefined) qc.circuit.globalPhase = toNumber(gp, line, 'the global phase');
    const numbers = args.filter((a) => typeof a === 'number');
    if (numbers.length) {
      if (numbers.length !== args.length) throw semanticError(line, 'QuantumCircuit takes sizes or registers, not both');
      const nq = toInt(args[0], line, 'the number of qubits');
      if (nq > 0) this.addRegister(qc, this.register('qreg', nq, 'q'), line);
      if (args.length > 1 && toInt(args[1], line) > 0) this.addRegister(qc, this.register('creg', toInt(args[1], line, 'the number of clbits'), 'c'), line);
    } else for (const a of args) this.addRegister(qc, a, line);
    this.touch(qc);
    return qc;
  }

  private addRegister(qc: CircuitValue, reg: PyValue, line: number): void {
    if (!isObject(reg, 'qreg') && !isObject(reg, 'creg')) throw semanticError(line, `expected a QuantumRegister or ClassicalRegister; got ${typeName(reg)}`);
    const r = reg as unknown as RegisterValue;
    if (qc.regs.has(r)) throw semanticError(line, `register ${r.name} is already in the circuit`);
    if ([...qc.regs.values()].some((x) => x.name === r.name)) throw semanticError(line, `the circuit already has a register named ${r.name}`);
    const irReg = r.kind === 'qreg' ? addQreg(qc.circuit, r.name, r.size) : addCreg(qc.circuit, r.name, r.size);
    qc.regs.set(r, irReg);
    (r.kind === 'qreg' ? qc.qubitRefs : qc.clbitRefs).push(...r.items);
  }

  /** Flat indices a qubit (or clbit) argument names; `list` when it names several (broadcast). */
  private bits(qc: CircuitValue, spec: PyValue, kind: 'q' | 'c', line: number): { indices: number[]; list: boolean } {
    const size = kind === 'q' ? qc.circuit.numQubits : qc.circuit.numClbits;
    const one = (v: PyValue): number => {
      if (typeof v === 'number') {
        const i = toInt(v, line, 'a bit index');
        const k = i < 0 ? size + i : i;
        if (k < 0 || k >= size) throw semanticError(line, `${kind === 'q' ? 'qubit' : 'clbit'} index ${i} is out of range (the circuit has ${size})`);
        return k;
      }
      if (isObject(v, kind === 'q' ? 'qbit' : 'cbit')) {
        const b = v as unknown as BitValue;
        const reg = qc.regs.get(b.reg);
        if (!reg) throw semanticError(line, `register ${b.reg.name} is not in this circuit`);
        return reg.offset + b.index;
      }
      throw semanticError(line, `expected a ${kind === 'q' ? 'qubit' : 'clbit'} (index or register element); got ${typeName(v)}`);
    };
    if (isObject(spec, kind === 'q' ? 'qreg' : 'creg')) return { indices: (spec as unknown as RegisterValue).items.map(one), list: true };
    if (Array.isArray(spec) || spec instanceof PyTuple) return { indices: iterate(spec, line).map(one), list: true };
    return { indices: [one(spec)], list: false };
  }

  protected objectAttr(obj: PyObject, name: string, line: number): PyValue {
    if (obj.kind === 'qc') {
      const qc = obj as unknown as CircuitValue;
      switch (name) {
        case 'num_qubits':
          return qc.circuit.numQubits;
        case 'num_clbits':
          return qc.circuit.numClbits;
        case 'qubits':
          return [...qc.qubitRefs];
        case 'clbits':
          return [...qc.clbitRefs];
        case 'qregs':
          return [...qc.regs.keys()].filter((r) => r.kind === 'qreg');
        case 'cregs':
          return [...qc.regs.keys()].filter((r) => r.kind === 'creg');
        case 'global_phase':
          return qc.circuit.globalPhase;
        case 'name':
          return qc.name ?? 'circuit';
        case 'parameters':
          return this.circuitParameters(qc.circuit).map((id) => this.parameterValues.get(id)!);
        case 'num_parameters':
          return this.circuitParameters(qc.circuit).length;
        case 'draw':
        case 'depth':
        case 'size':
        case 'count_ops':
        case 'width':
        case 'qasm':
        case 'save_statevector':
          return ignored(`QuantumCircuit.${name}`);
      }
      if (
        name in GATE_METHODS ||
        [
          'measure',
          'measure_all',
          'barrier',
          'reset',
          'append',
          'compose',
          'add_register',
          'inverse',
          'copy',
          'decompose',
          'if_test',
          'mcx',
          'mcp',
          'mct',
          'mcrx',
          'mcry',
          'mcrz',
          'to_gate',
          'to_instruction',
          'control',
          'power',
          'repeat',
          'initialize',
          'prepare_state',
          'unitary',
          'assign_parameters',
          'bind_parameters',
        ].includes(name)
      ) {
        return { kind: 'method', qc, name } as unknown as MethodValue;
      }
      throw unsupported(line, `QuantumCircuit.${name}`, `QuantumCircuit.${name} is not part of the supported Qiskit subset`);
    }
    if (obj.kind === 'qreg' || obj.kind === 'creg') {
      const r = obj as unknown as RegisterValue;
      if (name === 'size') return r.size;
      if (name === 'name') return r.name;
    }
    if (obj.kind === 'iset' && name === 'c_if') {
      const set = obj as unknown as InstructionSet;
      return {
        kind: 'builtin',
        name: 'c_if',
        call: (args: PyValue[], _k: Map<string, PyValue>, l: number) => {
          const condition = this.condition(set.qc, args[0], args[1], l);
          for (const op of set.ops) if (op.kind !== 'barrier') op.condition = condition;
          return set;
        },
      } as PyValue;
    }
    if (obj.kind === 'gate') {
      const g = obj as unknown as GateValue;
      const method = (call: (a: PyValue[], k: Map<string, PyValue>, l: number) => PyValue): PyValue => ({ kind: 'builtin', name, call }) as PyValue;
      switch (name) {
        case 'control':
          return method(
            (a, k, l) =>
              this.controlGate(
                g,
                toInt(a[0] ?? k.get('num_ctrl_qubits') ?? 1, l, 'the number of controls'),
                a[2] ?? k.get('ctrl_state'),
                l,
              ) as unknown as PyValue,
          );
        case 'inverse':
          return method(() => ({ ...g, inverse: !g.inverse }) as unknown as PyValue);
        case 'power':
          return method((a, k, l) => this.powerGate(g, toNumber(a[0] ?? k.get('exponent') ?? null, l, 'the power'), l) as unknown as PyValue);
        case 'repeat':
          return method((a, _k, l) => this.powerGate(g, toInt(a[0] ?? null, l, 'the number of repetitions'), l) as unknown as PyValue);
        case 'to_gate':
        case 'to_instruction':
        case 'copy':
          return method(() => g as unknown as PyValue);
        case 'num_qubits':
          return g.qubits;
        case 'num_clbits':
          return 0;
        case 'num_ctrl_qubits':
          return g.controls + builtinControls(g);
        case 'params':
          return [...g.params];
        case 'name':
        case 'label':
          return g.name;
        case 'definition':
          return this.gateCircuit(g, line) as unknown as PyValue;
      }
    }
    throw unsupported(line, `${obj.kind}.${name}`, `attribute ${name} is not part of the supported Qiskit subset`);
  }

  protected override setObjectAttr(obj: PyObject, name: string, value: PyValue, line: number): void {
    if (obj.kind === 'qc' && name === 'global_phase') {
      (obj as unknown as CircuitValue).circuit.globalPhase = toNumber(value, line, 'the global phase');
      this.touch(obj as unknown as CircuitValue);
      return;
    }
    if (obj.kind === 'gate' && (name === 'name' || name === 'label')) return; // a display name only
    if (obj.kind === 'qc' && name === 'name') {
      if (typeof value === 'string') (obj as unknown as CircuitValue).name = value;
      return;
    }
    super.setObjectAttr(obj, name, value, line);
  }

  protected override index(obj: PyValue, index: PyValue, line: number): PyValue {
    if (isObject(obj, 'paramvec')) {
      const v = obj as unknown as ParamVector;
      const i = toInt(index, line, 'a ParameterVector index');
      const k = i < 0 ? v.size + i : i;
      if (k < 0 || k >= v.size) throw semanticError(line, `index ${i} is out of range for ParameterVector ${v.name} of length ${v.size}`);
      return v.items[k];
    }
    if (isObject(obj, 'qreg') || isObject(obj, 'creg')) {
      const r = obj as unknown as RegisterValue;
      const i = toInt(index, line, 'a register index');
      const k = i < 0 ? r.size + i : i;
      if (k < 0 || k >= r.size) throw semanticError(line, `index ${i} is out of range for register ${r.name} of size ${r.size}`);
      return r.items[k];
    }
    return super.index(obj, index, line);
  }

  protected override sliceable(obj: PyValue, line: number): PyValue[] {
    if (isObject(obj, 'qreg') || isObject(obj, 'creg')) return (obj as unknown as RegisterValue).items;
    return super.sliceable(obj, line);
  }

  protected callObject(obj: PyObject, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
    if (obj.kind === 'method') return this.method(obj as unknown as MethodValue, args, kwargs, line);
    if (obj.kind === 'gateclass') {
      const cls = obj as unknown as GateClass;
      const method = GATE_CLASSES[cls.name];
      if (method === 'mcx') {
        const n = toInt(args[0] ?? kwargs.get('num_ctrl_qubits') ?? null, line, 'the number of controls');
        if (n < 1) throw semanticError(line, `MCXGate needs at least one control; got ${n}`);
        const state = args[2] ?? kwargs.get('ctrl_state');
        return {
          kind: 'gate',
          name: 'x',
          params: [],
          qubits: n + 1,
          controls: n,
          inverse: false,
          ...(state !== undefined && state !== null ? { ctrlState: this.ctrlState(state, n, line) } : {}),
        } as unknown as GateValue;
      }
      const [name, nParams, nQubits, extra = 0] = GATE_METHODS[method];
      const values = args.slice(0, nParams);
      for (const k of PARAM_KWARGS) if (kwargs.has(k)) values.push(kwargs.get(k)!);
      if (values.length !== nParams) throw semanticError(line, `${cls.name} takes ${nParams} parameter(s); got ${values.length}`);
      const g: GateValue = {
        kind: 'gate',
        name,
        ...this.gateParams(values, line, `a parameter of ${cls.name}`),
        qubits: nQubits,
        controls: extra,
        inverse: false,
      };
      const state = kwargs.get('ctrl_state');
      if (state !== undefined && state !== null) {
        const total = extra + builtinControls(g);
        if (total === 0) throw semanticError(line, `${cls.name} has no controls; ctrl_state does not apply`);
        g.ctrlState = this.ctrlState(state, total, line);
      }
      return g as unknown as PyValue;
    }
    throw semanticError(line, `${obj.kind} is not callable`);
  }

  private condition(qc: CircuitValue, target: PyValue, value: PyValue, line: number): Condition {
    const v = toInt(value, line, 'the condition value');
    let clbits: number[];
    if (isObject(target, 'creg')) clbits = this.bits(qc, target, 'c', line).indices;
    else if (isObject(target, 'cbit') || typeof target === 'number') clbits = this.bits(qc, target, 'c', line).indices;
    else throw semanticError(line, `a condition tests a ClassicalRegister or a clbit; got ${typeName(target)}`);
    if (v < 0 || v >= 2 ** clbits.length) throw semanticError(line, `the condition value ${v} does not fit in ${clbits.length} bit(s)`);
    return { clbits, value: v };
  }

  private push(qc: CircuitValue, op: Operation): Operation {
    if (qc.condition && op.kind !== 'barrier') op.condition = qc.condition;
    if (op.kind === 'gate' && op.name === 'gphase' && !op.controls && !op.condition) {
      // An uncontrolled global phase (from an inverted or powered custom gate) is the circuit's.
      qc.circuit.globalPhase += evalExpr(op.params[0]);
      return op;
    }
    qc.circuit.ops.push(op);
    this.tick(op.line ?? 0);
    this.touch(qc);
    return op;
  }

  private applyGate(qc: CircuitValue, gate: GateValue, qargs: PyValue[], line: number, label: string): InstructionSet {
    if (qargs.length !== gate.qubits) throw semanticError(line, `${label} takes ${gate.qubits} qubit argument(s); got ${qargs.length}`);
    const specs = qargs.map((a) => this.bits(qc, a, 'q', line));
    const lengths = new Set(specs.filter((s) => s.list).map((s) => s.indices.length));
    if (lengths.size > 1) throw semanticError(line, `${label}: qubit lists of different lengths (${[...lengths].join(', ')}) cannot be broadcast`);
    const n = lengths.size ? [...lengths][0] : 1;
    for (const [name, def] of gate.defs ?? []) qc.circuit.definitions.set(name, def);
    const power = gate.power ?? 1;
    if (Math.abs(power) * n > MAX_EXPANDED_OPERATIONS)
      throw new CircuitError(
        'limit',
        `${label}: power ${power} would add ${Math.abs(power) * n} operations; a circuit may have at most ${MAX_EXPANDED_OPERATIONS}`,
        line,
      );
    const inverse = gate.inverse !== power < 0;
    const totalControls = gate.controls + builtinControls(gate);
    const ops: Operation[] = [];
    for (let k = 0; k < n; k++) {
      const qubits = specs.map((s) => (s.list ? s.indices[k] : s.indices[0]));
      if (new Set(qubits).size !== qubits.length) throw semanticError(line, `${label} is applied to the same qubit more than once (${qubits.join(', ')})`);
      const one: GateOp = {
        kind: 'gate',
        name: gate.name,
        qubits,
        params: gate.symbolic ?? gate.params.map(num),
        line,
        ...(gate.controls ? { controls: gate.controls } : {}),
      };
      let gops: GateOp[] = Array.from({ length: Math.abs(power) }, () => ({ ...one, qubits: [...qubits] }));
      if (inverse) gops = gops.flatMap((g) => inverseGate(qc.circuit, g));
      // Open controls (ctrl_state bit 0): X before and after on those control qubits.
      const open = gate.ctrlState === undefined ? [] : qubits.slice(0, totalControls).filter((_, i) => Math.floor(gate.ctrlState! / 2 ** i) % 2 === 0);
      const flips = open.map((q): GateOp => ({ kind: 'gate', name: 'x', qubits: [q], params: [], line }));
      for (const g of [...flips, ...gops, ...flips.map((f) => ({ ...f }))]) ops.push(this.push(qc, canonicalizeControls(g)));
    }
    return { kind: 'iset', ops, qc } as unknown as InstructionSet;
  }

  private method(m: MethodValue, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
    const qc = m.qc;
    const spec = GATE_METHODS[m.name];
    if (spec) {
      const [name, nParams, nQubits, extra = 0] = spec;
      const params = args.slice(0, nParams);
      const qargs = args.slice(nParams);
      for (const k of PARAM_KWARGS) if (kwargs.has(k)) params.push(kwargs.get(k)!);
      for (const k of QUBIT_KWARGS) if (kwargs.has(k)) qargs.push(kwargs.get(k)!);
      if (params.length !== nParams)
        throw semanticError(line, `QuantumCircuit.${m.name} takes ${nParams} parameter(s) before its qubits; got ${params.length}`);
      const gate: GateValue = {
        kind: 'gate',
        name,
        ...this.gateParams(params, line, `a parameter of ${m.name}`),
        qubits: nQubits,
        controls: extra,
        inverse: false,
      };
      return this.applyGate(qc, gate, qargs, line, `QuantumCircuit.${m.name}`);
    }
    switch (m.name) {
      case 'mcx':
      case 'mct':
      case 'mcp':
      case 'mcrx':
      case 'mcry':
      case 'mcrz': {
        const angled = m.name !== 'mcx' && m.name !== 'mct';
        const lam = angled ? [args.shift() ?? kwargs.get('lam') ?? kwargs.get('theta') ?? null] : [];
        const controls = this.bits(qc, args[0] ?? kwargs.get('control_qubits') ?? kwargs.get('q_controls') ?? null, 'q', line).indices;
        const target = args[1] ?? kwargs.get('target_qubit') ?? kwargs.get('q_target') ?? null;
        const base = m.name === 'mcp' ? 'p' : angled ? m.name.slice(2) : 'x';
        const gate: GateValue = {
          kind: 'gate',
          name: base,
          ...this.gateParams(lam, line, 'the angle'),
          qubits: controls.length + 1,
          controls: controls.length,
          inverse: false,
        };
        const state = kwargs.get('ctrl_state');
        if (state !== undefined && state !== null) gate.ctrlState = this.ctrlState(state, controls.length, line);
        return this.applyGate(qc, gate, [...controls, target], line, `QuantumCircuit.${m.name}`);
      }
      case 'to_gate':
      case 'to_instruction': {
        const base = kwargs.get('label') ?? kwargs.get('name');
        if (m.name === 'to_instruction' && qc.circuit.ops.some((op) => op.kind === 'measure' || op.kind === 'reset' || ('condition' in op && op.condition)))
          return this.copy(qc);
        return this.circuitGate(qc, typeof base === 'string' ? base : undefined, line) as unknown as PyValue;
      }
      case 'control': {
        const gate = this.controlGate(
          this.circuitGate(qc, undefined, line),
          toInt(args[0] ?? kwargs.get('num_ctrl_qubits') ?? 1, line, 'the number of controls'),
          args[2] ?? kwargs.get('ctrl_state'),
          line,
        );
        const circuit = this.gateCircuit(gate, line);
        this.touch(circuit);
        return circuit;
      }
      case 'power':
      case 'repeat': {
        const k =
          m.name === 'repeat'
            ? toInt(args[0] ?? kwargs.get('reps') ?? null, line, 'the number of repetitions')
            : toNumber(args[0] ?? kwargs.get('power') ?? null, line, 'the power');
        if (m.name === 'repeat' && k < 0) throw semanticError(line, `repeat takes a non-negative count; got ${k}`);
        const circuit = this.gateCircuit(this.powerGate(this.circuitGate(qc, undefined, line), k, line), line);
        this.touch(circuit);
        return circuit;
      }
      case 'assign_parameters':
      case 'bind_parameters':
        return this.assignParameters(
          qc,
          args[0] ?? kwargs.get('parameters') ?? kwargs.get('values') ?? null,
          (args[1] ?? kwargs.get('inplace')) === true,
          line,
        );
      case 'initialize':
      case 'prepare_state': {
        const target = args[1] ?? kwargs.get('qubits') ?? null;
        const qubits = target === null ? Array.from({ length: qc.circuit.numQubits }, (_, i) => i) : this.bits(qc, target, 'q', line).indices;
        const normalize = (args[2] ?? kwargs.get('normalize')) === true;
        const gate = this.statePreparation(args[0] ?? kwargs.get('params') ?? kwargs.get('state') ?? null, qubits.length, normalize, false, line);
        if (m.name === 'initialize') for (const q of qubits) this.push(qc, { kind: 'reset', qubit: q, line });
        return this.applyGate(qc, gate, qubits, line, `QuantumCircuit.${m.name}`);
      }
      case 'unitary': {
        const target = args[1] ?? kwargs.get('qubits') ?? null;
        const qubits = this.bits(qc, target, 'q', line).indices;
        const label = args[2] ?? kwargs.get('label');
        return this.applyGate(
          qc,
          this.unitaryGate(args[0] ?? kwargs.get('obj') ?? null, typeof label === 'string' ? label : undefined, line),
          qubits,
          line,
          'QuantumCircuit.unitary',
        );
      }
      case 'measure': {
        const q = this.bits(qc, args[0] ?? kwargs.get('qubit') ?? null, 'q', line).indices;
        const c = this.bits(qc, args[1] ?? kwargs.get('cbit') ?? null, 'c', line).indices;
        if (q.length !== c.length) throw semanticError(line, `measure: ${q.length} qubit(s) into ${c.length} clbit(s); the sizes must match`);
        return { kind: 'iset', ops: q.map((qubit, i) => this.push(qc, { kind: 'measure', qubit, clbit: c[i], line })), qc } as unknown as InstructionSet;
      }
      case 'measure_all': {
        const addBits = kwargs.get('add_bits') ?? args[1] ?? true;
        const inplace = kwargs.get('inplace') ?? args[0] ?? true;
        if (inplace === false) throw unsupported(line, 'measure_all(inplace=False)', 'use the in-place form');
        const n = qc.circuit.numQubits;
        this.push(qc, { kind: 'barrier', qubits: Array.from({ length: n }, (_, i) => i), line });
        let offset = 0;
        if (addBits !== false) {
          const reg = this.register('creg', n, 'meas');
          this.addRegister(qc, reg, line);
          offset = qc.regs.get(reg)!.offset;
        } else if (qc.circuit.numClbits < n)
          throw semanticError(line, `measure_all(add_bits=False) needs ${n} clbits; the circuit has ${qc.circuit.numClbits}`);
        for (let q = 0; q < n; q++) this.push(qc, { kind: 'measure', qubit: q, clbit: offset + q, line });
        return null;
      }
      case 'barrier': {
        const qubits = args.length ? args.flatMap((a) => this.bits(qc, a, 'q', line).indices) : Array.from({ length: qc.circuit.numQubits }, (_, i) => i);
        this.push(qc, { kind: 'barrier', qubits, line });
        return null;
      }
      case 'reset': {
        const q = this.bits(qc, args[0] ?? kwargs.get('qubit') ?? null, 'q', line).indices;
        return { kind: 'iset', ops: q.map((qubit) => this.push(qc, { kind: 'reset', qubit, line })), qc } as unknown as InstructionSet;
      }
      case 'add_register':
        for (const a of args) this.addRegister(qc, a, line);
        this.touch(qc);
        return null;
      case 'append': {
        const inst = args[0] ?? kwargs.get('instruction') ?? null;
        const qargs = iterate(args[1] ?? kwargs.get('qargs') ?? [], line, 'qargs');
        if (isObject(inst, 'qc')) return this.compose(qc, inst as unknown as CircuitValue, qargs, undefined, true, line);
        if (!isObject(inst, 'gate'))
          throw unsupported(
            line,
            `append(${typeName(inst)})`,
            'append takes a gate object (e.g. HGate(), CXGate(), RZGate(0.1), UnitaryGate(m), qc.to_gate()) or a circuit',
          );
        return this.applyGate(qc, inst as unknown as GateValue, qargs, line, 'QuantumCircuit.append');
      }
      case 'compose': {
        let other = args[0] ?? kwargs.get('other') ?? null;
        if (isObject(other, 'gate')) other = this.gateCircuit(other as unknown as GateValue, line);
        if (!isObject(other, 'qc')) throw unsupported(line, `compose(${typeName(other)})`, 'compose takes a QuantumCircuit or a gate built in the same source');
        const qubits = args[1] ?? kwargs.get('qubits') ?? null;
        const clbits = args[2] ?? kwargs.get('clbits') ?? null;
        const front = (args[3] ?? kwargs.get('front')) === true;
        const inplace = (args[4] ?? kwargs.get('inplace')) === true;
        const asList = (v: PyValue | null) =>
          v === null ? undefined : typeof v === 'number' || isObject(v, 'qbit') || isObject(v, 'cbit') ? [v] : iterate(v, line);
        return this.compose(qc, other as unknown as CircuitValue, asList(qubits), asList(clbits), inplace, line, front);
      }
      case 'inverse': {
        const copy = this.copy(qc);
        if (qc.circuit.ops.some((op) => op.kind === 'measure' || op.kind === 'reset'))
          throw semanticError(line, 'a circuit with measurements or resets has no inverse');
        copy.circuit.ops = qc.circuit.ops
          .slice()
          .reverse()
          .flatMap<Operation>((op) => (op.kind === 'gate' ? inverseGate(qc.circuit, op) : [op]));
        copy.circuit.globalPhase = -qc.circuit.globalPhase;
        this.touch(copy);
        return copy;
      }
      case 'copy':
      case 'decompose': {
        const copy = this.copy(qc);
        this.touch(copy);
        return copy;
      }
      case 'if_test': {
        const cond = args[0] ?? null;
        const items = iterate(cond, line, 'if_test((register_or_bit, value))');
        if (items.length !== 2) throw semanticError(line, 'if_test takes a (clbit or register, value) tuple');
        return { kind: 'iftest', qc, condition: this.condition(qc, items[0], items[1], line) } as unknown as IfTest;
      }
    }
    throw unsupported(line, `QuantumCircuit.${m.name}`, 'not part of the supported Qiskit subset');
  }

  protected override withBlock(item: PyValue, alias: string | undefined, body: () => void, line: number): void {
    if (!isObject(item, 'iftest')) return void super.withBlock(item, alias, body, line);
    const test = item as unknown as IfTest;
    if (test.qc.condition) throw unsupported(line, 'nested if_test', 'conditions cannot be nested');
    if (alias) throw unsupported(line, 'if_test(...) as else_', 'else branches of if_test are outside the supported subset');
    test.qc.condition = test.condition;
    try {
      body();
    } finally {
      test.qc.condition = undefined;
    }
  }

  // ---- gates built from circuits, matrices and states ----

  // ---- Parameters (bound in code with assign_parameters before the circuit is used) ----
  private readonly parameterLabels = new Map<string, string>();
  private readonly parameterValues = new Map<string, ParamValue>();
  /** Qiskit's parameter order: by name, ParameterVector elements by index. */
  private readonly parameterOrder = new Map<string, [string, number]>();

  private newParameter(kind: 'Parameter' | 'ParameterVector', args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
    const name = args[0] ?? kwargs.get('name') ?? null;
    if (typeof name !== 'string') throw semanticError(line, `${kind} takes a name string; got ${typeName(name)}`);
    const make = (label: string, order: [string, number]): ParamValue => {
      const id = `param_${this.parameterValues.size}`;
      const p: ParamValue = { kind: 'param', expr: { k: 'id', name: id } };
      this.parameterLabels.set(id, label);
      this.parameterValues.set(id, p);
      this.parameterOrder.set(id, order);
      return p;
    };
    if (kind === 'Parameter') return make(name, [name, -1]) as unknown as PyValue;
    const size = toInt(args[1] ?? kwargs.get('length') ?? 0, line, 'the ParameterVector length');
    checkListLength(size, line);
    const items = Array.from({ length: size }, (_, i) => make(`${name}[${i}]`, [name, i]) as unknown as PyValue);
    return { kind: 'paramvec', name, size, iterable: true, items } as unknown as PyValue;
  }

  /** Parameters of gates: numbers, or Parameter expressions kept symbolic until assign_parameters. */
  private gateParams(values: PyValue[], line: number, what: string): { params: number[]; symbolic?: Expr[] } {
    if (!values.some((v) => isObject(v, 'param'))) return { params: values.map((v) => toNumber(v, line, what)) };
    return {
      params: values.map(() => 0),
      symbolic: values.map((v) => (isObject(v, 'param') ? (v as unknown as ParamValue).expr : num(toNumber(v, line, what)))),
    };
  }

  protected override objectBinary(op: string, a: PyValue, b: PyValue, line: number): PyValue | undefined {
    if (!isObject(a, 'param') && !isObject(b, 'param')) return super.objectBinary(op, a, b, line);
    const expr = (v: PyValue): Expr =>
      isObject(v, 'param') ? (v as unknown as ParamValue).expr : num(toNumber(v, line, 'a number in a parameter expression'));
    if (op === 'neg') return { kind: 'param', expr: { k: 'neg', a: expr(a) } } as unknown as PyValue;
    const ops: Record<string, '+' | '-' | '*' | '/' | '^'> = { '+': '+', '-': '-', '*': '*', '/': '/', '**': '^' };
    if (!ops[op]) throw unsupported(line, op, `${op} on parameters is outside the supported subset`);
    return { kind: 'param', expr: { k: 'bin', op: ops[op], a: expr(a), b: expr(b) } } as unknown as PyValue;
  }

  /** Unbound parameter ids of a circuit, in Qiskit's order (by name; vector elements by index). */
  private circuitParameters(c: Circuit): string[] {
    const ids = new Set<string>();
    for (const op of c.ops) if (op.kind === 'gate') for (const e of op.params) for (const id of freeNames(e)) if (this.parameterValues.has(id)) ids.add(id);
    return [...ids].sort((x, y) => {
      const [nx, ix] = this.parameterOrder.get(x)!;
      const [ny, iy] = this.parameterOrder.get(y)!;
      return nx === ny ? ix - iy : nx < ny ? -1 : 1;
    });
  }

  /** `assign_parameters({p: value, vector: [values]})` or `assign_parameters([values in circuit.parameters order])`. */
  private assignParameters(qc: CircuitValue, spec: PyValue, inplace: boolean, line: number): PyValue {
    const order = this.circuitParameters(qc.circuit);
    const bindings = new Map<string, Expr>();
    const bind = (p: PyValue, v: PyValue) => {
      if (!isObject(p, 'param') || (p as unknown as ParamValue).expr.k !== 'id')
        throw semanticError(line, `assign_parameters: keys must be Parameters or ParameterVectors; got ${typeName(p)}`);
      bindings.set(((p as unknown as ParamValue).expr as { name: string }).name, num(toNumber(v, line, 'a parameter value')));
    };
    if (spec instanceof PyDict) {
      const dict = spec;
      for (const key of dict.keys()) {
        const value = dict.get(key, line)!;
        if (isObject(key, 'paramvec')) {
          const items = (key as unknown as ParamVector).items;
          const values = iterate(value, line, 'the ParameterVector values');
          if (values.length !== items.length)
            throw semanticError(
              line,
              `assign_parameters: ParameterVector ${(key as unknown as ParamVector).name} has ${items.length} elements; ${values.length} values given`,
            );
          for (let i = 0; i < items.length; i++) bind(items[i], values[i]);
        } else bind(key, value);
      }
    } else {
      const values = iterate(spec, line, 'the parameter values');
      if (values.length !== order.length)
        throw semanticError(line, `assign_parameters: the circuit has ${order.length} parameter(s); ${values.length} value(s) given`);
      for (let i = 0; i < order.length; i++) bind(this.parameterValues.get(order[i])! as unknown as PyValue, values[i]);
    }
    const target = inplace ? qc : this.copy(qc);
    target.circuit.ops = target.circuit.ops.map((op) => {
      if (op.kind !== 'gate' || !op.params.some((e) => freeNames(e).size)) return op;
      const params = op.params.map((e) => {
        const bound = substitute(e, bindings);
        return [...freeNames(bound)].some((id) => this.parameterValues.has(id)) ? bound : num(evalExpr(bound));
      });
      return { ...op, params };
    });
    this.touch(target);
    return inplace ? null : target;
  }

  /** A fresh name for a custom definition (`qft_3`): unique in the program, never a standard gate. */
  private definitionName(base: string): string {
    const clean =
      base
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .replace(/^[^a-z]+/, '') || 'gate';
    return `${clean}_${++this.definitionCount}`;
  }

  private customGate(def: GateDefinition, needs: Map<string, GateDefinition> = new Map()): GateValue {
    return { kind: 'gate', name: def.name, params: [], qubits: def.qubits, controls: 0, inverse: false, defs: new Map([...needs, [def.name, def]]) };
  }

  /** `qc.to_gate()`: a custom gate whose body is the circuit's gates (and its global phase). */
  private circuitGate(qc: CircuitValue, label: string | undefined, line: number): GateValue {
    const body = circuitBody(qc.circuit, 'to_gate', line);
    if (qc.circuit.numClbits) throw semanticError(line, 'a circuit with classical bits cannot become a gate (Qiskit refuses it too); build it without clbits');
    return this.customGate(
      { name: this.definitionName(label ?? qc.name ?? 'circuit'), params: [], qubits: qc.circuit.numQubits, body, line },
      qc.circuit.definitions,
    );
  }

  /** A circuit of `gate.qubits` qubits holding only `gate` on all of them (what Qiskit's library circuits are). */
  private gateCircuit(gate: GateValue, line: number, name?: string): CircuitValue {
    const qc = this.newCircuit(gate.qubits, name);
    this.building++;
    try {
      this.applyGate(
        qc,
        gate,
        Array.from({ length: gate.qubits }, (_, i) => i),
        line,
        name ?? gate.name,
      );
    } finally {
      this.building--;
    }
    return qc;
  }

  private newCircuit(numQubits: number, name?: string): CircuitValue {
    const qc: CircuitValue = { kind: 'qc', circuit: emptyCircuit(), regs: new Map(), qubitRefs: [], clbitRefs: [], ...(name ? { name } : {}) };
    if (numQubits > 0) this.addRegister(qc, this.register('qreg', numQubits, 'q'), 0);
    return qc;
  }

  /** A ctrl_state (int or bit string, bit i = control i) over `k` controls. */
  private ctrlState(v: PyValue | undefined, k: number, line: number): number {
    if (v === undefined || v === null) return 2 ** k - 1;
    let state: number;
    if (typeof v === 'string') {
      if (!/^[01]+$/.test(v) || v.length !== k) throw semanticError(line, `ctrl_state '${v}' must be ${k} character(s) of 0 and 1`);
      state = parseInt(v, 2);
    } else state = toInt(v, line, 'ctrl_state');
    if (state < 0 || state >= 2 ** k) throw semanticError(line, `ctrl_state ${state} does not fit in ${k} control(s)`);
    return state;
  }

  /** `gate.control(k, ctrl_state=…)`: the new controls come first (Qiskit prepends them). */
  private controlGate(g: GateValue, k: number, state: PyValue | undefined, line: number): GateValue {
    if (k < 1) throw semanticError(line, `control() needs at least one control qubit; got ${k}`);
    const before = g.controls + builtinControls(g);
    const old = g.ctrlState ?? 2 ** before - 1;
    const combined = old * 2 ** k + this.ctrlState(state, k, line);
    const all = 2 ** (before + k) - 1;
    const out: GateValue = { ...g, controls: g.controls + k, qubits: g.qubits + k };
    if (combined === all) delete out.ctrlState;
    else out.ctrlState = combined;
    return out;
  }

  /** `gate.power(k)`: repetitions for integer k; rotation angles scaled otherwise. */
  private powerGate(g: GateValue, k: number, line: number): GateValue {
    if (Number.isInteger(k)) return { ...g, power: (g.power ?? 1) * k };
    if (ANGLE_POWER.has(g.name) && (g.power ?? 1) === 1 && !g.symbolic) {
      const sign = g.inverse ? -1 : 1;
      return { ...g, inverse: false, params: g.params.map((p) => p * k * sign) };
    }
    throw unsupported(
      line,
      `power(${k})`,
      'non-integer powers are supported for rotation and phase gates (rx ry rz p rxx ryy rzz and their controlled forms); use an integer or UnitaryGate of the matrix power',
    );
  }

  /** UnitaryGate(matrix) / qc.unitary(matrix): checked unitary, synthesized exactly. */
  private unitaryGate(data: PyValue, label: string | undefined, line: number): GateValue {
    if (isObject(data, 'gate')) return data as unknown as GateValue;
    if (isObject(data, 'qc')) return this.circuitGate(data as unknown as CircuitValue, label, line);
    const m = toMatrix(data, line, 'UnitaryGate');
    return this.customGate(matrixDefinition(this.definitionName(label ?? 'unitary'), m, 'UnitaryGate', line));
  }

  /** StatePreparation(params): a vector of amplitudes, a label like '01+-', or an integer basis state. */
  private statePreparation(params: PyValue, numQubits: number | undefined, normalize: boolean, inverse: boolean, line: number): GateValue {
    let def: GateDefinition;
    const name = this.definitionName('state_preparation');
    if (typeof params === 'string') {
      if (numQubits !== undefined && params.length !== numQubits)
        throw semanticError(line, `the state label '${params}' has ${params.length} qubit(s); ${numQubits} are given`);
      def = { name, params: [], qubits: params.length, body: labelStateOps(params, line), line };
    } else if (typeof params === 'number') {
      const n = numQubits ?? Math.max(1, Math.ceil(Math.log2(params + 1)));
      const k = toInt(params, line, 'a basis state');
      if (k < 0 || k >= 2 ** n) throw semanticError(line, `basis state ${k} does not fit in ${n} qubit(s)`);
      def = { name, params: [], qubits: n, body: labelStateOps(k.toString(2).padStart(n, '0'), line), line };
    } else {
      const amplitudes = toVector(params, line, 'the state');
      def = statePreparationDefinition(name, amplitudes, normalize, 'StatePreparation', line);
      if (numQubits !== undefined && def.qubits !== numQubits)
        throw semanticError(line, `a state of ${amplitudes.length} amplitudes needs ${def.qubits} qubit(s); ${numQubits} are given`);
    }
    return { ...this.customGate(def), inverse };
  }

  /** A gate value from what library constructors accept: a gate, a gate class, a method name ('z'), a circuit. */
  private asGate(v: PyValue, line: number, what: string): GateValue {
    if (isObject(v, 'gate')) return v as unknown as GateValue;
    if (isObject(v, 'gateclass')) return this.callObject(v as PyObject, [], new Map(), line) as unknown as GateValue;
    if (isObject(v, 'qc')) return this.circuitGate(v as unknown as CircuitValue, undefined, line);
    if (typeof v === 'string' && GATE_METHODS[v]) {
      const [name, nParams, nQubits, extra = 0] = GATE_METHODS[v];
      if (nParams) throw semanticError(line, `${what}: gate '${v}' needs parameters; pass a gate object`);
      return { kind: 'gate', name, params: [], qubits: nQubits, controls: extra, inverse: false };
    }
    if (isObject(v, 'method') && GATE_METHODS[(v as unknown as MethodValue).name]) return this.asGate((v as unknown as MethodValue).name, line, what);
    throw semanticError(line, `${what} takes a gate (e.g. ZGate()), a gate name or a circuit; got ${typeName(v)}`);
  }

  private asCircuit(v: PyValue, line: number, what: string): CircuitValue {
    if (isObject(v, 'qc')) return v as unknown as CircuitValue;
    if (isObject(v, 'gate')) return this.gateCircuit(v as unknown as GateValue, line);
    throw semanticError(line, `${what} takes a QuantumCircuit; got ${typeName(v)}`);
  }

  /** The library circuits and gates (see gate-library.ts for their definitions). */
  private library(name: string): PyValue {
    const call = (fn: (args: PyValue[], kwargs: Map<string, PyValue>, line: number) => PyValue): PyValue => ({ kind: 'builtin', name, call: fn }) as PyValue;
    const arg = (args: PyValue[], kwargs: Map<string, PyValue>, i: number, key: string): PyValue | undefined => args[i] ?? kwargs.get(key);
    const flag = (v: PyValue | undefined, dflt: boolean): boolean => (v === undefined || v === null ? dflt : v === true || v === 1);
    // A library circuit is the program's circuit if nothing is built after it (`qc = QFT(3)`).
    const build = (make: () => CircuitValue): CircuitValue => {
      this.building++;
      let qc: CircuitValue;
      try {
        qc = make();
      } finally {
        this.building--;
      }
      this.touch(qc);
      return qc;
    };
    switch (name) {
      case 'QFT':
      case 'QFTGate':
        return call((args, kwargs, line) => {
          const n = toInt(arg(args, kwargs, 0, 'num_qubits') ?? null, line, 'the number of qubits of QFT');
          if (n < 1) throw semanticError(line, `QFT needs at least one qubit; got ${n}`);
          checkBitCount('qubits', n, line);
          const approx = name === 'QFT' ? toInt(arg(args, kwargs, 1, 'approximation_degree') ?? 0, line, 'approximation_degree') : 0;
          const swaps = name === 'QFT' ? flag(arg(args, kwargs, 2, 'do_swaps'), true) : true;
          const inverse = name === 'QFT' && flag(arg(args, kwargs, 3, 'inverse'), false);
          const barriers = name === 'QFT' && flag(arg(args, kwargs, 4, 'insert_barriers'), false);
          const label = kwargs.get('name');
          const qc = build(() => {
            const c = this.newCircuit(n, typeof label === 'string' ? label : inverse ? 'iqft' : 'qft');
            const ops = qftOps(n, approx, swaps, barriers, line);
            c.circuit.ops = inverse
              ? ops
                  .slice()
                  .reverse()
                  .flatMap<Operation>((op) => (op.kind === 'gate' ? inverseGate(c.circuit, op) : [op]))
              : ops;
            return c;
          });
          return (name === 'QFTGate' ? this.circuitGate(qc, 'qft', line) : qc) as unknown as PyValue;
        });
      case 'GroverOperator':
      case 'grover_operator':
        return call((args, kwargs, line) => {
          const oracle = this.asCircuit(arg(args, kwargs, 0, 'oracle') ?? null, line, name);
          const prep = arg(args, kwargs, 1, 'state_preparation');
          const reflectionArg = kwargs.get('reflection_qubits') ?? args[3];
          const barriers = flag(kwargs.get('insert_barriers'), false);
          const n = oracle.circuit.numQubits;
          const reflection =
            reflectionArg === undefined || reflectionArg === null
              ? Array.from({ length: n }, (_, i) => i)
              : iterate(reflectionArg, line, 'reflection_qubits').map((q) => toInt(q, line, 'a reflection qubit'));
          if (reflection.some((q) => q < 0 || q >= n)) throw semanticError(line, `reflection_qubits must be qubits of the ${n}-qubit oracle`);
          const qc = build(() => {
            const c = this.newCircuit(n, 'Q');
            let a: CircuitValue;
            if (prep === undefined || prep === null) {
              a = this.newCircuit(n);
              for (const q of reflection) this.push(a, { kind: 'gate', name: 'h', qubits: [q], params: [], line });
            } else a = this.asCircuit(prep, line, `${name} state_preparation`);
            const all = (k: number) => Array.from({ length: k }, (_, i) => i as PyValue);
            const barrier = () => barriers && this.push(c, { kind: 'barrier', qubits: all(n) as number[], line });
            this.compose(c, oracle, all(n), undefined, true, line);
            barrier();
            this.compose(c, this.invertCircuit(a, line), all(a.circuit.numQubits), undefined, true, line);
            barrier();
            for (const g of zeroReflectionOps(reflection, line)) this.push(c, g);
            barrier();
            this.compose(c, a, all(a.circuit.numQubits), undefined, true, line);
            c.circuit.globalPhase += Math.PI;
            return c;
          });
          return qc as unknown as PyValue;
        });
      case 'MCMT':
      case 'MCMTGate':
        return call((args, kwargs, line) => {
          const gate = this.asGate(arg(args, kwargs, 0, 'gate') ?? null, line, name);
          const nc = toInt(arg(args, kwargs, 1, 'num_ctrl_qubits') ?? null, line, 'num_ctrl_qubits');
          const nt = toInt(arg(args, kwargs, 2, 'num_target_qubits') ?? 1, line, 'num_target_qubits');
          if (nc < 1 || nt < 1) throw semanticError(line, `${name} needs at least one control and one target; got ${nc} and ${nt}`);
          if (gate.qubits !== 1) throw unsupported(line, name, `${name} applies a single-qubit gate to each target; got a ${gate.qubits}-qubit gate`);
          const qc = build(() => {
            const c = this.newCircuit(nc + nt, 'mcmt');
            const controlled = this.controlGate(gate, nc, undefined, line);
            const controls = Array.from({ length: nc }, (_, i) => i);
            for (let t = 0; t < nt; t++) this.applyGate(c, controlled, [...controls, nc + t], line, name);
            return c;
          });
          return (name === 'MCMTGate' ? this.circuitGate(qc, 'mcmt', line) : qc) as unknown as PyValue;
        });
      case 'UnitaryGate':
        return call((args, kwargs, line) => {
          const label = arg(args, kwargs, 1, 'label');
          const data = arg(args, kwargs, 0, 'data') ?? null;
          if (isObject(data, 'qc') || isObject(data, 'gate')) throw semanticError(line, 'UnitaryGate takes a matrix (numpy array or nested lists)');
          return this.unitaryGate(data, typeof label === 'string' ? label : undefined, line) as unknown as PyValue;
        });
      case 'Operator':
        return call((args, _kwargs, line) => {
          const data = args[0] ?? null;
          if (isObject(data, 'qc') || isObject(data, 'gate')) return ignored('Operator');
          return toArray(data, line) as unknown as PyValue;
        });
      case 'Diagonal':
      case 'DiagonalGate':
        return call((args, kwargs, line) => {
          const entries = toVector(arg(args, kwargs, 0, 'diag') ?? null, line, name);
          const n = entries.length;
          const bad = entries.findIndex(([re, im]) => Math.abs(Math.hypot(re, im) - 1) > 1e-8);
          if (bad >= 0)
            throw semanticError(
              line,
              `${name}: every diagonal entry must have modulus 1; entry ${bad} has |d| = ${Math.hypot(...entries[bad]).toPrecision(6)}`,
            );
          const m = denseMatrix(Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (r === c ? entries[r] : 0))));
          const gate = this.customGate(matrixDefinition(this.definitionName('diagonal'), m, name, line));
          return (name === 'Diagonal' ? build(() => this.gateCircuit(gate, line, 'diagonal')) : gate) as unknown as PyValue;
        });
      case 'StatePreparation':
        return call((args, kwargs, line) => {
          const nq = arg(args, kwargs, 1, 'num_qubits');
          return this.statePreparation(
            arg(args, kwargs, 0, 'params') ?? null,
            nq === undefined || nq === null ? undefined : toInt(nq, line, 'num_qubits'),
            flag(kwargs.get('normalize'), false),
            flag(arg(args, kwargs, 2, 'inverse'), false),
            line,
          ) as unknown as PyValue;
        });
      case 'Initialize':
        return call((args, kwargs, line) => {
          const nq = arg(args, kwargs, 1, 'num_qubits');
          const gate = this.statePreparation(
            arg(args, kwargs, 0, 'params') ?? null,
            nq === undefined || nq === null ? undefined : toInt(nq, line, 'num_qubits'),
            flag(arg(args, kwargs, 2, 'normalize'), false),
            false,
            line,
          );
          // Initialize = reset, then the state preparation: an instruction, so a circuit to compose.
          return build(() => {
            const c = this.newCircuit(gate.qubits, 'initialize');
            for (let q = 0; q < gate.qubits; q++) this.push(c, { kind: 'reset', qubit: q, line });
            this.applyGate(
              c,
              gate,
              Array.from({ length: gate.qubits }, (_, i) => i),
              line,
              'Initialize',
            );
            return c;
          }) as unknown as PyValue;
        });
      case 'RealAmplitudes':
      case 'real_amplitudes':
      case 'EfficientSU2':
      case 'efficient_su2':
        return call((args, kwargs, line) => {
          // Qiskit's TwoLocal ansatz: reps × (rotation layers, CX entanglement), then a final rotation layer;
          // parameters θ[k] in order layer by layer, rotation gate by gate, qubit by qubit.
          const n = toInt(arg(args, kwargs, 0, 'num_qubits') ?? null, line, 'the number of qubits');
          if (n < 1) throw semanticError(line, `${name} needs at least one qubit; got ${n}`);
          const entanglement = arg(args, kwargs, name.startsWith('R') || name.startsWith('r') ? 1 : 2, 'entanglement') ?? 'reverse_linear';
          const reps = toInt(kwargs.get('reps') ?? (name.startsWith('R') || name.startsWith('r') ? args[2] : args[3]) ?? 3, line, 'reps');
          const skipFinal = flag(kwargs.get('skip_final_rotation_layer'), false);
          const barriers = flag(kwargs.get('insert_barriers'), false);
          const prefix = kwargs.get('parameter_prefix') ?? 'θ';
          const rotations = name.toLowerCase().startsWith('real') ? ['ry'] : ['ry', 'rz'];
          let pairs: [number, number][];
          const linear = Array.from({ length: Math.max(0, n - 1) }, (_, i): [number, number] => [i, i + 1]);
          if (entanglement === 'linear') pairs = linear;
          else if (entanglement === 'reverse_linear') pairs = linear.slice().reverse();
          else if (entanglement === 'full')
            pairs = linear.length
              ? Array.from({ length: n }, (_, i) => Array.from({ length: n - i - 1 }, (_, j): [number, number] => [i, i + j + 1])).flat()
              : [];
          else if (entanglement === 'circular') pairs = n > 2 ? [[n - 1, 0], ...linear] : linear;
          else
            throw unsupported(
              line,
              `entanglement=${typeof entanglement === 'string' ? `'${entanglement}'` : typeName(entanglement)}`,
              "entanglement is 'linear', 'reverse_linear', 'full' or 'circular'",
            );
          const layers = reps + (skipFinal ? 0 : 1);
          checkListLength(layers * rotations.length * n + reps * pairs.length, line);
          const vector = this.newParameter(
            'ParameterVector',
            [typeof prefix === 'string' ? prefix : 'θ', layers * rotations.length * n],
            new Map(),
            line,
          ) as unknown as ParamVector;
          return build(() => {
            const c = this.newCircuit(n, name);
            let k = 0;
            const rotationLayer = () => {
              for (const r of rotations)
                for (let q = 0; q < n; q++)
                  this.push(c, { kind: 'gate', name: r, qubits: [q], params: [(vector.items[k++] as unknown as ParamValue).expr], line });
            };
            const all = Array.from({ length: n }, (_, i) => i);
            for (let r = 0; r < reps; r++) {
              rotationLayer();
              if (barriers) this.push(c, { kind: 'barrier', qubits: all, line });
              for (const [a, b] of pairs) this.push(c, { kind: 'gate', name: 'cx', qubits: [a, b], params: [], line });
              if (barriers) this.push(c, { kind: 'barrier', qubits: all, line });
            }
            if (!skipFinal) rotationLayer();
            return c;
          }) as unknown as PyValue;
        });
      case 'MCPhaseGate':
        return call((args, kwargs, line) => {
          const lam = toNumber(arg(args, kwargs, 0, 'lam') ?? null, line, 'the phase');
          const n = toInt(arg(args, kwargs, 1, 'num_ctrl_qubits') ?? null, line, 'the number of controls');
          if (n < 1) throw semanticError(line, `MCPhaseGate needs at least one control; got ${n}`);
          return { kind: 'gate', name: 'p', params: [lam], qubits: n + 1, controls: n, inverse: false } as unknown as PyValue;
        });
    }
    throw unsupported(undefined, name, `${name} is not part of the supported Qiskit subset`);
  }

  /** The inverse of a circuit without measurements (reversed, each gate inverted, phase negated). */
  private invertCircuit(qc: CircuitValue, line: number): CircuitValue {
    if (qc.circuit.ops.some((op) => op.kind === 'measure' || op.kind === 'reset'))
      throw semanticError(line, 'a circuit with measurements or resets has no inverse');
    const copy = this.copy(qc);
    copy.circuit.ops = qc.circuit.ops
      .slice()
      .reverse()
      .flatMap<Operation>((op) => (op.kind === 'gate' ? inverseGate(qc.circuit, op) : [op]));
    copy.circuit.globalPhase = -qc.circuit.globalPhase;
    return copy;
  }

  private copy(qc: CircuitValue): CircuitValue {
    return {
      kind: 'qc',
      circuit: {
        ...qc.circuit,
        qregs: [...qc.circuit.qregs],
        cregs: [...qc.circuit.cregs],
        ops: qc.circuit.ops.map((op) => ({ ...op })),
        definitions: new Map(qc.circuit.definitions),
      },
      ...(qc.name ? { name: qc.name } : {}),
      regs: new Map(qc.regs),
      qubitRefs: [...qc.qubitRefs],
      clbitRefs: [...qc.clbitRefs],
    };
  }

  private compose(
    target: CircuitValue,
    other: CircuitValue,
    qubits: PyValue[] | undefined,
    clbits: PyValue[] | undefined,
    inplace: boolean,
    line: number,
    front = false,
  ): PyValue {
    checkOperationCount(target.circuit.ops.length + other.circuit.ops.length, line);
    const dest = inplace ? target : this.copy(target);
    const qmap = qubits ? qubits.map((q) => this.bits(dest, q, 'q', line).indices[0]) : Array.from({ length: other.circuit.numQubits }, (_, i) => i);
    const cmap = clbits ? clbits.map((c) => this.bits(dest, c, 'c', line).indices[0]) : Array.from({ length: other.circuit.numClbits }, (_, i) => i);
    if (qmap.length !== other.circuit.numQubits || qmap.some((q) => q >= dest.circuit.numQubits)) {
      throw semanticError(
        line,
        `compose: the other circuit has ${other.circuit.numQubits} qubit(s); map them onto this circuit's ${dest.circuit.numQubits} with qubits=[…]`,
      );
    }
    if (cmap.length !== other.circuit.numClbits || cmap.some((c) => c >= dest.circuit.numClbits)) {
      throw semanticError(line, `compose: the other circuit has ${other.circuit.numClbits} clbit(s) but this one has ${dest.circuit.numClbits}`);
    }
    for (const [name, def] of other.circuit.definitions) dest.circuit.definitions.set(name, def);
    // A copy when composing a circuit onto itself: iterating the array being appended to would never end (and
    // front=True empties it first).
    const source = other === dest ? [...other.circuit.ops] : other.circuit.ops;
    // front=True: the other circuit's operations go first.
    const existing = front ? dest.circuit.ops.splice(0) : [];
    for (const op of source) {
      const cond = 'condition' in op && op.condition ? { clbits: op.condition.clbits.map((c) => cmap[c]), value: op.condition.value } : undefined;
      let mapped: Operation;
      if (op.kind === 'gate') mapped = { ...op, qubits: op.qubits.map((q) => qmap[q]) };
      else if (op.kind === 'barrier') mapped = { ...op, qubits: op.qubits.map((q) => qmap[q]) };
      else if (op.kind === 'measure') mapped = { ...op, qubit: qmap[op.qubit], clbit: cmap[op.clbit] };
      else mapped = { ...op, qubit: qmap[op.qubit] };
      if (cond && mapped.kind !== 'barrier') mapped.condition = cond;
      this.push(dest, mapped);
    }
    for (const op of existing) dest.circuit.ops.push(op);
    dest.circuit.globalPhase += other.circuit.globalPhase;
    this.touch(dest);
    return inplace ? null : dest;
  }
}

export { pySlice };
