/**
 * Building Qiskit circuits: the circuit the program last built or changed, registers and bit arguments, appending
 * operations (with broadcasting, powers, open controls and c_if conditions), compose and inverse, Parameters and
 * assign_parameters, and the gates made from circuits, matrices and states (to_gate, control, power, UnitaryGate,
 * StatePreparation). The Python surface that calls these is QiskitEvaluator (qiskit.parser.ts); the library
 * circuits are built with them in qiskit-library.ts.
 */
import { CircuitError, semanticError, unsupported } from '../errors.js';
import { MAX_EXPANDED_OPERATIONS, checkBitCount, checkListLength, checkOperationCount } from '../limits.js';
import {
  addCreg,
  addQreg,
  canonicalizeControls,
  emptyCircuit,
  inverseGate,
  type Circuit,
  type GateDefinition,
  type GateOp,
  type Operation,
} from '../ir/circuit.js';
import { evalExpr, freeNames, num, substitute, type Expr } from '../ir/expr.js';
import { circuitBody, labelStateOps, matrixDefinition, statePreparationDefinition } from './gate-library.js';
import { toMatrix, toVector } from './python-numeric.js';
import { isObject, iterate, toInt, toNumber, typeName, type PyObject, type PyValue } from './python-objects.js';
import { PyDict, PyTuple } from './python-values.js';
import {
  ANGLE_POWER,
  GATE_METHODS,
  builtinControls,
  type BitValue,
  type CircuitValue,
  type GateValue,
  type InstructionSet,
  type MethodValue,
  type ParamValue,
  type ParamVector,
  type RegisterValue,
} from './qiskit-objects.js';
import { PyEvaluator } from './python-eval.js';

/** The circuit-building half of the Qiskit front end; QiskitEvaluator adds the Python surface. */
export abstract class QiskitCircuitBuilder extends PyEvaluator {
  /** The circuit the program last built or changed: the program's circuit unless an entry point returns one. */
  protected last?: CircuitValue;
  protected registerCount = 0;
  private definitionCount = 0;
  /** Library circuits under construction do not count as the program's circuit. */
  private building = 0;

  protected override saveState(): () => void {
    const { last, registerCount } = this;
    return () => {
      this.last = last;
      this.registerCount = registerCount;
    };
  }

  protected touch(qc: CircuitValue): void {
    if (this.building === 0) this.last = qc;
  }

  /**
   * Builds a library circuit (`QFT(3)`): what `make` adds does not count as the program's circuit, the result does
   * if nothing is built after it (`qc = QFT(3)`).
   */
  buildLibraryCircuit(make: () => CircuitValue): CircuitValue {
    this.building++;
    let qc: CircuitValue;
    try {
      qc = make();
    } finally {
      this.building--;
    }
    this.touch(qc);
    return qc;
  }

  // ---- circuits, registers and bits ----
  newCircuit(numQubits: number, name?: string): CircuitValue {
    const qc: CircuitValue = { kind: 'qc', circuit: emptyCircuit(), regs: new Map(), qubitRefs: [], clbitRefs: [], ...(name ? { name } : {}) };
    if (numQubits > 0) this.addRegister(qc, this.register('qreg', numQubits, 'q'), 0);
    return qc;
  }

  protected register(kind: 'qreg' | 'creg', size: number, name: string): RegisterValue {
    checkBitCount(kind === 'qreg' ? 'qubits' : 'clbits', size);
    const reg: RegisterValue = { kind, name, size, iterable: true, items: [] };
    reg.items = Array.from({ length: size }, (_, index) => ({ kind: kind === 'qreg' ? 'qbit' : 'cbit', reg, index }) as unknown as BitValue);
    return reg;
  }

  protected addRegister(qc: CircuitValue, reg: PyValue, line: number): void {
    if (!isObject(reg, 'qreg') && !isObject(reg, 'creg')) throw semanticError(line, `expected a QuantumRegister or ClassicalRegister; got ${typeName(reg)}`);
    const r = reg as unknown as RegisterValue;
    if (qc.regs.has(r)) throw semanticError(line, `register ${r.name} is already in the circuit`);
    if ([...qc.regs.values()].some((x) => x.name === r.name)) throw semanticError(line, `the circuit already has a register named ${r.name}`);
    const irReg = r.kind === 'qreg' ? addQreg(qc.circuit, r.name, r.size) : addCreg(qc.circuit, r.name, r.size);
    qc.regs.set(r, irReg);
    (r.kind === 'qreg' ? qc.qubitRefs : qc.clbitRefs).push(...r.items);
  }

