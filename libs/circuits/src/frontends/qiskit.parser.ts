/**
 * The Qiskit subset: QuantumCircuit/QuantumRegister/ClassicalRegister, the standard gate
 * methods, measure/measure_all/barrier/reset, `append` of standard gate objects, `compose` of
 * circuits built in the same source, `c_if` and `with qc.if_test(...)`, loops over ranges and
 * arithmetic with math/numpy. The result is the circuit the program last built or changed.
 */
import { semanticError, unsupported } from '../errors.js';
import { checkBitCount, checkOperationCount } from '../limits.js';
import { addCreg, addQreg, canonicalizeControls, emptyCircuit, inverseGate, type Circuit, type Condition, type GateOp, type Operation, type Register } from '../ir/circuit.js';
import { num } from '../ir/expr.js';
import { parsePython } from './python-ast.js';
import { PyEvaluator, PyTuple, ignored, isObject, iterate, pySlice, toInt, toNumber, typeName, type PyObject, type PyValue } from './python-eval.js';

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
}
interface GateValue extends PyObject {
  kind: 'gate';
  name: string;
  params: number[];
  qubits: number;
  controls: number;
  inverse: boolean;
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
  h: ['h', 0, 1], x: ['x', 0, 1], y: ['y', 0, 1], z: ['z', 0, 1], s: ['s', 0, 1], sdg: ['sdg', 0, 1], t: ['t', 0, 1], tdg: ['tdg', 0, 1],
  sx: ['sx', 0, 1], sxdg: ['sxdg', 0, 1], id: ['id', 0, 1], i: ['id', 0, 1],
  rx: ['rx', 1, 1], ry: ['ry', 1, 1], rz: ['rz', 1, 1], p: ['p', 1, 1], u1: ['u1', 1, 1], u2: ['u2', 2, 1], u3: ['u3', 3, 1], u: ['u', 3, 1],
  cx: ['cx', 0, 2], cnot: ['cx', 0, 2], cy: ['cy', 0, 2], cz: ['cz', 0, 2], ch: ['ch', 0, 2], swap: ['swap', 0, 2], iswap: ['iswap', 0, 2], ecr: ['ecr', 0, 2],
  ccx: ['ccx', 0, 3], toffoli: ['ccx', 0, 3], cswap: ['cswap', 0, 3], fredkin: ['cswap', 0, 3], ccz: ['ccz', 0, 3],
  crx: ['crx', 1, 2], cry: ['cry', 1, 2], crz: ['crz', 1, 2], cp: ['cp', 1, 2], cu1: ['cu1', 1, 2], cu3: ['cu3', 3, 2], cu: ['cu', 4, 2],
  rxx: ['rxx', 1, 2], ryy: ['ryy', 1, 2], rzz: ['rzz', 1, 2], csx: ['csx', 0, 2], cs: ['s', 0, 2, 1], csdg: ['sdg', 0, 2, 1],
};

/** Gate classes of qiskit.circuit.library → Qiskit method with the same meaning. */
const GATE_CLASSES: Record<string, string> = {
  HGate: 'h', XGate: 'x', YGate: 'y', ZGate: 'z', SGate: 's', SdgGate: 'sdg', TGate: 't', TdgGate: 'tdg', SXGate: 'sx', SXdgGate: 'sxdg', IGate: 'id',
  RXGate: 'rx', RYGate: 'ry', RZGate: 'rz', PhaseGate: 'p', U1Gate: 'u1', U2Gate: 'u2', U3Gate: 'u3', UGate: 'u',
  CXGate: 'cx', CYGate: 'cy', CZGate: 'cz', CHGate: 'ch', SwapGate: 'swap', iSwapGate: 'iswap', ECRGate: 'ecr', CCXGate: 'ccx', CSwapGate: 'cswap', CCZGate: 'ccz',
  CRXGate: 'crx', CRYGate: 'cry', CRZGate: 'crz', CPhaseGate: 'cp', CU1Gate: 'cu1', CU3Gate: 'cu3', CUGate: 'cu', RXXGate: 'rxx', RYYGate: 'ryy', RZZGate: 'rzz',
  CSXGate: 'csx', CSGate: 'cs', CSdgGate: 'csdg', MCXGate: 'mcx',
};

