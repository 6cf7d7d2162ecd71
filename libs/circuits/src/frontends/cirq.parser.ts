/**
 * The Cirq subset: LineQubit (and .range), GridQubit (and .rect/.square), NamedQubit,
 * cirq.Circuit(...), append / +=, Moment, the standard gates and their powers
 * (X**t is e^{iπt/2}·Rx(πt), exactly as Cirq defines XPowGate), rx/ry/rz, XPowGate/YPowGate/
 * ZPowGate/CZPowGate/CXPowGate with exponent and global_shift, .controlled(), .on/.on_each,
 * measure with keys, reset and with_classical_controls. Qubits are numbered in Cirq's sort order.
 */
import { semanticError, unsupported } from '../errors.js';
import { checkBitCount, checkOperationCount } from '../limits.js';
import { addCreg, addQreg, canonicalizeControls, emptyCircuit, inverseGate, type Circuit, type GateOp, type Operation } from '../ir/circuit.js';
import { num } from '../ir/expr.js';
import { parsePython } from './python-ast.js';
import { PyEvaluator, PyTuple, ignored, isObject, iterate, toInt, toNumber, typeName, type PyObject, type PyValue } from './python-eval.js';

type Family = 'X' | 'Y' | 'Z' | 'H' | 'I' | 'SWAP' | 'ISWAP' | 'RX' | 'RY' | 'RZ';

interface QubitValue extends PyObject {
  kind: 'cq';
  label: string;
  sort: (number | string)[];
}
interface GateValue extends PyObject {
  kind: 'cgate';
  family: Family;
  exponent: number;
  /** Rotation angle for RX/RY/RZ. */
  angle: number;
  shift: number;
  controls: number;
  label: string;
}
interface OpValue extends PyObject {
  kind: 'cop';
  gate?: GateValue;
  measureKey?: string;
  reset?: boolean;
  qubits: QubitValue[];
  conditionKey?: string;
  line: number;
}
interface MomentValue extends PyObject {
  kind: 'moment';
  items: OpValue[];
}
interface CircuitValue extends PyObject {
  kind: 'ccircuit';
  items: OpValue[];
}
interface Callable extends PyObject {
  kind: 'callable';
  name: string;
  fn: (args: PyValue[], kwargs: Map<string, PyValue>, line: number) => PyValue;
  attrs?: Record<string, PyValue>;
}

const gate = (family: Family, label: string, controls = 0, exponent = 1, angle = 0, shift = 0): GateValue => ({ kind: 'cgate', family, exponent, angle, shift, controls, label });
const arity = (g: GateValue): number => g.controls + (g.family === 'SWAP' || g.family === 'ISWAP' ? 2 : 1);

const FIXED_GATES: Record<string, GateValue> = {
  H: gate('H', 'H'), X: gate('X', 'X'), Y: gate('Y', 'Y'), Z: gate('Z', 'Z'), I: gate('I', 'I'),
  S: gate('Z', 'S', 0, 0.5), T: gate('Z', 'T', 0, 0.25),
  CNOT: gate('X', 'CNOT', 1), CX: gate('X', 'CX', 1), CZ: gate('Z', 'CZ', 1),
  SWAP: gate('SWAP', 'SWAP'), ISWAP: gate('ISWAP', 'ISWAP'),
  CCX: gate('X', 'CCX', 2), TOFFOLI: gate('X', 'TOFFOLI', 2), CCNOT: gate('X', 'CCNOT', 2), CCZ: gate('Z', 'CCZ', 2),
  CSWAP: gate('SWAP', 'CSWAP', 1), FREDKIN: gate('SWAP', 'FREDKIN', 1),
};
const POW_GATES: Record<string, [Family, number]> = { XPowGate: ['X', 0], YPowGate: ['Y', 0], ZPowGate: ['Z', 0], HPowGate: ['H', 0], CZPowGate: ['Z', 1], CXPowGate: ['X', 1], CNotPowGate: ['X', 1], CCXPowGate: ['X', 2], CCZPowGate: ['Z', 2], SwapPowGate: ['SWAP', 0], ISwapPowGate: ['ISWAP', 0] };
const IGNORED = new Set(['Simulator', 'DensityMatrixSimulator', 'sample', 'unitary', 'final_state_vector', 'plot_state_histogram', 'dirac_notation', 'ResultDict', 'Sampler', 'optimize_for_target_gateset', 'drop_negligible_operations', 'drop_empty_moments', 'InsertStrategy']);

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-12;

