/**
 * Interprets the Python AST over a closed set of values: numbers, strings, lists, tuples, the
 * `math`/`numpy` constants and functions, and the objects a front end defines (circuits,
 * registers, gates). It never runs Python; an unknown name, attribute or call is an error that
 * names its line. Calls that only run or show a circuit (simulators, print, draw) yield an
 * `ignored` value and change nothing.
 */
import { CircuitError, semanticError, unsupported } from '../errors.js';
import { checkListLength } from '../limits.js';
import type { PyArg, PyExpr, PyStmt } from './python-ast.js';

export class PyTuple {
  constructor(readonly items: PyValue[]) {}
}

export interface PyObject {
  kind: string;
}

export type PyValue = number | string | boolean | null | PyValue[] | PyTuple | PyObject;

export interface PyBuiltin extends PyObject {
  kind: 'builtin';
  name: string;
  call: (args: PyValue[], kwargs: Map<string, PyValue>, line: number) => PyValue;
}
export interface PyModule extends PyObject {
  kind: 'module';
  path: string;
}
export interface PyIgnored extends PyObject {
  kind: 'ignored';
  what: string;
}

export const ignored = (what: string): PyIgnored => ({ kind: 'ignored', what });
export const isObject = (v: PyValue, kind?: string): v is PyObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof PyTuple) && (kind === undefined || (v as PyObject).kind === kind);

const MAX_STEPS = 2_000_000;

export function typeName(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyTuple) return 'tuple';
  return (v as PyObject).kind;
}

/** Elements of an iterable value (list, tuple, range result, string). */
export function iterate(v: PyValue, line: number, what = 'value'): PyValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  if (isObject(v) && Array.isArray((v as { items?: unknown }).items) && (v as { iterable?: boolean }).iterable) return (v as unknown as { items: PyValue[] }).items;
  throw semanticError(line, `expected a list, tuple or range for ${what}; got ${typeName(v)}`);
}

export function toNumber(v: PyValue, line: number, what = 'a number'): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isObject(v, 'ignored')) throw unsupported(line, (v as PyIgnored).what, `${(v as PyIgnored).what} produces no value the circuit can use`);
  throw semanticError(line, `expected ${what}; got ${typeName(v)}`);
}

export function toInt(v: PyValue, line: number, what = 'an integer'): number {
  const n = toNumber(v, line, what);
  if (!Number.isInteger(n)) throw semanticError(line, `expected ${what}; got ${n}`);
  return n;
}

const MATH_CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI, inf: Infinity };
const MATH_FUNCTIONS: Record<string, (...x: number[]) => number> = {
  sqrt: Math.sqrt,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  arcsin: Math.asin,
  arccos: Math.acos,
  arctan: Math.atan,
  atan2: Math.atan2,
  arctan2: Math.atan2,
  exp: Math.exp,
  log: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  floor: Math.floor,
  ceil: Math.ceil,
  abs: Math.abs,
  radians: (d) => (d * Math.PI) / 180,
  degrees: (r) => (r * 180) / Math.PI,
  deg2rad: (d) => (d * Math.PI) / 180,
  power: Math.pow,
  pow: Math.pow,
};

export abstract class PyEvaluator {
  protected readonly env = new Map<string, PyValue>();
  private steps = 0;

  constructor() {
    for (const [name, fn] of Object.entries(this.builtins())) this.env.set(name, fn);
  }

