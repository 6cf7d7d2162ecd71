/**
 * The Cirq subset: LineQubit (and .range), GridQubit (and .rect/.square), NamedQubit,
 * cirq.Circuit(...), append / +=, Moment, the standard gates and their powers
 * (X**t is e^{iπt/2}·Rx(πt), exactly as Cirq defines XPowGate), rx/ry/rz, XPowGate/YPowGate/
 * ZPowGate/CZPowGate/CXPowGate with exponent and global_shift, .controlled(), .on/.on_each,
 * measure with keys, reset and with_classical_controls. Qubits are numbered in Cirq's sort order.
 */
import { semanticError, unsupported } from '../errors.js';
import { checkBitCount, checkListLength, checkOperationCount } from '../limits.js';
import {
  addCreg,
  addQreg,
  canonicalizeControls,
  emptyCircuit,
  inputIdentifiers,
  inverseGate,
  type Circuit,
  type GateDefinition,
  type GateOp,
  type Operation,
} from '../ir/circuit.js';
import { matrixDefinition, statePreparationDefinition } from './gate-library.js';
import { NdArray, toMatrix, toVector } from './python-numeric.js';
import { evalExpr, freeNames, num, substitute, type Expr } from '../ir/expr.js';
import { parsePython } from './python-parser.js';
import type { EntryPointArgs, PythonParseOptions } from './python-entry-point.js';
import { PyEvaluator } from './python-eval.js';
import { ignored, isObject, iterate, toInt, toNumber, typeName, type PyObject, type PyValue } from './python-objects.js';
import { PyDict, PyTuple } from './python-values.js';

type Family = 'X' | 'Y' | 'Z' | 'H' | 'I' | 'SWAP' | 'ISWAP' | 'RX' | 'RY' | 'RZ' | 'XX' | 'YY' | 'ZZ' | 'MATRIX';

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
  /** MATRIX: the synthesized definition (little-endian in its arguments; applied to the Cirq qubits reversed). */
  def?: GateDefinition;
  /** Control values: true where control i is open (fires on |0⟩); absent: all closed. */
  open?: boolean[];
  /** StatePreparationChannel: the targets are reset before the preparation. */
  prepare?: true;
  /** RX/RY/RZ with a sympy angle, until cirq.resolve_parameters gives it a value. */
  symAngle?: Expr;
}
/** A sympy Symbol or an expression of Symbols (names are the identity, as in sympy). */
interface SymValue extends PyObject {
  kind: 'sym';
  expr: Expr;
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

const gate = (family: Family, label: string, controls = 0, exponent = 1, angle = 0, shift = 0): GateValue => ({
  kind: 'cgate',
  family,
  exponent,
  angle,
  shift,
  controls,
  label,
});
const TWO_QUBIT: ReadonlySet<Family> = new Set(['SWAP', 'ISWAP', 'XX', 'YY', 'ZZ']);
const arity = (g: GateValue): number => g.controls + (TWO_QUBIT.has(g.family) ? 2 : g.family === 'MATRIX' ? g.def!.qubits : 1);

const FIXED_GATES: Record<string, GateValue> = {
  H: gate('H', 'H'),
  X: gate('X', 'X'),
  Y: gate('Y', 'Y'),
  Z: gate('Z', 'Z'),
  I: gate('I', 'I'),
  S: gate('Z', 'S', 0, 0.5),
  T: gate('Z', 'T', 0, 0.25),
  CNOT: gate('X', 'CNOT', 1),
  CX: gate('X', 'CX', 1),
  CZ: gate('Z', 'CZ', 1),
  SWAP: gate('SWAP', 'SWAP'),
  ISWAP: gate('ISWAP', 'ISWAP'),
  XX: gate('XX', 'XX'),
  YY: gate('YY', 'YY'),
  ZZ: gate('ZZ', 'ZZ'),
  CCX: gate('X', 'CCX', 2),
  TOFFOLI: gate('X', 'TOFFOLI', 2),
  CCNOT: gate('X', 'CCNOT', 2),
  CCZ: gate('Z', 'CCZ', 2),
  CSWAP: gate('SWAP', 'CSWAP', 1),
  FREDKIN: gate('SWAP', 'FREDKIN', 1),
};
const POW_GATES: Record<string, [Family, number]> = {
  XPowGate: ['X', 0],
  YPowGate: ['Y', 0],
  ZPowGate: ['Z', 0],
  HPowGate: ['H', 0],
  CZPowGate: ['Z', 1],
  CXPowGate: ['X', 1],
  CNotPowGate: ['X', 1],
  CCXPowGate: ['X', 2],
  CCZPowGate: ['Z', 2],
  SwapPowGate: ['SWAP', 0],
  ISwapPowGate: ['ISWAP', 0],
  XXPowGate: ['XX', 0],
  YYPowGate: ['YY', 0],
  ZZPowGate: ['ZZ', 0],
};
const IGNORED = new Set([
  'Simulator',
  'DensityMatrixSimulator',
  'sample',
  'unitary',
  'final_state_vector',
  'plot_state_histogram',
  'dirac_notation',
  'ResultDict',
  'Sampler',
  'optimize_for_target_gateset',
  'drop_negligible_operations',
  'drop_empty_moments',
  'InsertStrategy',
]);

const near = (a: number, b: number): boolean => Math.abs(a - b) < 1e-12;

export function parseCirq(source: string, options: PythonParseOptions = {}): Circuit {
  const evaluator = new CirqEvaluator();
  evaluator.run(parsePython(source));
  return evaluator.result(options.entryPoint, options.entryPointArgs, options.freeParameters);
}

class CirqEvaluator extends PyEvaluator {
  private last?: CircuitValue;
  private qubits = new Map<string, QubitValue>();
  /** Numbers the custom definitions of matrix gates (names unique in the program). */
  private definitionCount = 0;