export function parseCirq(source: string): Circuit {
  const evaluator = new CirqEvaluator();
  evaluator.run(parsePython(source));
  return evaluator.result();
}

class CirqEvaluator extends PyEvaluator {
  private last?: CircuitValue;
  private readonly qubits = new Map<string, QubitValue>();

  result(): Circuit {
    if (!this.last) throw semanticError(undefined, 'the source builds no cirq.Circuit');
    return this.toIr(this.last);
  }

  protected importModule(module: string): PyValue | undefined {
    if (module === 'cirq' || module === 'cirq_google') return { kind: 'module', path: 'cirq' } as unknown as PyValue;
    if (module === 'matplotlib' || module.startsWith('matplotlib.')) return ignored(module);
    return undefined;
  }

  protected importName(module: string, name: string, line: number): PyValue | undefined {
    if (module === 'cirq') return this.cirqName(name, line);
    if (module === 'matplotlib' || module.startsWith('matplotlib.')) return ignored(name);
    return undefined;
  }

  protected override moduleAttr(mod: { kind: 'module'; path: string }, name: string, line: number): PyValue {
    if (mod.path === 'cirq') {
      const v = this.cirqName(name, line);
      if (v !== undefined) return v;
      throw unsupported(line, `cirq.${name}`, `cirq.${name} is not part of the supported Cirq subset`);
    }
    return super.moduleAttr(mod, name, line);
  }

  private callable(name: string, fn: Callable['fn'], attrs?: Record<string, PyValue>): PyValue {
    return { kind: 'callable', name, fn, attrs } as unknown as PyValue;
  }

  private qubit(label: string, sort: (number | string)[]): QubitValue {
    let q = this.qubits.get(label);
    if (!q) {
      q = { kind: 'cq', label, sort };
      this.qubits.set(label, q);
    }
    return q;
  }