  /** The value `import module` binds (undefined: not part of the subset). */
  protected abstract importModule(module: string, line: number): PyValue | undefined;
  /** The value `from module import name` binds. */
  protected abstract importName(module: string, name: string, line: number): PyValue | undefined;
  /** Attribute of a front-end object. */
  protected abstract objectAttr(obj: PyObject, name: string, line: number): PyValue;
  /** Calling a front-end object. */
  protected abstract callObject(obj: PyObject, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue;
  /** Binary operator with a front-end object operand (undefined: not supported). */
  protected objectBinary(_op: string, _a: PyValue, _b: PyValue, _line: number): PyValue | undefined {
    return undefined;
  }
  /** `obj.name = value` on a front-end object. */
  protected setObjectAttr(obj: PyObject, name: string, _value: PyValue, line: number): void {
    throw unsupported(line, `${obj.kind}.${name} = …`, 'setting this attribute is outside the supported subset');
  }
  /** `with item:` blocks (Qiskit's if_test). */
  protected withBlock(item: PyValue, _alias: string | undefined, _body: () => void, line: number): void {
    throw unsupported(line, 'with', `with blocks over ${typeName(item)} are outside the supported subset`);
  }
  /** Attribute of a module (numpy, math, or a front-end module). */
  protected moduleAttr(mod: PyModule, name: string, line: number): PyValue {
    if (mod.path === 'math' || mod.path === 'numpy' || mod.path === 'cmath') {
      if (name in MATH_CONSTANTS) return MATH_CONSTANTS[name];
      if (name in MATH_FUNCTIONS) return this.numericBuiltin(`${mod.path}.${name}`, MATH_FUNCTIONS[name]);
    }
    throw unsupported(line, `${mod.path}.${name}`, `${mod.path}.${name} is not part of the supported subset`);
  }

  protected numericBuiltin(name: string, fn: (...x: number[]) => number): PyBuiltin {
    return { kind: 'builtin', name, call: (args, _kw, line) => fn(...args.map((a) => toNumber(a, line, `an argument of ${name}`))) };
  }

  /** The standard modules every front end understands. */
  protected standardImport(module: string): PyValue | undefined {
    if (module === 'math' || module === 'numpy' || module === 'cmath') return { kind: 'module', path: module } as PyModule;
    return undefined;
  }
  protected standardImportName(module: string, name: string): PyValue | undefined {
    if (module === 'math' || module === 'numpy') {
      if (name in MATH_CONSTANTS) return MATH_CONSTANTS[name];
      if (name in MATH_FUNCTIONS) return this.numericBuiltin(name, MATH_FUNCTIONS[name]);
    }
    return undefined;
  }

  private builtins(): Record<string, PyBuiltin> {
    const b = (name: string, call: PyBuiltin['call']): PyBuiltin => ({ kind: 'builtin', name, call });
    return {
      range: b('range', (args, _kw, line) => {
        const n = args.map((a) => toInt(a, line, 'an integer argument of range'));
        const [start, stop, step] = n.length === 1 ? [0, n[0], 1] : [n[0], n[1], n[2] ?? 1];
        if (step === 0) throw semanticError(line, 'range() step must not be zero');
        const out: number[] = [];
        for (let v = start; step > 0 ? v < stop : v > stop; v += step) {
          out.push(v);
          if (out.length > MAX_STEPS) throw new CircuitError('limit', 'range is too long', line);
        }
        return out;
      }),
      len: b('len', (args, _kw, line) => this.lengthOf(args[0], line)),
      list: b('list', (args, _kw, line) => (args.length ? [...iterate(args[0], line)] : [])),
      tuple: b('tuple', (args, _kw, line) => new PyTuple(args.length ? [...iterate(args[0], line)] : [])),
      int: b('int', (args, _kw, line) => Math.trunc(toNumber(args[0], line))),
      float: b('float', (args, _kw, line) => toNumber(args[0], line)),
      abs: b('abs', (args, _kw, line) => Math.abs(toNumber(args[0], line))),
      round: b('round', (args, _kw, line) => {
        const digits = args.length > 1 ? toInt(args[1], line) : 0;
        const f = 10 ** digits;
        return Math.round(toNumber(args[0], line) * f) / f;
      }),
      min: b('min', (args, _kw, line) => Math.min(...(args.length === 1 ? iterate(args[0], line) : args).map((a) => toNumber(a, line)))),
      max: b('max', (args, _kw, line) => Math.max(...(args.length === 1 ? iterate(args[0], line) : args).map((a) => toNumber(a, line)))),
      sum: b('sum', (args, _kw, line) => iterate(args[0], line).reduce<number>((s, a) => s + toNumber(a, line), 0)),
      pow: b('pow', (args, _kw, line) => toNumber(args[0], line) ** toNumber(args[1], line)),
      enumerate: b('enumerate', (args, _kw, line) => iterate(args[0], line).map((v, i) => new PyTuple([i + (args[1] === undefined ? 0 : toInt(args[1], line)), v]))),
      zip: b('zip', (args, _kw, line) => {
        const lists = args.map((a) => iterate(a, line));
        const n = Math.min(...lists.map((l) => l.length));
        return Array.from({ length: n }, (_, i) => new PyTuple(lists.map((l) => l[i])));
      }),
      reversed: b('reversed', (args, _kw, line) => [...iterate(args[0], line)].reverse()),
      str: b('str', (args) => String(args[0])),
      print: b('print', () => ignored('print')),
      display: b('display', () => ignored('display')),
    };
  }

  protected lengthOf(v: PyValue, line: number): number {
    if (typeof v === 'string') return v.length;
    if (isObject(v) && typeof (v as { size?: unknown }).size === 'number') return (v as unknown as { size: number }).size;
    return iterate(v, line, 'len()').length;
  }

  // ---- statements ----
  run(statements: PyStmt[]): void {
    for (const s of statements) this.exec(s);
  }

  protected tick(line: number): void {
    if (++this.steps > MAX_STEPS) throw new CircuitError('limit', `the program builds more than ${MAX_STEPS} operations`, line);
  }

  protected exec(s: PyStmt): void {
    this.tick(s.line);
    switch (s.t) {
      case 'pass':
        return;
      case 'import': {
        const root = s.module.split('.')[0];
        const value = this.importModule(s.module, s.line) ?? this.standardImport(s.module);
        if (value === undefined) throw unsupported(s.line, `import ${s.module}`, `module ${s.module} is not part of the supported subset`);
        // `import a.b` binds `a`; `import a.b as c` binds c to a.b.
        if (s.alias) this.env.set(s.alias, value);
        else this.env.set(root, s.module === root ? value : (this.importModule(root, s.line) ?? value));
        return;
      }
      case 'from':
        for (const { name, alias } of s.names) {
          if (name === '*') {
            this.importStar(s.module, s.line);
            continue;
          }
          const value = this.importName(s.module, name, s.line) ?? this.standardImportName(s.module, name);
          if (value === undefined) throw unsupported(s.line, `from ${s.module} import ${name}`, `${s.module}.${name} is not part of the supported subset`);
          this.env.set(alias ?? name, value);
        }
        return;
      case 'assign': {
        const value = this.eval(s.value);
        for (const target of s.targets) this.assign(target, value, s.line);
        return;
      }
      case 'augassign': {
        const current = this.eval(s.target);
        const value = this.eval(s.value);
        const result = this.inplace(s.op, current, value, s.line);
        this.assign(s.target, result, s.line);
        return;
      }
      case 'expr':
        this.eval(s.value);
        return;
      case 'for': {
        const items = iterate(this.eval(s.iter), s.line, 'the for loop');
        for (const item of items) {
          this.assign(s.target, item, s.line);
          this.run(s.body);
        }
        return;
      }
      case 'with': {
        const item = this.eval(s.item);
        this.withBlock(item, s.alias, () => this.run(s.body), s.line);
        return;
      }
      case 'ifmain':
        this.run(s.body);
        return;
    }
  }

  protected importStar(module: string, line: number): void {
    throw unsupported(line, `from ${module} import *`, 'import the names you use explicitly');
  }

  protected inplace(op: string, current: PyValue, value: PyValue, line: number): PyValue {
    if (Array.isArray(current) && op === '+') {
      const added = iterate(value, line);
      checkListLength(current.length + added.length, line);
      for (const x of added === current ? [...added] : added) current.push(x);
      return current;
    }
    return this.binary(op, current, value, line);
  }

  protected assign(target: PyExpr, value: PyValue, line: number): void {
    if (target.t === 'name') {
      this.env.set(target.id, value);
      return;
    }
    if (target.t === 'tuple' || target.t === 'list') {
      const items = iterate(value, line, 'unpacking');
      if (items.length !== target.items.length) throw semanticError(line, `cannot unpack ${items.length} values into ${target.items.length} names`);
      target.items.forEach((t, i) => {
        if (t.t === 'star') throw unsupported(line, '*name', 'starred assignment is outside the supported subset');
        this.assign(t, items[i], line);
      });
      return;
    }
    if (target.t === 'attr') {
      const obj = this.eval(target.obj);
      if (isObject(obj) && !isObject(obj, 'module') && !isObject(obj, 'builtin')) {
        if (isObject(obj, 'ignored')) return;
        this.setObjectAttr(obj, target.name, value, line);
        return;
      }
    }
    if (target.t === 'index') {
      const obj = this.eval(target.obj);
      if (Array.isArray(obj) && target.index.t !== 'slice') {
        const i = toInt(this.eval(target.index), line, 'a list index');
        obj[i < 0 ? obj.length + i : i] = value;
        return;
      }
    }
    throw unsupported(line, 'assignment', 'only names, tuples of names and list items can be assigned');
  }

  // ---- expressions ----
  eval(e: PyExpr): PyValue {
    switch (e.t) {
      case 'num':
        return e.v;
      case 'str':
        return e.v;
      case 'const':
        return e.v;
      case 'name': {
        if (!this.env.has(e.id)) throw semanticError(e.line, `name '${e.id}' is not defined (or not part of the supported subset)`);
        return this.env.get(e.id)!;
      }
      case 'attr': {
        const obj = this.eval(e.obj);
        return this.attr(obj, e.name, e.line);
      }
      case 'call': {
        const fn = this.eval(e.fn);
        const args = this.args(e.args);
        const kwargs = new Map(e.kwargs.map((k) => [k.name, this.eval(k.value)]));
        this.tick(e.line);
        return this.call(fn, args, kwargs, e.line);
      }
      case 'index': {
        const obj = this.eval(e.obj);
        if (e.index.t === 'slice') {
          const items = this.sliceable(obj, e.line);
          const lo = e.index.lo ? toInt(this.eval(e.index.lo), e.line) : undefined;
          const hi = e.index.hi ? toInt(this.eval(e.index.hi), e.line) : undefined;
          const step = e.index.step ? toInt(this.eval(e.index.step), e.line) : 1;
          return pySlice(items, lo, hi, step, e.line);
        }
        return this.index(obj, this.eval(e.index), e.line);
      }
      case 'bin':
        return this.binary(e.op, this.eval(e.a), this.eval(e.b), e.line);
      case 'unary': {
        const a = this.eval(e.a);
        if (e.op === '-') {
          if (typeof a === 'number') return -a;
          const r = this.objectBinary('neg', a, null, e.line);
          if (r !== undefined) return r;
        }
        if (e.op === '+') return toNumber(a, e.line);
        throw unsupported(e.line, e.op, `unary ${e.op} on ${typeName(a)} is outside the supported subset`);
      }
      case 'list':
        return this.args(e.items);
      case 'tuple':
        return new PyTuple(this.args(e.items));
      case 'comp': {
        const items = iterate(this.eval(e.iter), e.line, 'the comprehension');
        return items.map((item) => {
          this.assign(e.target, item, e.line);
          return this.eval(e.elt);
        });
      }
      case 'compare':
        throw unsupported(e.line, e.op, 'comparisons are outside the supported subset');
    }
  }

  protected args(items: PyArg[]): PyValue[] {
    const out: PyValue[] = [];
    for (const a of items) {
      if (a.t === 'star') out.push(...iterate(this.eval(a.value), a.line, '*args'));
      else out.push(this.eval(a));
    }
    return out;
  }

  protected sliceable(obj: PyValue, line: number): PyValue[] {
    return iterate(obj, line, 'slicing');
  }

  protected index(obj: PyValue, index: PyValue, line: number): PyValue {
    if (Array.isArray(obj) || obj instanceof PyTuple) {
      const items = Array.isArray(obj) ? obj : obj.items;
      const i = toInt(index, line, 'an index');
      const k = i < 0 ? items.length + i : i;
      if (k < 0 || k >= items.length) throw semanticError(line, `index ${i} is out of range (length ${items.length})`);
      return items[k];
    }
    throw semanticError(line, `${typeName(obj)} cannot be indexed`);
  }

  protected attr(obj: PyValue, name: string, line: number): PyValue {
    if (isObject(obj, 'ignored')) return obj;
    if (isObject(obj, 'module')) return this.moduleAttr(obj as unknown as PyModule, name, line);
    if (Array.isArray(obj) && name === 'append') {
      return {
        kind: 'builtin',
        name: 'list.append',
        call: (args) => {
          obj.push(args[0]);
          return null;
        },
      } as PyBuiltin;
    }
    if (Array.isArray(obj) && name === 'extend') {
      return {
        kind: 'builtin',
        name: 'list.extend',
        call: (args, _kw, l) => {
          obj.push(...iterate(args[0], l));
          return null;
        },
      } as PyBuiltin;
    }
    if (isObject(obj) && !isObject(obj, 'builtin')) return this.objectAttr(obj, name, line);
    throw semanticError(line, `${typeName(obj)} has no attribute '${name}' in the supported subset`);
  }

  protected call(fn: PyValue, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
    if (isObject(fn, 'builtin')) return (fn as PyBuiltin).call(args, kwargs, line);
    if (isObject(fn, 'ignored')) return fn;
    if (isObject(fn)) return this.callObject(fn, args, kwargs, line);
    throw semanticError(line, `${typeName(fn)} is not callable`);
  }

  protected binary(op: string, a: PyValue, b: PyValue, line: number): PyValue {
    if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) {
      const x = Number(a);
      const y = Number(b);
      switch (op) {
        case '+':
          return x + y;
        case '-':
          return x - y;
        case '*':
          return x * y;
        case '/':
          if (y === 0) throw semanticError(line, 'division by zero');
          return x / y;
        case '//':
          if (y === 0) throw semanticError(line, 'division by zero');
          return Math.floor(x / y);
        case '%':
          return x - y * Math.floor(x / y);
        case '**':
          return x ** y;
      }
    }
    if (op === '+' && Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
    if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
    if (op === '*' && Array.isArray(a) && typeof b === 'number') {
      checkListLength(a.length * Math.max(0, b), line);
      return Array.from({ length: Math.max(0, Math.trunc(b)) }, () => a).flat();
    }
    const r = this.objectBinary(op, a, b, line);
    if (r !== undefined) return r;
    throw unsupported(line, op, `${typeName(a)} ${op} ${typeName(b)} is outside the supported subset`);
  }
}

export function pySlice<T>(items: T[], lo: number | undefined, hi: number | undefined, step: number, line: number): T[] {
  if (step === 0) throw semanticError(line, 'slice step cannot be zero');
  const n = items.length;
  const norm = (v: number | undefined, dflt: number) => (v === undefined ? dflt : v < 0 ? Math.max(n + v, step < 0 ? -1 : 0) : Math.min(v, step < 0 ? n - 1 : n));
  const start = norm(lo, step > 0 ? 0 : n - 1);
  const stop = norm(hi, step > 0 ? n : -1);
  const out: T[] = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(items[i]);
  return out;
}
