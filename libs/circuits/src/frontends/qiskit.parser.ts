/**
 * The Qiskit subset: QuantumCircuit/QuantumRegister/ClassicalRegister, the standard gate
 * methods, measure/measure_all/barrier/reset, `append` of standard gate objects, `compose` of
 * circuits built in the same source, `c_if` and `with qc.if_test(...)`, loops over ranges and
 * arithmetic with math/numpy. The result is the circuit the program last built or changed.
 *
 * Here: the Python surface (imports, names, attributes, constructors, QuantumCircuit methods). The objects and
 * name tables are in qiskit-objects.ts, circuit building in qiskit-circuit-builder.ts, the library circuits in
 * qiskit-library.ts.
 */
import { semanticError, unsupported } from '../errors.js';
import { emptyCircuit, inputIdentifiers, inverseGate, type Circuit, type Condition, type Operation } from '../ir/circuit.js';
import { substitute, type Expr } from '../ir/expr.js';
import { NdArray } from './python-numeric.js';
import { ignored, isObject, iterate, toInt, toNumber, typeName, type PyObject, type PyValue } from './python-objects.js';
import {
  EXECUTION_MODULES,
  EXECUTION_NAMES,
  GATE_CLASSES,
  GATE_METHODS,
  LIBRARY_NAMES,
  PARAM_KWARGS,
  QISKIT_MODULES,
  QUBIT_KWARGS,
  builtinControls,
  type CircuitValue,
  type GateClass,
  type GateValue,
  type IfTest,
  type InstructionSet,
  type MethodValue,
  type ParamVector,
  type RegisterValue,
} from './qiskit-objects.js';
import type { EntryPointArgs, PythonParseOptions } from './python-entry-point.js';
import { parsePython } from './python-parser.js';
import { QiskitCircuitBuilder } from './qiskit-circuit-builder.js';
import { qiskitLibrary } from './qiskit-library.js';

export function parseQiskit(source: string, options: PythonParseOptions = {}): Circuit {
  const evaluator = new QiskitEvaluator();
  evaluator.run(parsePython(source));
  return evaluator.result(options.entryPoint, options.entryPointArgs, options.freeParameters);
}

/** The Python surface of Qiskit: imports, names, attributes, calls and QuantumCircuit methods. */
class QiskitEvaluator extends QiskitCircuitBuilder {
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

  protected importModule(module: string): PyValue | undefined {
    if (QISKIT_MODULES.includes(module)) return { kind: 'module', path: 'qiskit' } as unknown as PyValue;
    if (EXECUTION_MODULES.some((m) => module === m || module.startsWith(`${m}.`))) return ignored(module);
    return undefined;
  }

  protected importName(module: string, name: string, _line: number): PyValue | undefined {
    if (module === 'qiskit.quantum_info' && name === 'Operator') return qiskitLibrary(this, 'Operator');
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
    if (LIBRARY_NAMES.has(name)) return qiskitLibrary(this, name);
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
}