  private cirqName(name: string, line: number): PyValue | undefined {
    if (name in FIXED_GATES) return FIXED_GATES[name] as unknown as PyValue;
    if (IGNORED.has(name)) return ignored(`cirq.${name}`);
    const n = (v: PyValue | undefined, what: string) => toNumber(v ?? null, line, what);
    switch (name) {
      case 'LineQubit':
        return this.callable(
          'LineQubit',
          (a, _k, l) => {
            const x = toInt(a[0] ?? null, l, 'the LineQubit index');
            return this.qubit(`q(${x})`, [0, x]) as unknown as PyValue;
          },
          {
            range: this.callable('LineQubit.range', (a, _k, l) => {
              const v = a.map((x) => toInt(x, l, 'a LineQubit.range argument'));
              const [start, stop, step] = v.length === 1 ? [0, v[0], 1] : [v[0], v[1], v[2] ?? 1];
              if (step !== 0) checkBitCount('qubits', Math.ceil((stop - start) / step), l);
              const out: PyValue[] = [];
              for (let x = start; step > 0 ? x < stop : x > stop; x += step) out.push(this.qubit(`q(${x})`, [0, x]) as unknown as PyValue);
              return out;
            }),
          },
        );
      case 'GridQubit':
        return this.callable(
          'GridQubit',
          (a, _k, l) => {
            const r = toInt(a[0] ?? null, l, 'the GridQubit row');
            const c = toInt(a[1] ?? null, l, 'the GridQubit column');
            return this.qubit(`q(${r}, ${c})`, [1, r, c]) as unknown as PyValue;
          },
          {
            rect: this.callable('GridQubit.rect', (a, k, l) => this.grid(toInt(a[0] ?? k.get('rows') ?? null, l), toInt(a[1] ?? k.get('cols') ?? null, l))),
            square: this.callable('GridQubit.square', (a, k, l) => {
              const d = toInt(a[0] ?? k.get('diameter') ?? null, l);
              return this.grid(d, d);
            }),
          },
        );
      case 'NamedQubit':
        return this.callable(
          'NamedQubit',
          (a, _k, l) => {
            if (typeof a[0] !== 'string') throw semanticError(l, 'NamedQubit takes a name string');
            return this.qubit(a[0], [2, a[0]]) as unknown as PyValue;
          },
          {
            range: this.callable('NamedQubit.range', (a, k, l) => {
              const count = toInt(a[0] ?? null, l);
              checkBitCount('qubits', count, l);
              const prefix = k.get('prefix') ?? a[1];
              if (typeof prefix !== 'string') throw semanticError(l, 'NamedQubit.range needs prefix=...');
              return Array.from({ length: count }, (_, i) => this.qubit(`${prefix}${i}`, [2, `${prefix}${i}`]) as unknown as PyValue);
            }),
          },
        );
      case 'rx':
      case 'ry':
      case 'rz':
      case 'Rx':
      case 'Ry':
      case 'Rz':
        return this.callable(name, (a, k) => gate(name.toUpperCase() as Family, name, 0, 1, n(a[0] ?? k.get('rads'), 'the rotation angle')) as unknown as PyValue);
      case 'measure':
        return this.callable('measure', (a, k, l) => {
          const qs = a.flatMap((x) => (Array.isArray(x) || x instanceof PyTuple ? iterate(x, l) : [x])).map((x) => this.asQubit(x, l));
          if (qs.length === 0) throw semanticError(l, 'cirq.measure needs at least one qubit');
          const key = k.get('key');
          if (key !== undefined && typeof key !== 'string') throw unsupported(l, 'measurement key', 'keys must be strings');
          return { kind: 'cop', measureKey: key ?? qs.map((q) => q.label).join(','), qubits: qs, line: l } as unknown as PyValue;
        });
      case 'measure_each':
        return this.callable('measure_each', (a, _k, l) =>
          a.flatMap((x) => (Array.isArray(x) || x instanceof PyTuple ? iterate(x, l) : [x])).map((x) => {
            const q = this.asQubit(x, l);
            return { kind: 'cop', measureKey: q.label, qubits: [q], line: l } as unknown as PyValue;
          }),
        );
      case 'reset':
        return this.callable('reset', (a, _k, l) => ({ kind: 'cop', reset: true, qubits: [this.asQubit(a[0] ?? null, l)], line: l }) as unknown as PyValue);
      case 'Circuit':
        return this.callable('Circuit', (a, _k, l) => {
          const c: CircuitValue = { kind: 'ccircuit', items: a.flatMap((x) => this.flatten(x, l)) };
          this.last = c;
          return c as unknown as PyValue;
        });
      case 'Moment':
        return this.callable('Moment', (a, _k, l) => ({ kind: 'moment', items: a.flatMap((x) => this.flatten(x, l)) }) as unknown as PyValue);
      case 'inverse':
        return this.callable('inverse', (a, _k, l) => this.power(a[0] ?? null, -1, l));
    }
    if (name in POW_GATES) {
      return this.callable(name, (a, k) => {
        const [family, controls] = POW_GATES[name];
        const exponent = n(a[0] ?? k.get('exponent') ?? 1, 'the exponent');
        const shift = n(k.get('global_shift') ?? 0, 'the global shift');
        return gate(family, name, controls, exponent, 0, shift) as unknown as PyValue;
      });
    }
    return undefined;
  }