  /** Flat indices a qubit (or clbit) argument names; `list` when it names several (broadcast). */
  protected bits(qc: CircuitValue, spec: PyValue, kind: 'q' | 'c', line: number): { indices: number[]; list: boolean } {
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

  protected copy(qc: CircuitValue): CircuitValue {
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

  // ---- operations ----
  push(qc: CircuitValue, op: Operation): Operation {
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

  applyGate(qc: CircuitValue, gate: GateValue, qargs: PyValue[], line: number, label: string): InstructionSet {
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

  compose(
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

  /** The inverse of a circuit without measurements (reversed, each gate inverted, phase negated). */
  invertCircuit(qc: CircuitValue, line: number): CircuitValue {
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

  // ---- Parameters (bound in code with assign_parameters before the circuit is used) ----
  protected readonly parameterLabels = new Map<string, string>();
  protected readonly parameterValues = new Map<string, ParamValue>();
  /** Qiskit's parameter order: by name, ParameterVector elements by index. */
  private readonly parameterOrder = new Map<string, [string, number]>();

  newParameter(kind: 'Parameter' | 'ParameterVector', args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
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
  protected gateParams(values: PyValue[], line: number, what: string): { params: number[]; symbolic?: Expr[] } {
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
  protected circuitParameters(c: Circuit): string[] {
    const ids = new Set<string>();
    for (const op of c.ops) if (op.kind === 'gate') for (const e of op.params) for (const id of freeNames(e)) if (this.parameterValues.has(id)) ids.add(id);
    return [...ids].sort((x, y) => {
      const [nx, ix] = this.parameterOrder.get(x)!;
      const [ny, iy] = this.parameterOrder.get(y)!;
      return nx === ny ? ix - iy : nx < ny ? -1 : 1;
    });
  }

  /** `assign_parameters({p: value, vector: [values]})` or `assign_parameters([values in circuit.parameters order])`. */
  protected assignParameters(qc: CircuitValue, spec: PyValue, inplace: boolean, line: number): PyValue {
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

  // ---- gates built from circuits, matrices and states ----
  /** A fresh name for a custom definition (`qft_3`): unique in the program, never a standard gate. */
  definitionName(base: string): string {
    const clean =
      base
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .replace(/^[^a-z]+/, '') || 'gate';
    return `${clean}_${++this.definitionCount}`;
  }

  customGate(def: GateDefinition, needs: Map<string, GateDefinition> = new Map()): GateValue {
    return { kind: 'gate', name: def.name, params: [], qubits: def.qubits, controls: 0, inverse: false, defs: new Map([...needs, [def.name, def]]) };
  }

  /** `qc.to_gate()`: a custom gate whose body is the circuit's gates (and its global phase). */
  circuitGate(qc: CircuitValue, label: string | undefined, line: number): GateValue {
    const body = circuitBody(qc.circuit, 'to_gate', line);
    if (qc.circuit.numClbits) throw semanticError(line, 'a circuit with classical bits cannot become a gate (Qiskit refuses it too); build it without clbits');
    return this.customGate(
      { name: this.definitionName(label ?? qc.name ?? 'circuit'), params: [], qubits: qc.circuit.numQubits, body, line },
      qc.circuit.definitions,
    );
  }

  /** A circuit of `gate.qubits` qubits holding only `gate` on all of them (what Qiskit's library circuits are). */
  gateCircuit(gate: GateValue, line: number, name?: string): CircuitValue {
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

  /** A ctrl_state (int or bit string, bit i = control i) over `k` controls. */
  protected ctrlState(v: PyValue | undefined, k: number, line: number): number {
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
  controlGate(g: GateValue, k: number, state: PyValue | undefined, line: number): GateValue {
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
  protected powerGate(g: GateValue, k: number, line: number): GateValue {
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
  unitaryGate(data: PyValue, label: string | undefined, line: number): GateValue {
    if (isObject(data, 'gate')) return data as unknown as GateValue;
    if (isObject(data, 'qc')) return this.circuitGate(data as unknown as CircuitValue, label, line);
    const m = toMatrix(data, line, 'UnitaryGate');
    return this.customGate(matrixDefinition(this.definitionName(label ?? 'unitary'), m, 'UnitaryGate', line));
  }

  /** StatePreparation(params): a vector of amplitudes, a label like '01+-', or an integer basis state. */
  statePreparation(params: PyValue, numQubits: number | undefined, normalize: boolean, inverse: boolean, line: number): GateValue {
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
  asGate(v: PyValue, line: number, what: string): GateValue {
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

  asCircuit(v: PyValue, line: number, what: string): CircuitValue {
    if (isObject(v, 'qc')) return v as unknown as CircuitValue;
    if (isObject(v, 'gate')) return this.gateCircuit(v as unknown as GateValue, line);
    throw semanticError(line, `${what} takes a QuantumCircuit; got ${typeName(v)}`);
  }
}