const PARAM_KWARGS = ['theta', 'phi', 'lam', 'lambda_', 'gamma'];
const QUBIT_KWARGS = ['qubit', 'control_qubit', 'target_qubit', 'qubit1', 'qubit2', 'control_qubit1', 'control_qubit2', 'target_qubit1', 'target_qubit2'];

/** Names whose only job is to run, transpile or show a circuit: accepted and ignored. */
const EXECUTION_NAMES = new Set(['transpile', 'execute', 'Aer', 'AerSimulator', 'BasicAer', 'BasicSimulator', 'Sampler', 'StatevectorSampler', 'Estimator', 'StatevectorEstimator', 'SamplerV2', 'EstimatorV2', 'plot_histogram', 'plot_bloch_multivector', 'plot_state_city', 'Statevector', 'QiskitRuntimeService', 'generate_preset_pass_manager', 'FakeManilaV2', 'FakeBrisbane']);
const EXECUTION_MODULES = ['qiskit_aer', 'qiskit.providers', 'qiskit.primitives', 'qiskit.visualization', 'qiskit.quantum_info', 'qiskit_ibm_runtime', 'qiskit.transpiler', 'qiskit.compiler', 'matplotlib', 'qiskit.result'];
const QISKIT_MODULES = ['qiskit', 'qiskit.circuit', 'qiskit.circuit.library', 'qiskit.circuit.library.standard_gates'];

export function parseQiskit(source: string): Circuit {
  const evaluator = new QiskitEvaluator();
  evaluator.run(parsePython(source));
  return evaluator.result();
}

class QiskitEvaluator extends PyEvaluator {
  private last?: CircuitValue;
  private registerCount = 0;

  result(): Circuit {
    if (!this.last) throw semanticError(undefined, 'the source builds no QuantumCircuit');
    return this.last.circuit;
  }

  private touch(qc: CircuitValue): void {
    this.last = qc;
  }

  protected importModule(module: string): PyValue | undefined {
    if (QISKIT_MODULES.includes(module)) return { kind: 'module', path: 'qiskit' } as unknown as PyValue;
    if (EXECUTION_MODULES.some((m) => module === m || module.startsWith(`${m}.`))) return ignored(module);
    return undefined;
  }

  protected importName(module: string, name: string, line: number): PyValue | undefined {
    if (EXECUTION_MODULES.some((m) => module === m || module.startsWith(`${m}.`))) return ignored(`${module}.${name}`);
    if (!QISKIT_MODULES.includes(module)) return undefined;
    return this.qiskitName(name, line);
  }

  private qiskitName(name: string, line: number): PyValue | undefined {
    if (name === 'QuantumCircuit' || name === 'QuantumRegister' || name === 'ClassicalRegister') return { kind: 'builtin', name, call: (a: PyValue[], k: Map<string, PyValue>, l: number) => this.construct(name, a, k, l) } as PyValue;
    if (name in GATE_CLASSES) return { kind: 'gateclass', name } as unknown as GateClass;
    if (EXECUTION_NAMES.has(name)) return ignored(name);
    if (name === 'Parameter' || name === 'ParameterVector') throw unsupported(line, name, 'unbound parameters cannot be simulated or converted; use numbers');
    return undefined;
  }