  private grid(rows: number, cols: number): PyValue[] {
    checkBitCount('qubits', rows * cols);
    const out: PyValue[] = [];
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out.push(this.qubit(`q(${r}, ${c})`, [1, r, c]) as unknown as PyValue);
    return out;
  }

  private asQubit(v: PyValue, line: number): QubitValue {
    if (isObject(v, 'cq')) return v as unknown as QubitValue;
    throw semanticError(line, `expected a cirq qubit; got ${typeName(v)}`);
  }

  private flatten(v: PyValue, line: number): OpValue[] {
    if (isObject(v, 'cop')) return [v as unknown as OpValue];
    if (isObject(v, 'moment') || isObject(v, 'ccircuit')) return [...(v as unknown as MomentValue).items];
    if (Array.isArray(v) || v instanceof PyTuple) return iterate(v, line).flatMap((x) => this.flatten(x, line));
    if (isObject(v, 'cgate')) throw semanticError(line, `gate ${(v as unknown as GateValue).label} is not applied to qubits (call it: ${(v as unknown as GateValue).label}(q0))`);
    throw semanticError(line, `expected operations, moments or lists of them; got ${typeName(v)}`);
  }

  private apply(g: GateValue, args: PyValue[], line: number): OpValue {
    const qs = args.map((a) => this.asQubit(a, line));
    if (qs.length !== arity(g)) throw semanticError(line, `${g.label} acts on ${arity(g)} qubit(s); got ${qs.length}`);
    if (new Set(qs).size !== qs.length) throw semanticError(line, `${g.label} is applied to the same qubit more than once`);
    return { kind: 'cop', gate: g, qubits: qs, line };
  }

  private power(v: PyValue, t: number, line: number): PyValue {
    if (isObject(v, 'cgate')) {
      const g = v as unknown as GateValue;
      if (g.family === 'RX' || g.family === 'RY' || g.family === 'RZ') return { ...g, angle: g.angle * t } as unknown as PyValue;
      return { ...g, exponent: g.exponent * t, label: `${g.label}**${t}` } as unknown as PyValue;
    }
    if (isObject(v, 'cop') && (v as unknown as OpValue).gate) {
      const op = v as unknown as OpValue;
      return { ...op, gate: this.power(op.gate as unknown as PyValue, t, line) } as unknown as PyValue;
    }
    throw unsupported(line, '**', `${typeName(v)} ** ${t} is outside the supported subset`);
  }

  protected override objectBinary(op: string, a: PyValue, b: PyValue, line: number): PyValue | undefined {
    if (op === '**' && (isObject(a, 'cgate') || isObject(a, 'cop'))) return this.power(a, toNumber(b, line, 'the exponent'), line);
    if (op === '+' && isObject(a, 'ccircuit')) {
      const added = this.flatten(b, line);
      checkOperationCount((a as unknown as CircuitValue).items.length + added.length, line);
      const c: CircuitValue = { kind: 'ccircuit', items: [...(a as unknown as CircuitValue).items, ...added] };
      this.last = c;
      return c as unknown as PyValue;
    }
    return undefined;
  }

  protected override inplace(op: string, current: PyValue, value: PyValue, line: number): PyValue {
    if (op === '+' && isObject(current, 'ccircuit')) {
      const added = this.flatten(value, line);
      checkOperationCount((current as unknown as CircuitValue).items.length + added.length, line);
      for (const x of added) (current as unknown as CircuitValue).items.push(x);
      this.last = current as unknown as CircuitValue;
      return current;
    }
    return super.inplace(op, current, value, line);
  }