  /** The circuit built at top level (the one last built or appended to), or the one a function returns (README "Which circuit"). */
  result(entryPoint?: string, entryArgs?: EntryPointArgs, freeParameters = false): Circuit {
    const entry = this.entryCircuit(entryPoint, this.last !== undefined, 'cirq.Circuit', entryArgs, freeParameters);
    const circuit = (entry === undefined ? undefined : this.asCircuitValue(entry, entryPoint)) ?? this.last;
    if (!circuit) throw semanticError(undefined, 'the source builds no cirq.Circuit, at top level or in a function that returns one');
    this.keepSymbols = freeParameters;
    const ir = this.toIr(circuit);
    // Kept free (conversion, resources): the Symbols, in order of first use, become the circuit's inputs.
    const symbols = new Set<string>();
    for (const op of ir.ops) if (op.kind === 'gate') for (const e of op.params) freeNames(e, symbols);
    if (!symbols.size) return ir;
    const names = inputIdentifiers([...symbols]);
    const rename = new Map<string, Expr>([...symbols].map((s, i) => [s, { k: 'id', name: names[i] }]));
    const ops = ir.ops.map((op) => (op.kind === 'gate' ? { ...op, params: op.params.map((e) => substitute(e, rename)) } : op));
    return { ...ir, ops, inputs: names };
  }

  /** An entry point may return a gate (`cirq.Gate`, e.g. a `MatrixGate`) or a unitary matrix: it is wrapped in a circuit. */
  protected override isEntryValue(v: PyValue): boolean {
    if (isObject(v, 'ccircuit') || isObject(v, 'cgate')) return true;
    const a = v as unknown;
    return a instanceof NdArray && a.shape.length === 2 && a.shape[0] === a.shape[1] && a.shape[0] >= 2;
  }

  /** The gate (or matrix, as a `MatrixGate`) on `cirq.LineQubit.range(k)`, as `cirq.Circuit(gate.on(*qubits))` would be. */
  private asCircuitValue(v: PyValue, entryPoint = 'the entry point'): CircuitValue {
    if (isObject(v, 'ccircuit')) return v as unknown as CircuitValue;
    const g = isObject(v, 'cgate')
      ? (v as unknown as GateValue)
      : ({
          ...gate('MATRIX', 'MatrixGate'),
          def: matrixDefinition(`matrix_${++this.definitionCount}`, toMatrix(v, 0, `the matrix ${entryPoint}() returns`), 'MatrixGate', 0),
        } as GateValue);
    const qubits = Array.from({ length: arity(g) }, (_, x) => this.qubit(`q(${x})`, [0, x]) as unknown as PyValue);
    return { kind: 'ccircuit', items: [this.apply(g, qubits, 0)] };
  }