  protected override moduleAttr(mod: { kind: 'module'; path: string }, name: string, line: number): PyValue {
    if (mod.path === 'qiskit') {
      if (name === 'circuit' || name === 'library') return mod;
      const v = this.qiskitName(name, line);
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
      if (!/^[a-z][A-Za-z0-9_]*$/.test(regName)) throw semanticError(line, `register name '${regName}' must start with a lower-case letter and contain letters, digits and _`);
      return this.register(name === 'QuantumRegister' ? 'qreg' : 'creg', size, regName);
    }
    const qc: CircuitValue = { kind: 'qc', circuit: emptyCircuit(), regs: new Map(), qubitRefs: [], clbitRefs: [] };
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
        case 'draw':
        case 'depth':
        case 'size':
        case 'count_ops':
        case 'width':
        case 'qasm':
        case 'save_statevector':
          return ignored(`QuantumCircuit.${name}`);
      }
      if (name in GATE_METHODS || ['measure', 'measure_all', 'barrier', 'reset', 'append', 'compose', 'add_register', 'inverse', 'copy', 'decompose', 'if_test', 'mcx', 'mcp', 'mct'].includes(name)) {
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
      if (name === 'control') return { kind: 'builtin', name: 'control', call: (a: PyValue[], k: Map<string, PyValue>, l: number) => {
          const n = toInt(a[0] ?? k.get('num_ctrl_qubits') ?? 1, l, 'the number of controls');
          return { ...g, controls: g.controls + n, qubits: g.qubits + n };
        } } as PyValue;
      if (name === 'inverse') return { kind: 'builtin', name: 'inverse', call: () => ({ ...g, inverse: !g.inverse }) } as PyValue;
    }
    throw unsupported(line, `${obj.kind}.${name}`, `attribute ${name} is not part of the supported Qiskit subset`);
  }

  protected override setObjectAttr(obj: PyObject, name: string, value: PyValue, line: number): void {
    if (obj.kind === 'qc' && name === 'global_phase') {
      (obj as unknown as CircuitValue).circuit.globalPhase = toNumber(value, line, 'the global phase');
      this.touch(obj as unknown as CircuitValue);
      return;
    }
    if (obj.kind === 'qc' && name === 'name') return;
    super.setObjectAttr(obj, name, value, line);
  }

  protected override index(obj: PyValue, index: PyValue, line: number): PyValue {
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
        return { kind: 'gate', name: 'x', params: [], qubits: n + 1, controls: n, inverse: false } as unknown as GateValue;
      }
      const [name, nParams, nQubits, extra = 0] = GATE_METHODS[method];
      const params = args.slice(0, nParams).map((a) => toNumber(a, line, `a parameter of ${cls.name}`));
      for (const k of PARAM_KWARGS) if (kwargs.has(k)) params.push(toNumber(kwargs.get(k)!, line));
      if (params.length !== nParams) throw semanticError(line, `${cls.name} takes ${nParams} parameter(s); got ${params.length}`);
      return { kind: 'gate', name, params, qubits: nQubits, controls: extra, inverse: false } as unknown as GateValue;
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
    const ops: Operation[] = [];
    for (let k = 0; k < n; k++) {
      const qubits = specs.map((s) => (s.list ? s.indices[k] : s.indices[0]));
      if (new Set(qubits).size !== qubits.length) throw semanticError(line, `${label} is applied to the same qubit more than once (${qubits.join(', ')})`);
      let gops: GateOp[] = [{ kind: 'gate', name: gate.name, qubits, params: gate.params.map(num), line, ...(gate.controls ? { controls: gate.controls } : {}) }];
      if (gate.inverse) gops = gops.flatMap((g) => inverseGate(qc.circuit, g));
      for (const g of gops) ops.push(this.push(qc, canonicalizeControls(g)));
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
      if (params.length !== nParams) throw semanticError(line, `QuantumCircuit.${m.name} takes ${nParams} parameter(s) before its qubits; got ${params.length}`);
      const gate: GateValue = { kind: 'gate', name, params: params.map((p) => toNumber(p, line, `a parameter of ${m.name}`)), qubits: nQubits, controls: extra, inverse: false };
      return this.applyGate(qc, gate, qargs, line, `QuantumCircuit.${m.name}`);
    }
    switch (m.name) {
      case 'mcx':
      case 'mct':
      case 'mcp': {
        const lam = m.name === 'mcp' ? [toNumber(args.shift() ?? kwargs.get('lam') ?? null, line, 'the phase')] : [];
        const controls = this.bits(qc, args[0] ?? kwargs.get('control_qubits') ?? null, 'q', line).indices;
        const target = args[1] ?? kwargs.get('target_qubit') ?? null;
        const gate: GateValue = { kind: 'gate', name: m.name === 'mcp' ? 'p' : 'x', params: lam, qubits: controls.length + 1, controls: controls.length, inverse: false };
        return this.applyGate(qc, gate, [...controls, target], line, `QuantumCircuit.${m.name}`);
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
        } else if (qc.circuit.numClbits < n) throw semanticError(line, `measure_all(add_bits=False) needs ${n} clbits; the circuit has ${qc.circuit.numClbits}`);
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
        if (!isObject(inst, 'gate')) throw unsupported(line, `append(${typeName(inst)})`, 'append takes a standard gate object (e.g. HGate(), CXGate(), RZGate(0.1)) or a circuit');
        return this.applyGate(qc, inst as unknown as GateValue, qargs, line, 'QuantumCircuit.append');
      }
      case 'compose': {
        const other = args[0] ?? kwargs.get('other') ?? null;
        if (!isObject(other, 'qc')) throw unsupported(line, `compose(${typeName(other)})`, 'compose takes a QuantumCircuit built in the same source');
        if (kwargs.get('front') === true) throw unsupported(line, 'compose(front=True)', 'compose appends at the end only');
        const qubits = args[1] ?? kwargs.get('qubits') ?? null;
        const clbits = args[2] ?? kwargs.get('clbits') ?? null;
        const inplace = kwargs.get('inplace') === true;
        return this.compose(qc, other as unknown as CircuitValue, qubits === null ? undefined : iterate(qubits, line), clbits === null ? undefined : iterate(clbits, line), inplace, line);
      }
      case 'inverse': {
        const copy = this.copy(qc);
        if (qc.circuit.ops.some((op) => op.kind === 'measure' || op.kind === 'reset')) throw semanticError(line, 'a circuit with measurements or resets has no inverse');
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

  private copy(qc: CircuitValue): CircuitValue {
    return {
      kind: 'qc',
      circuit: { ...qc.circuit, qregs: [...qc.circuit.qregs], cregs: [...qc.circuit.cregs], ops: qc.circuit.ops.map((op) => ({ ...op })), definitions: new Map(qc.circuit.definitions) },
      regs: new Map(qc.regs),
      qubitRefs: [...qc.qubitRefs],
      clbitRefs: [...qc.clbitRefs],
    };
  }

  private compose(target: CircuitValue, other: CircuitValue, qubits: PyValue[] | undefined, clbits: PyValue[] | undefined, inplace: boolean, line: number): PyValue {
    checkOperationCount(target.circuit.ops.length + other.circuit.ops.length, line);
    const dest = inplace ? target : this.copy(target);
    const qmap = qubits ? qubits.map((q) => this.bits(dest, q, 'q', line).indices[0]) : Array.from({ length: other.circuit.numQubits }, (_, i) => i);
    const cmap = clbits ? clbits.map((c) => this.bits(dest, c, 'c', line).indices[0]) : Array.from({ length: other.circuit.numClbits }, (_, i) => i);
    if (qmap.length !== other.circuit.numQubits || qmap.some((q) => q >= dest.circuit.numQubits)) {
      throw semanticError(line, `compose: the other circuit has ${other.circuit.numQubits} qubit(s); map them onto this circuit's ${dest.circuit.numQubits} with qubits=[…]`);
    }
    if (cmap.length !== other.circuit.numClbits || cmap.some((c) => c >= dest.circuit.numClbits)) {
      throw semanticError(line, `compose: the other circuit has ${other.circuit.numClbits} clbit(s) but this one has ${dest.circuit.numClbits}`);
    }
    // A copy when composing a circuit onto itself: iterating the array being appended to would never end.
    for (const op of other === dest ? [...other.circuit.ops] : other.circuit.ops) {
      const cond = 'condition' in op && op.condition ? { clbits: op.condition.clbits.map((c) => cmap[c]), value: op.condition.value } : undefined;
      let mapped: Operation;
      if (op.kind === 'gate') mapped = { ...op, qubits: op.qubits.map((q) => qmap[q]) };
      else if (op.kind === 'barrier') mapped = { ...op, qubits: op.qubits.map((q) => qmap[q]) };
      else if (op.kind === 'measure') mapped = { ...op, qubit: qmap[op.qubit], clbit: cmap[op.clbit] };
      else mapped = { ...op, qubit: qmap[op.qubit] };
      if (cond && mapped.kind !== 'barrier') mapped.condition = cond;
      this.push(dest, mapped);
    }
    dest.circuit.globalPhase += other.circuit.globalPhase;
    this.touch(dest);
    return inplace ? null : dest;
  }
}

export { pySlice };