  protected objectAttr(obj: PyObject, name: string, line: number): PyValue {
    if (obj.kind === 'callable') {
      const attr = (obj as Callable).attrs?.[name];
      if (attr !== undefined) return attr;
    }
    if (obj.kind === 'cgate') {
      const g = obj as GateValue;
      if (name === 'on') return this.callable('on', (a, _k, l) => this.apply(g, a, l) as unknown as PyValue);
      if (name === 'on_each')
        return this.callable('on_each', (a, _k, l) => {
          if (arity(g) !== 1) throw semanticError(l, 'on_each applies single-qubit gates');
          return a.flatMap((x) => (Array.isArray(x) || x instanceof PyTuple ? iterate(x, l) : [x])).map((x) => this.apply(g, [x], l) as unknown as PyValue);
        });
      if (name === 'controlled')
        return this.callable('controlled', (a, k, l) => {
          const n = toInt(a[0] ?? k.get('num_controls') ?? 1, l, 'the number of controls');
          if (k.has('control_values')) throw unsupported(l, 'control_values', 'only controls on |1⟩ are supported');
          return { ...g, controls: g.controls + n, label: `${g.label}.controlled(${n})` } as unknown as PyValue;
        });
    }
    if (obj.kind === 'cop') {
      const op = obj as OpValue;
      if (name === 'with_classical_controls')
        return this.callable('with_classical_controls', (a, _k, l) => {
          if (a.length !== 1 || typeof a[0] !== 'string') throw unsupported(l, 'with_classical_controls', 'give one measurement key string');
          return { ...op, conditionKey: a[0] } as unknown as PyValue;
        });
      if (name === 'controlled_by')
        return this.callable('controlled_by', (a, _k, l) => {
          if (!op.gate) throw semanticError(l, 'only gate operations can be controlled');
          const cs = a.map((x) => this.asQubit(x, l));
          return { ...op, gate: { ...op.gate, controls: op.gate.controls + cs.length }, qubits: [...cs, ...op.qubits] } as unknown as PyValue;
        });
    }
    if (obj.kind === 'ccircuit') {
      const c = obj as CircuitValue;
      if (name === 'append')
        return this.callable('append', (a, _k, l) => {
          const added = this.flatten(a[0] ?? null, l);
          checkOperationCount(c.items.length + added.length, l);
          for (const x of added) c.items.push(x);
          this.last = c;
          return null;
        });
      if (name === 'all_qubits') return ignored('Circuit.all_qubits');
    }
    if (obj.kind === 'cq' && (name === 'x' || name === 'row' || name === 'col')) {
      const q = obj as QubitValue;
      return (name === 'col' ? q.sort[2] : q.sort[1]) as number;
    }
    throw unsupported(line, `${obj.kind === 'cgate' ? (obj as GateValue).label : obj.kind}.${name}`, `attribute ${name} is not part of the supported Cirq subset`);
  }

  protected callObject(obj: PyObject, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
    if (obj.kind === 'callable') return (obj as Callable).fn(args, kwargs, line);
    if (obj.kind === 'cgate') return this.apply(obj as GateValue, args, line) as unknown as PyValue;
    throw semanticError(line, `${obj.kind} is not callable`);
  }