  /** Whether unresolved Symbols stay free in the IR (a conversion) or are refused (a simulation). */
  private keepSymbols = false;

  /** An entry point's missing argument, as a sympy Symbol of its name. */
  protected override symbolicArgument(name: string): PyValue {
    return { kind: 'sym', expr: { k: 'id', name } } as unknown as PyValue;
  }

  protected override isCircuitValue(v: PyValue): boolean {
    return isObject(v, 'ccircuit');
  }

  protected override saveState(): () => void {
    const last = this.last;
    const qubits = new Map(this.qubits);
    return () => {
      this.last = last;
      this.qubits = qubits;
    };
  }

  protected importModule(module: string): PyValue | undefined {
    if (module === 'cirq' || module === 'cirq_google') return { kind: 'module', path: 'cirq' } as unknown as PyValue;
    if (module === 'sympy') return { kind: 'module', path: 'sympy' } as unknown as PyValue;
    if (module === 'matplotlib' || module.startsWith('matplotlib.')) return ignored(module);
    return undefined;
  }

  protected importName(module: string, name: string, line: number): PyValue | undefined {
    if (module === 'cirq') return this.cirqName(name, line);
    if (module === 'sympy') return this.sympyName(name);
    if (module === 'matplotlib' || module.startsWith('matplotlib.')) return ignored(name);
    return undefined;
  }

  /** sympy: Symbol, symbols (names split on spaces/commas, `t0:3` ranges) and pi — what parameterised Cirq code uses. */
  private sympyName(name: string): PyValue | undefined {
    const sym = (n: string): PyValue => ({ kind: 'sym', expr: { k: 'id', name: n } }) as unknown as PyValue;
    if (name === 'pi') return Math.PI;
    if (name === 'Symbol')
      return this.callable('Symbol', (a, _k, l) => {
        if (typeof a[0] !== 'string') throw semanticError(l, 'sympy.Symbol takes a name string');
        return sym(a[0]);
      });
    if (name === 'symbols')
      return this.callable('symbols', (a, _k, l) => {
        if (typeof a[0] !== 'string') throw semanticError(l, 'sympy.symbols takes a string of names');
        const names = a[0]
          .split(/[\s,]+/)
          .filter(Boolean)
          .flatMap((part) => {
            const range = /^(.*?)(\d+):(\d+)$/.exec(part);
            if (!range) return [part];
            const [, prefix, lo, hi] = range;
            checkListLength(Number(hi) - Number(lo), l);
            return Array.from({ length: Math.max(0, Number(hi) - Number(lo)) }, (_, i) => `${prefix}${Number(lo) + i}`);
          });
        return names.length === 1 && !a[0].includes(',') && !a[0].includes(':') ? sym(names[0]) : new PyTuple(names.map(sym));
      });
    return undefined;
  }

  /** `cirq.resolve_parameters(circuit, {name or Symbol: value})`: symbolic rotation angles get their values. */
  private resolveParameters(value: PyValue, resolver: PyValue, line: number): PyValue {
    const bindings = new Map<string, Expr>();
    const dict = isObject(resolver, 'resolver') ? (resolver as unknown as { dict: PyValue }).dict : resolver;
    if (!(dict instanceof PyDict)) throw semanticError(line, `resolve_parameters takes a dict or cirq.ParamResolver; got ${typeName(dict)}`);
    for (const key of dict.keys()) {
      const name =
        typeof key === 'string'
          ? key
          : isObject(key, 'sym') && (key as unknown as SymValue).expr.k === 'id'
            ? ((key as unknown as SymValue).expr as { name: string }).name
            : undefined;
      if (name === undefined) throw semanticError(line, `resolve_parameters: keys are symbol names or sympy Symbols; got ${typeName(key)}`);
      bindings.set(name, num(toNumber(dict.get(key, line)!, line, 'a parameter value')));
    }
    const resolveGate = (g: GateValue): GateValue => {
      if (!g.symAngle) return g;
      const e = substitute(g.symAngle, bindings);
      if (freeNames(e).size) return { ...g, symAngle: e };
      // A Z-family gate's angle is its phase π·exponent.
      return g.family === 'Z' ? { ...g, symAngle: undefined, exponent: evalExpr(e) / Math.PI } : { ...g, symAngle: undefined, angle: evalExpr(e) };
    };
    const resolveOp = (op: OpValue): OpValue => (op.gate ? { ...op, gate: resolveGate(op.gate) } : op);
    if (isObject(value, 'cgate')) return resolveGate(value as unknown as GateValue) as unknown as PyValue;
    if (isObject(value, 'cop')) return resolveOp(value as unknown as OpValue) as unknown as PyValue;
    const items = this.flatten(value, line).map(resolveOp);
    if (isObject(value, 'ccircuit')) {
      const c: CircuitValue = { kind: 'ccircuit', items };
      this.last = c;
      return c as unknown as PyValue;
    }
    return { kind: 'moment', items } as unknown as PyValue;
  }