  /** IR gates of one Cirq gate applied to flat qubit indices (controls first). */
  private gateOps(g: GateValue, qubits: number[], line: number, circuit: Circuit): GateOp[] {
    const t = g.exponent;
    const pi = Math.PI;
    const make = (name: string, params: number[] = [], qs = qubits.slice(g.controls)): GateOp => ({ kind: 'gate', name, qubits: [...qubits.slice(0, g.controls), ...qs], params: params.map(num), line, ...(g.controls ? { controls: g.controls } : {}) });
    const phase = (angle: number): GateOp[] => (near(angle, 0) ? [] : [make('gphase', [angle], [])]);
    let ops: GateOp[];
    switch (g.family) {
      case 'X':
        ops = near(t, 1) ? [make('x')] : near(t, 0.5) ? [make('sx')] : near(t, -0.5) ? [make('sxdg')] : [make('rx', [pi * t]), ...phase((pi * t) / 2)];
        break;
      case 'Y':
        ops = near(t, 1) ? [make('y')] : [make('ry', [pi * t]), ...phase((pi * t) / 2)];
        break;
      case 'Z': {
        const named: [number, string][] = [[1, 'z'], [0.5, 's'], [-0.5, 'sdg'], [0.25, 't'], [-0.25, 'tdg']];
        const hit = named.find(([v]) => near(t, v));
        ops = hit ? [make(hit[1])] : [make('p', [pi * t])];
        break;
      }
      case 'H':
        if (!near(Math.abs(t), 1)) throw unsupported(line, `H**${t}`, 'only H and H**-1 are supported');
        ops = [make('h')];
        break;
      case 'I':
        ops = [make('id')];
        break;
      case 'SWAP':
        if (!near(Math.abs(t), 1)) throw unsupported(line, `SWAP**${t}`, 'only SWAP and SWAP**-1 are supported');
        ops = [make('swap')];
        break;
      case 'ISWAP':
        if (near(t, 1)) ops = [make('iswap')];
        else if (near(t, -1)) ops = inverseGate(circuit, make('iswap'));
        else throw unsupported(line, `ISWAP**${t}`, 'only ISWAP and ISWAP**-1 are supported');
        break;
      case 'RX':
      case 'RY':
      case 'RZ':
        ops = [make(g.family.toLowerCase(), [g.angle])];
        break;
    }
    if (g.shift) ops.push(...phase(pi * t * g.shift));
    return ops.map(canonicalizeControls);
  }

  private toIr(value: CircuitValue): Circuit {
    const c = emptyCircuit();
    const sorted = [...this.qubits.values()].sort((a, b) => compareSort(a.sort, b.sort));
    const index = new Map(sorted.map((q, i) => [q, i]));
    if (sorted.length) addQreg(c, 'q', sorted.length);
    const keys = new Map<string, { offset: number; size: number }>();
    const keyReg = (key: string, size: number, line: number) => {
      let reg = keys.get(key);
      if (!reg) {
        const name = key.replace(/[^A-Za-z0-9_]/g, '_').replace(/^[^A-Za-z]/, 'm$&');
        reg = addCreg(c, /^[A-Za-z]/.test(name) ? name : `m_${name}`, size);
        keys.set(key, reg);
      } else if (reg.size !== size) throw semanticError(line, `measurement key '${key}' is used with ${reg.size} and ${size} qubits`);
      return reg;
    };
    for (const item of value.items) {
      const qubits = item.qubits.map((q) => index.get(q)!);
      let ops: Operation[];
      if (item.measureKey !== undefined) {
        const reg = keyReg(item.measureKey, qubits.length, item.line);
        ops = qubits.map((qubit, i) => ({ kind: 'measure', qubit, clbit: reg.offset + i, line: item.line }));
      } else if (item.reset) ops = [{ kind: 'reset', qubit: qubits[0], line: item.line }];
      else {
        const gops = this.gateOps(item.gate!, qubits, item.line, c);
        ops = [];
        for (const g of gops) {
          if (g.name === 'gphase' && !g.controls) c.globalPhase += g.params[0].k === 'num' ? g.params[0].v : 0;
          else ops.push(g);
        }
      }
      if (item.conditionKey !== undefined) {
        const reg = keys.get(item.conditionKey);
        if (!reg) throw semanticError(item.line, `with_classical_controls: no earlier measurement has key '${item.conditionKey}'`);
        if (reg.size !== 1) throw unsupported(item.line, 'with_classical_controls', 'conditions on multi-qubit measurement keys are outside the supported subset');
        for (const op of ops) if (op.kind !== 'barrier') op.condition = { clbits: [reg.offset], value: 1 };
      }
      c.ops.push(...ops);
    }
    return c;
  }
}

function compareSort(a: (number | string)[], b: (number | string)[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x).localeCompare(String(y), undefined, { numeric: true });
  }
  return 0;
}