  protected override moduleAttr(mod: { kind: 'module'; path: string }, name: string, line: number): PyValue {
    if (mod.path === 'sympy') {
      const v = this.sympyName(name);
      if (v !== undefined) return v;
      throw unsupported(line, `sympy.${name}`, `sympy.${name} is not part of the supported subset (Symbol, symbols, pi)`);
    }
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
        return this.callable(name, (a, k) => {
          const angle = a[0] ?? k.get('rads');
          if (isObject(angle ?? null, 'sym'))
            return { ...gate(name.toUpperCase() as Family, name), symAngle: (angle as unknown as SymValue).expr } as unknown as PyValue;
          return gate(name.toUpperCase() as Family, name, 0, 1, n(angle, 'the rotation angle')) as unknown as PyValue;
        });
      case 'ParamResolver':
        return this.callable('ParamResolver', (a, k) => ({ kind: 'resolver', dict: a[0] ?? k.get('param_dict') ?? null }) as unknown as PyValue);
      case 'resolve_parameters':
        return this.callable('resolve_parameters', (a, k, l) =>
          this.resolveParameters(a[0] ?? k.get('val') ?? null, a[1] ?? k.get('param_resolver') ?? null, l),
        );
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
          a
            .flatMap((x) => (Array.isArray(x) || x instanceof PyTuple ? iterate(x, l) : [x]))
            .map((x) => {
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
      case 'FrozenCircuit':
        // A frozen circuit is a building block (for CircuitOperation), not the program's circuit.
        return this.callable('FrozenCircuit', (a, _k, l) => ({ kind: 'ccircuit', items: a.flatMap((x) => this.flatten(x, l)) }) as unknown as PyValue);
      case 'CircuitOperation':
        return this.callable('CircuitOperation', (a, k, l) => {
          const sub = a[0] ?? k.get('circuit') ?? null;
          if (!isObject(sub, 'ccircuit')) throw semanticError(l, `CircuitOperation takes a (frozen) cirq circuit; got ${typeName(sub)}`);
          const reps = toInt(a[1] ?? k.get('repetitions') ?? 1, l, 'repetitions');
          for (const key of ['qubit_map', 'measurement_key_map', 'param_resolver', 'repeat_until', 'use_repetition_ids']) {
            if (k.has(key) && key !== 'use_repetition_ids') throw unsupported(l, `CircuitOperation(${key}=…)`, `${key} is outside the supported subset`);
          }
          return this.power(sub, reps, l);
        });
      case 'MatrixGate':
        return this.callable('MatrixGate', (a, k, l) => {
          if (k.has('qid_shape') && k.get('qid_shape') !== null) {
            const dims = iterate(k.get('qid_shape')!, l, 'qid_shape');
            if (dims.some((d) => d !== 2)) throw unsupported(l, 'qid_shape', 'only qubits (dimension 2) are supported');
          }
          const label = k.get('name');
          const base = typeof label === 'string' ? label : 'matrix';
          const def = matrixDefinition(
            `${
              base
                .toLowerCase()
                .replace(/[^a-z0-9_]/g, '_')
                .replace(/^[^a-z]+/, '') || 'matrix'
            }_${++this.definitionCount}`,
            toMatrix(a[0] ?? k.get('matrix') ?? null, l, 'MatrixGate'),
            'MatrixGate',
            l,
          );
          return { ...gate('MATRIX', typeof label === 'string' ? label : 'MatrixGate'), def } as unknown as PyValue;
        });
      case 'qft':
        return this.callable('qft', (a, k, l) => {
          // Cirq's QuantumFourierTransformGate decomposition: H on qubit i, then CZ**(1/2^(j−i)) from each later
          // qubit j, then the reversal swaps; the first qubit is the most significant bit.
          const qs = a.flatMap((x) => (Array.isArray(x) || x instanceof PyTuple ? iterate(x, l) : [x])).map((x) => this.asQubit(x, l));
          if (qs.length === 0) throw semanticError(l, 'cirq.qft needs at least one qubit');
          const n = qs.length;
          checkListLength((n * (n + 1)) / 2, l);
          const ops: OpValue[] = [];
          for (let i = 0; i < n; i++) {
            ops.push({ kind: 'cop', gate: FIXED_GATES.H, qubits: [qs[i]], line: l });
            for (let j = i + 1; j < n; j++)
              ops.push({ kind: 'cop', gate: gate('Z', `CZ**${1 / 2 ** (j - i)}`, 1, 1 / 2 ** (j - i)), qubits: [qs[j], qs[i]], line: l });
          }
          if (k.get('without_reverse') !== true)
            for (let i = 0; i < Math.floor(n / 2); i++) ops.push({ kind: 'cop', gate: FIXED_GATES.SWAP, qubits: [qs[i], qs[n - 1 - i]], line: l });
          const moment = { kind: 'moment', items: ops } as unknown as PyValue;
          return k.get('inverse') === true ? this.power(moment, -1, l) : moment;
        });
      case 'DiagonalGate':
        return this.callable('DiagonalGate', (a, k, l) => {
          const angles = iterate(a[0] ?? k.get('diag_angles_radians') ?? null, l, 'the diagonal angles').map((x) => toNumber(x, l, 'a diagonal angle'));
          const d = angles.length;
          const m = new Float64Array(2 * d * d);
          angles.forEach((t, i) => {
            m[2 * (i * d + i)] = Math.cos(t);
            m[2 * (i * d + i) + 1] = Math.sin(t);
          });
          const def = matrixDefinition(`diagonal_${++this.definitionCount}`, m, 'DiagonalGate', l);
          return { ...gate('MATRIX', 'DiagonalGate'), def } as unknown as PyValue;
        });
      case 'StatePreparationChannel':
        return this.callable('StatePreparationChannel', (a, k, l) => {
          const amplitudes = toVector(a[0] ?? k.get('target_state') ?? null, l, 'the target state');
          // Cirq normalises the target state; its amplitude index is big-endian like MatrixGate's.
          const def = statePreparationDefinition(`state_preparation_${++this.definitionCount}`, amplitudes, true, 'StatePreparationChannel', l);
          return { ...gate('MATRIX', 'StatePreparationChannel'), def, prepare: true } as unknown as PyValue;
        });
      case 'ControlledGate':
        return this.callable('ControlledGate', (a, k, l) => {
          const sub = a[0] ?? k.get('sub_gate') ?? null;
          if (!isObject(sub, 'cgate')) throw semanticError(l, `ControlledGate takes a cirq gate; got ${typeName(sub)}`);
          return this.controlGate(sub as unknown as GateValue, a[1] ?? k.get('num_controls'), a[2] ?? k.get('control_values'), l) as unknown as PyValue;
        });
      case 'Moment':
        return this.callable('Moment', (a, _k, l) => ({ kind: 'moment', items: a.flatMap((x) => this.flatten(x, l)) }) as unknown as PyValue);
      case 'inverse':
        return this.callable('inverse', (a, _k, l) => this.power(a[0] ?? null, -1, l));
      case 'pow':
        return this.callable('pow', (a, _k, l) => this.power(a[0] ?? null, toNumber(a[1] ?? null, l, 'the exponent'), l));
    }
    if (name in POW_GATES) {
      return this.callable(name, (a, k) => {
        const [family, controls] = POW_GATES[name];
        const given = a[0] ?? k.get('exponent') ?? 1;
        const shift = n(k.get('global_shift') ?? 0, 'the global shift');
        // ZPowGate/CZPowGate(exponent=Symbol): the phase gate p(π·t), kept symbolic like rz(Symbol).
        if (isObject(given, 'sym') && family === 'Z' && shift === 0)
          return {
            ...gate(family, name, controls),
            symAngle: { k: 'bin', op: '*', a: { k: 'id', name: 'pi' }, b: (given as unknown as SymValue).expr },
          } as unknown as PyValue;
        const exponent = n(given, 'the exponent');
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
    if (isObject(v, 'cgate'))
      throw semanticError(line, `gate ${(v as unknown as GateValue).label} is not applied to qubits (call it: ${(v as unknown as GateValue).label}(q0))`);
    throw semanticError(line, `expected operations, moments or lists of them; got ${typeName(v)}`);
  }

  private apply(g: GateValue, args: PyValue[], line: number): OpValue {
    const qs = args.map((a) => this.asQubit(a, line));
    if (qs.length !== arity(g)) throw semanticError(line, `${g.label} acts on ${arity(g)} qubit(s); got ${qs.length}`);
    if (new Set(qs).size !== qs.length) throw semanticError(line, `${g.label} is applied to the same qubit more than once`);
    return { kind: 'cop', gate: g, qubits: qs, line };
  }

  private power(v: PyValue, t: number, line: number): PyValue {
    if (isObject(v, 'moment') || isObject(v, 'ccircuit') || Array.isArray(v) || v instanceof PyTuple) {
      // A sequence of operations to an integer power: repeated, reversed and inverted when negative.
      if (!Number.isInteger(t)) throw unsupported(line, '**', `a circuit or list of operations to the power ${t}: only integer powers are defined`);
      const items = this.flatten(v, line);
      checkListLength(Math.abs(t) * items.length, line);
      const unit =
        t < 0
          ? items
              .slice()
              .reverse()
              .map((op) => this.power(op as unknown as PyValue, -1, line) as unknown as OpValue)
          : items;
      const out: OpValue[] = [];
      for (let k = 0; k < Math.abs(t); k++) out.push(...unit);
      if (Array.isArray(v) || v instanceof PyTuple) return out as unknown as PyValue;
      return { kind: isObject(v, 'ccircuit') ? 'ccircuit' : 'moment', items: out } as unknown as PyValue;
    }
    if (isObject(v, 'cop') && !(v as unknown as OpValue).gate)
      throw semanticError(line, `${(v as unknown as OpValue).reset ? 'a reset' : 'a measurement'} has no inverse or power`);
    if (isObject(v, 'cgate')) {
      const g = v as unknown as GateValue;
      if (g.family === 'RX' || g.family === 'RY' || g.family === 'RZ' || g.symAngle)
        return { ...g, angle: g.angle * t, ...(g.symAngle ? { symAngle: { k: 'bin', op: '*', a: g.symAngle, b: num(t) } as Expr } : {}) } as unknown as PyValue;
      return { ...g, exponent: g.exponent * t, label: `${g.label}**${t}` } as unknown as PyValue;
    }
    if (isObject(v, 'cop') && (v as unknown as OpValue).gate) {
      const op = v as unknown as OpValue;
      return { ...op, gate: this.power(op.gate as unknown as PyValue, t, line) } as unknown as PyValue;
    }
    throw unsupported(line, '**', `${typeName(v)} ** ${t} is outside the supported subset`);
  }

  protected override objectBinary(op: string, a: PyValue, b: PyValue, line: number): PyValue | undefined {
    if (isObject(a, 'sym') || isObject(b, 'sym')) {
      if (op === '**' && (isObject(a, 'cgate') || isObject(a, 'cop')))
        throw unsupported(line, '** Symbol', 'symbolic exponents are outside the supported subset; use cirq.rx/ry/rz with a Symbol');
      const expr = (v: PyValue): Expr => (isObject(v, 'sym') ? (v as unknown as SymValue).expr : num(toNumber(v, line, 'a number in a symbolic expression')));
      if (op === 'neg') return { kind: 'sym', expr: { k: 'neg', a: expr(a) } } as unknown as PyValue;
      const ops: Record<string, '+' | '-' | '*' | '/' | '^'> = { '+': '+', '-': '-', '*': '*', '/': '/', '**': '^' };
      if (!ops[op]) throw unsupported(line, op, `${op} on sympy symbols is outside the supported subset`);
      return { kind: 'sym', expr: { k: 'bin', op: ops[op], a: expr(a), b: expr(b) } } as unknown as PyValue;
    }
    if (op === '**' && (isObject(a, 'cgate') || isObject(a, 'cop') || isObject(a, 'ccircuit') || isObject(a, 'moment')))
      return this.power(a, toNumber(b, line, 'the exponent'), line);
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
        return this.callable(
          'controlled',
          (a, k, l) => this.controlGate(g, a[0] ?? k.get('num_controls'), a[1] ?? k.get('control_values'), l) as unknown as PyValue,
        );
      if (name === 'num_qubits') return this.callable('num_qubits', () => arity(g));
    }
    if (obj.kind === 'cop') {
      const op = obj as OpValue;
      if (name === 'with_classical_controls')
        return this.callable('with_classical_controls', (a, _k, l) => {
          if (a.length !== 1 || typeof a[0] !== 'string') throw unsupported(l, 'with_classical_controls', 'give one measurement key string');
          return { ...op, conditionKey: a[0] } as unknown as PyValue;
        });
      if (name === 'controlled_by')
        return this.callable('controlled_by', (a, k, l) => this.controlledBy(op, a, k.get('control_values'), l) as unknown as PyValue);
    }
    if (obj.kind === 'moment' || obj.kind === 'ccircuit') {
      const m = obj as MomentValue;
      if (name === 'controlled_by')
        return this.callable(
          'controlled_by',
          (a, k, l) => ({ kind: 'moment', items: m.items.map((op) => this.controlledBy(op, a, k.get('control_values'), l)) }) as unknown as PyValue,
        );
      if (name === 'repeat')
        return this.callable('repeat', (a, k, l) => this.power(m as unknown as PyValue, toInt(a[0] ?? k.get('repetitions') ?? null, l, 'repetitions'), l));
      if (name === 'freeze' || name === 'unfreeze' || name === 'copy')
        return this.callable(name, () => ({ kind: 'ccircuit', items: [...m.items] }) as unknown as PyValue);
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
    throw unsupported(
      line,
      `${obj.kind === 'cgate' ? (obj as GateValue).label : obj.kind}.${name}`,
      `attribute ${name} is not part of the supported Cirq subset`,
    );
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
    const make = (name: string, params: number[] = [], qs = qubits.slice(g.controls)): GateOp => ({
      kind: 'gate',
      name,
      qubits: [...qubits.slice(0, g.controls), ...qs],
      params: params.map(num),
      line,
      ...(g.controls ? { controls: g.controls } : {}),
    });
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
        const named: [number, string][] = [
          [1, 'z'],
          [0.5, 's'],
          [-0.5, 'sdg'],
          [0.25, 't'],
          [-0.25, 'tdg'],
        ];
        if (g.symAngle) {
          if (!this.keepSymbols)
            throw semanticError(
              line,
              `${g.label} has the unresolved symbolic exponent ${[...freeNames(g.symAngle)].join(', ')}; resolve it with cirq.resolve_parameters(circuit, {...}) in the code, or give the entry point's arguments with entry_point_args`,
            );
          ops = [{ ...make('p'), params: [g.symAngle] }];
          break;
        }
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
        if (g.symAngle && this.keepSymbols) {
          ops = [{ ...make(g.family.toLowerCase()), params: [g.symAngle] }];
          break;
        }
        if (g.symAngle)
          throw semanticError(
            line,
            `${g.label} has the unresolved symbolic angle ${[...freeNames(g.symAngle)].join(', ')}; resolve it with cirq.resolve_parameters(circuit, {...}) in the code, or give the entry point's arguments with entry_point_args`,
          );
        ops = [make(g.family.toLowerCase(), [g.angle])];
        break;
      case 'XX':
      case 'YY':
      case 'ZZ':
        // XX**t = e^{iπt/2}·rxx(πt) (Cirq's eigen-decomposition: eigenvalue e^{iπt} on the −1 eigenspace).
        ops = [make(`r${g.family.toLowerCase()}`, [pi * t]), ...phase((pi * t) / 2)];
        break;
      case 'MATRIX': {
        if (!Number.isInteger(t)) throw unsupported(line, g.label, 'matrix gates take integer powers only');
        checkListLength(Math.abs(t), line);
        // Cirq's matrices are big-endian (first qubit = most significant bit): reverse the targets.
        const one = make(g.def!.name, [], qubits.slice(g.controls).reverse());
        ops = Array.from({ length: Math.abs(t) }, () => ({ ...one, qubits: [...one.qubits] }));
        if (t < 0) ops = ops.flatMap((o) => inverseGate(circuit, o));
        break;
      }
    }
    if (g.shift) ops.push(...phase(pi * t * g.shift));
    // Open controls (control value 0): X before and after on those control qubits.
    const flips = (g.open ?? []).flatMap((open, i): GateOp[] => (open ? [{ kind: 'gate', name: 'x', qubits: [qubits[i]], params: [], line }] : []));
    return [...flips, ...ops, ...flips.map((f) => ({ ...f }))].map(canonicalizeControls);
  }

  /** `gate.controlled(n, control_values)` / `cirq.ControlledGate`: new controls come first. */
  private controlGate(g: GateValue, count: PyValue | undefined, values: PyValue | undefined, line: number): GateValue {
    const open = this.controlValues(values, line);
    const n = count === undefined || count === null ? (open?.length ?? 1) : toInt(count, line, 'the number of controls');
    if (n < 1) throw semanticError(line, `a controlled gate needs at least one control; got ${n}`);
    if (open && open.length !== n) throw semanticError(line, `control_values has ${open.length} entries for ${n} control(s)`);
    const all = [...(open ?? Array<boolean>(n).fill(false)), ...(g.open ?? Array<boolean>(g.controls).fill(false))];
    return { ...g, controls: g.controls + n, label: `${g.label}.controlled(${n})`, ...(all.some((x) => x) ? { open: all } : { open: undefined }) };
  }

  private controlValues(values: PyValue | undefined, line: number): boolean[] | undefined {
    if (values === undefined || values === null) return undefined;
    return iterate(values, line, 'control_values').map((v) => {
      if (v !== 0 && v !== 1 && v !== true && v !== false)
        throw unsupported(line, 'control_values', 'control values are 0 or 1 per control (sums of products are outside the supported subset)');
      return v === 0 || v === false;
    });
  }

  /** `op.controlled_by(*qubits, control_values=…)`: the new control qubits come first. */
  private controlledBy(op: OpValue, args: PyValue[], values: PyValue | undefined, line: number): OpValue {
    if (!op.gate) throw semanticError(line, `${op.reset ? 'a reset' : 'a measurement'} cannot be controlled`);
    const cs = args.flatMap((x) => (Array.isArray(x) || x instanceof PyTuple ? iterate(x, line) : [x])).map((x) => this.asQubit(x, line));
    const g = this.controlGate(op.gate, cs.length, values, line);
    if (new Set([...cs, ...op.qubits]).size !== cs.length + op.qubits.length) throw semanticError(line, 'controlled_by: a control qubit is also a target');
    return { ...op, gate: g, qubits: [...cs, ...op.qubits] };
  }

  private toIr(value: CircuitValue): Circuit {
    const c = emptyCircuit();
    for (const item of value.items) if (item.gate?.def) c.definitions.set(item.gate.def.name, item.gate.def);
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
        if (item.gate!.prepare) {
          if (item.gate!.controls)
            throw unsupported(item.line, 'StatePreparationChannel', 'a state preparation channel resets its qubits and cannot be controlled');
          for (const qubit of qubits) ops.push({ kind: 'reset', qubit, line: item.line });
        }
        for (const g of gops) {
          if (g.name === 'gphase' && !g.controls) c.globalPhase += g.params[0].k === 'num' ? g.params[0].v : 0;
          else ops.push(g);
        }
      }
      if (item.conditionKey !== undefined) {
        const reg = keys.get(item.conditionKey);
        if (!reg) throw semanticError(item.line, `with_classical_controls: no earlier measurement has key '${item.conditionKey}'`);
        if (reg.size !== 1)
          throw unsupported(item.line, 'with_classical_controls', 'conditions on multi-qubit measurement keys are outside the supported subset');
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
