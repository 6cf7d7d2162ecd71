/**
 * Interprets the Python AST over a closed set of values: numbers, strings, lists, tuples, dicts,
 * functions defined in the source, the `math`/`numpy` constants and functions, and the objects a
 * front end defines (circuits, registers, gates). It never runs Python; an unknown name,
 * attribute or call is an error that names its line. Calls that only run or show a circuit
 * (simulators, print, draw) yield an `ignored` value and change nothing. Functions, loops and
 * recursion are bounded (MAX_CALL_DEPTH, MAX_LOOP_ITERATIONS, MAX_EVALUATION_STEPS): a program
 * that would exceed them is a `limit` error naming the limit.
 *
 * Here: the evaluator itself (the front-end hooks, scopes, statements, expressions). Its values are in
 * python-objects.ts (object kinds, conversions), python-values.ts (containers and their semantics),
 * python-value-methods.ts (their methods) and python-numeric.ts (complex numbers, numpy); the modules in
 * python-stdlib.ts and python-builtins.ts; which circuit a program means in python-entry-point.ts.
 */
import { CircuitError, semanticError, unsupported } from '../errors.js';
import { MAX_CALL_DEPTH, MAX_EVALUATION_STEPS, MAX_LOOP_ITERATIONS, checkListLength } from '../limits.js';
import type { PyArg, PyExpr, PyIndex, PyParam, PySlice, PyStmt } from './python-ast.js';
import { repeatSequence, standardBuiltins } from './python-builtins.js';
import {
  NdArray,
  PyComplex,
  arrayIndex,
  cmathAttr,
  complexBuiltin,
  numericAbs,
  numericBinary,
  numericNegate,
  numpyAttr,
  realOp,
  setArrayItem,
  valueAttr,
  type IndexPart,
} from './python-numeric.js';
import { entryCircuit, type EntryPointArgs, type EntryPointHost } from './python-entry-point.js';
import {
  Scope,
  isObject,
  iterate,
  toInt,
  toNumber,
  typeName,
  type PyBuiltin,
  type PyFunction,
  type PyModule,
  type PyObject,
  type PyValue,
} from './python-objects.js';
import { MATH_CONSTANTS, MATH_FUNCTIONS, languageModule, languageModuleName } from './python-stdlib.js';
import { valueMethod } from './python-value-methods.js';
import { PyDict, PySet, PyTuple, bitOp, formatSpec, percentFormat, pyCompare, pyEquals, pyRepr, pySlice, pyStr, setOp, truthy } from './python-values.js';

const MAX_STEPS = MAX_EVALUATION_STEPS;

/** `break`, `continue` and `return` unwind the evaluator's JavaScript stack as these signals. */
class BreakSignal {}
class ContinueSignal {}
class ReturnSignal {
  constructor(readonly value: PyValue) {}
}
const BREAK = new BreakSignal();
const CONTINUE = new ContinueSignal();

export abstract class PyEvaluator {
  protected readonly env = new Map<string, PyValue>();
  private steps = 0;

  constructor() {
    for (const [name, fn] of Object.entries(this.builtins())) this.env.set(name, fn);
    this.env.set('__name__', '__main__');
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
    const value = mod.path === 'cmath' ? cmathAttr(name, line) : numpyAttr(mod.path, name);
    if (value !== undefined) return value;
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
    if (module === 'math' || module === 'numpy' || module === 'cmath' || module === 'numpy.linalg' || module === 'scipy' || module === 'scipy.linalg')
      return { kind: 'module', path: module } as PyModule;
    return undefined;
  }

  protected standardImportName(module: string, name: string): PyValue | undefined {
    if (module === 'numpy' || module === 'numpy.linalg' || module === 'cmath' || module === 'scipy' || module === 'scipy.linalg') {
      const value = module === 'cmath' ? cmathAttr(name, 0) : numpyAttr(module, name);
      if (value !== undefined) return value;
    }
    if (module === 'math' || module === 'numpy' || module === 'cmath') {
      if (name in MATH_CONSTANTS) return MATH_CONSTANTS[name];
      if (name in MATH_FUNCTIONS) return this.numericBuiltin(name, MATH_FUNCTIONS[name]);
    }
    return undefined;
  }

  private builtins(): Record<string, PyBuiltin> {
    const standard = standardBuiltins({
      callValue: (fn, args, kwargs, line) => this.call(fn, args, kwargs, line),
      lengthOf: (v, line) => this.lengthOf(v, line),
    });
    const numeric = (v: PyValue): boolean => v instanceof PyComplex || v instanceof NdArray;
    return {
      ...standard,
      // Complex numbers and numpy arrays (python-numeric.ts) for abs, sum and complex().
      abs: { kind: 'builtin', name: 'abs', call: (args, _kw, line) => numericAbs(args[0] ?? null, line) },
      complex: complexBuiltin(),
      sum: {
        kind: 'builtin',
        name: 'sum',
        call: (args, kwargs, line) => {
          const items = iterate(args[0] ?? null, line, 'sum()');
          const start = args[1] ?? kwargs.get('start') ?? 0;
          if (!numeric(start) && !items.some(numeric)) return standard.sum.call(args, kwargs, line);
          return items.reduce<PyValue>((acc, a) => this.binary('+', acc, a, line), start);
        },
      },
    };
  }

  protected lengthOf(v: PyValue, line: number): number {
    if (typeof v === 'string') return v.length;
    if (v instanceof PyDict) return v.size;
    if (isObject(v) && typeof (v as { size?: unknown }).size === 'number') return (v as unknown as { size: number }).size;
    return iterate(v, line, 'len()').length;
  }

  // ---- scopes ----
  private readonly module = new Scope(undefined, this.env);
  private scope = this.module;
  private callDepth = 0;
  /** Values yielded by the generator functions being run, innermost last. */
  private readonly yielded: PyValue[][] = [];

  protected lookup(name: string, line: number): PyValue {
    for (let s: Scope | undefined = this.scope; s; s = s.parent) {
      const v = s.vars.get(name);
      if (v !== undefined || s.vars.has(name)) return v!;
    }
    throw semanticError(line, `name '${name}' is not defined (or not part of the supported subset)`);
  }

  protected setName(name: string, value: PyValue): void {
    const s = this.scope;
    if (s.globals?.has(name)) return void this.module.vars.set(name, value);
    if (s.nonlocals?.has(name)) {
      for (let p = s.parent; p && p !== this.module; p = p.parent) {
        if (p.vars.has(name)) return void p.vars.set(name, value);
      }
    }
    s.vars.set(name, value);
  }

  private deleteName(name: string, line: number): void {
    const s = this.scope.globals?.has(name) ? this.module : this.scope;
    if (!s.vars.delete(name)) throw semanticError(line, `name '${name}' is not defined`);
  }

  // ---- statements ----
  run(statements: PyStmt[]): void {
    for (const s of statements) this.exec(s);
  }

  protected tick(line: number): void {
    if (++this.steps > MAX_STEPS) throw new CircuitError('limit', `the program takes more than ${MAX_STEPS} evaluation steps (the step limit)`, line);
  }

  protected exec(s: PyStmt): void {
    this.tick(s.line);
    switch (s.t) {
      case 'pass':
        return;
      case 'import': {
        const root = s.module.split('.')[0];
        const value = this.importModule(s.module, s.line) ?? this.standardImport(s.module) ?? languageModule(s.module);
        if (value === undefined) throw unsupported(s.line, `import ${s.module}`, `module ${s.module} is not part of the supported subset`);
        // `import a.b` binds `a`; `import a.b as c` binds c to a.b.
        if (s.alias) this.setName(s.alias, value);
        else this.setName(root, s.module === root ? value : (this.importModule(root, s.line) ?? value));
        return;
      }
      case 'from':
        for (const { name, alias } of s.names) {
          if (name === '*') {
            this.importStar(s.module, s.line);
            continue;
          }
          const value = this.importName(s.module, name, s.line) ?? this.standardImportName(s.module, name) ?? languageModuleName(s.module, name, s.line);
          if (value === undefined) throw unsupported(s.line, `from ${s.module} import ${name}`, `${s.module}.${name} is not part of the supported subset`);
          this.setName(alias ?? name, value);
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
        const iterable = this.eval(s.iter);
        // A loop over what only running the circuit gives (counts, results) changes nothing here.
        if (isObject(iterable, 'ignored')) return;
        const items = iterate(iterable, s.line, 'the for loop');
        for (const item of items) {
          this.assign(s.target, item, s.line);
          const flow = this.loopBody(s.body);
          if (flow === BREAK) return;
        }
        this.run(s.orelse);
        return;
      }
      case 'while': {
        let iterations = 0;
        for (;;) {
          const test = this.eval(s.test);
          if (isObject(test, 'ignored') || !truthy(test)) break;
          if (++iterations > MAX_LOOP_ITERATIONS)
            throw new CircuitError('limit', `the while loop runs more than ${MAX_LOOP_ITERATIONS} iterations (the loop iteration limit)`, s.line);
          this.tick(s.line);
          if (this.loopBody(s.body) === BREAK) return;
        }
        this.run(s.orelse);
        return;
      }
      case 'if': {
        const test = this.eval(s.test);
        // A test on what only running the circuit gives (counts, results): neither branch is taken.
        if (isObject(test, 'ignored')) return;
        this.run(truthy(test) ? s.body : s.orelse);
        return;
      }
      case 'with': {
        const item = this.eval(s.item);
        this.withBlock(item, s.alias, () => this.run(s.body), s.line);
        return;
      }
      case 'def':
        this.setName(s.name, this.defineFunction(s.name, s.params, s.line, s.body));
        return;
      case 'return':
        throw new ReturnSignal(s.value ? this.eval(s.value) : null);
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'global':
      case 'nonlocal': {
        if (this.scope === this.module) return;
        if (s.t === 'global') this.scope.globals = new Set([...(this.scope.globals ?? []), ...s.names]);
        else this.scope.nonlocals = new Set([...(this.scope.nonlocals ?? []), ...s.names]);
        return;
      }
      case 'assert': {
        const test = this.eval(s.test);
        if (isObject(test, 'ignored') || truthy(test)) return;
        const message = s.msg ? pyStr(this.eval(s.msg)) : '';
        throw semanticError(s.line, `assertion failed${message ? `: ${message}` : ''}`);
      }
      case 'del':
        for (const t of s.targets) this.del(t, s.line);
        return;
      case 'yield': {
        const out = this.yielded.at(-1)!;
        const value = s.value ? this.eval(s.value) : null;
        if (s.from) out.push(...iterate(value, s.line, 'yield from'));
        else out.push(value);
        checkListLength(out.length, s.line);
        return;
      }
      case 'raise': {
        const exc = s.exc ? this.eval(s.exc) : null;
        const e = exc as { kind?: string; name?: string; message?: string } | null;
        const text = e && e.kind === 'exception' ? `${e.name}${e.message ? `: ${e.message}` : ''}` : e && e.kind === 'builtin' ? e.name : pyStr(exc);
        throw semanticError(s.line, `the program raises ${text}`);
      }
    }
  }

  /** Runs a loop body; `break` and `continue` end it early. */
  private loopBody(body: PyStmt[]): BreakSignal | undefined {
    try {
      this.run(body);
    } catch (signal) {
      if (signal === BREAK) return BREAK;
      if (signal !== CONTINUE) throw signal;
    }
    return undefined;
  }

  private del(target: PyExpr, line: number): void {
    if (target.t === 'name') {
      this.deleteName(target.id, line);
      return;
    }
    if (target.t === 'index' && target.index.t !== 'slice' && target.index.t !== 'multi') {
      const obj = this.eval(target.obj);
      const key = this.eval(target.index);
      if (obj instanceof PyDict) {
        if (!obj.delete(key, line)) throw semanticError(line, `KeyError: ${pyRepr(key)}`);
        return;
      }
      if (Array.isArray(obj)) {
        const i = toInt(key, line, 'a list index');
        const k = i < 0 ? obj.length + i : i;
        if (k < 0 || k >= obj.length) throw semanticError(line, `index ${i} is out of range (length ${obj.length})`);
        obj.splice(k, 1);
        return;
      }
    }
    throw unsupported(line, 'del', 'del takes names, list items and dict keys');
  }

  private defineFunction(name: string, params: PyParam[], line: number, body?: PyStmt[], expr?: PyExpr): PyFunction {
    const defaults = new Map<string, PyValue>();
    for (const p of params) if (p.default) defaults.set(p.name, this.eval(p.default));
    return { kind: 'function', name, params, defaults, body, expr, generator: body ? hasYield(body) : false, closure: this.scope, line };
  }

  /** Calls a function defined in the source: binds the arguments as Python does, runs the body in a new scope. */
  protected callFunction(fn: PyFunction, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
    if (this.callDepth >= MAX_CALL_DEPTH) {
      throw new CircuitError('limit', `calls may be nested at most ${MAX_CALL_DEPTH} deep (the recursion depth limit); ${fn.name}() goes deeper`, line);
    }
    const scope = new Scope(fn.closure);
    const label = `${fn.name}()`;
    const positional = fn.params.filter((p) => p.kind === 'normal');
    const varargs = fn.params.find((p) => p.kind === 'varargs');
    const varkw = fn.params.find((p) => p.kind === 'varkw');
    if (args.length > positional.length && !varargs)
      throw semanticError(line, `${label} takes ${positional.length} positional argument(s) but ${args.length} were given`);
    positional.forEach((p, i) => {
      if (i < args.length) scope.vars.set(p.name, args[i]);
    });
    if (varargs) scope.vars.set(varargs.name, new PyTuple(args.slice(positional.length)));
    const extra = new PyDict();
    for (const [name, value] of kwargs) {
      const p = fn.params.find((q) => q.name === name && (q.kind === 'normal' || q.kind === 'kwonly'));
      if (p) {
        if (scope.vars.has(name)) throw semanticError(line, `${label} got multiple values for argument '${name}'`);
        scope.vars.set(name, value);
      } else if (varkw) extra.set(name, value, line);
      else throw semanticError(line, `${label} got an unexpected keyword argument '${name}'`);
    }
    if (varkw) scope.vars.set(varkw.name, extra);
    for (const p of fn.params) {
      if (p.kind === 'varargs' || p.kind === 'varkw' || scope.vars.has(p.name)) continue;
      if (!fn.defaults.has(p.name)) throw semanticError(line, `${label} is missing the required argument '${p.name}'`);
      scope.vars.set(p.name, fn.defaults.get(p.name)!);
    }
    const saved = this.scope;
    this.scope = scope;
    this.callDepth++;
    if (fn.generator) this.yielded.push([]);
    try {
      if (fn.expr) return this.eval(fn.expr);
      this.run(fn.body ?? []);
      return fn.generator ? this.yielded.at(-1)! : null;
    } catch (signal) {
      if (signal instanceof ReturnSignal) return fn.generator ? this.yielded.at(-1)! : signal.value;
      throw signal;
    } finally {
      this.scope = saved;
      this.callDepth--;
      if (fn.generator) this.yielded.pop();
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
    if (current instanceof PyDict && op === '|' && value instanceof PyDict) {
      for (const [k, v] of value.map.values()) current.set(k, v, line);
      return current;
    }
    return this.binary(op, current, value, line);
  }

  protected assign(target: PyExpr, value: PyValue, line: number): void {
    if (target.t === 'name') {
      this.setName(target.id, value);
      return;
    }
    if ((target.t === 'tuple' || target.t === 'list') && isObject(value, 'ignored')) {
      for (const t of target.items) this.assign(t.t === 'star' ? t.value : t, value, line);
      return;
    }
    if (target.t === 'tuple' || target.t === 'list') {
      const items = iterate(value, line, 'unpacking');
      const star = target.items.findIndex((t) => t.t === 'star');
      if (star < 0) {
        if (items.length !== target.items.length) throw semanticError(line, `cannot unpack ${items.length} values into ${target.items.length} names`);
        target.items.forEach((t, i) => {
          this.assign(t as PyExpr, items[i], line);
        });
        return;
      }
      const after = target.items.length - star - 1;
      if (items.length < target.items.length - 1)
        throw semanticError(line, `cannot unpack ${items.length} values into ${target.items.length - 1} or more names`);
      target.items.forEach((t, i) => {
        if (i < star) this.assign(t as PyExpr, items[i], line);
        else if (i === star) this.assign((t as { value: PyExpr }).value, items.slice(star, items.length - after), line);
        else this.assign(t as PyExpr, items[items.length - (target.items.length - i)], line);
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
      if (obj instanceof NdArray) {
        setArrayItem(obj, this.indexParts(target.index, line), value, line);
        return;
      }
      if (Array.isArray(obj) && target.index.t !== 'slice' && target.index.t !== 'multi') {
        const i = toInt(this.eval(target.index), line, 'a list index');
        const k = i < 0 ? obj.length + i : i;
        if (k < 0 || k >= obj.length) throw semanticError(line, `list assignment index ${i} is out of range (length ${obj.length})`);
        obj[k] = value;
        return;
      }
      if (obj instanceof PyDict && target.index.t !== 'slice' && target.index.t !== 'multi') {
        obj.set(this.eval(target.index), value, line);
        return;
      }
    }
    throw unsupported(line, 'assignment', 'only names, tuples of names, list items and dict keys can be assigned');
  }

  // ---- expressions ----
  eval(e: PyExpr): PyValue {
    switch (e.t) {
      case 'num':
        return e.imag ? new PyComplex(0, e.v) : e.v;
      case 'str':
        return e.v;
      case 'fstr':
        return e.parts
          .map((p) => {
            if (typeof p === 'string') return p;
            const v = this.eval(p.expr);
            const spec = p.spec ? String(this.eval(p.spec)) : '';
            const shown = p.conv === 'r' || p.conv === 'a' ? pyRepr(v) : p.conv === 's' ? pyStr(v) : v;
            return this.formatValue(shown, spec, e.line);
          })
          .join('');
      case 'const':
        return e.v;
      case 'name':
        return this.lookup(e.id, e.line);
      case 'attr': {
        const obj = this.eval(e.obj);
        return this.attr(obj, e.name, e.line);
      }
      case 'call': {
        const fn = this.eval(e.fn);
        const args = this.args(e.args);
        const kwargs = new Map<string, PyValue>();
        for (const k of e.kwargs) {
          const v = this.eval(k.value);
          if (k.name !== '**') {
            kwargs.set(k.name, v);
            continue;
          }
          if (!(v instanceof PyDict)) throw semanticError(e.line, `argument after ** must be a dict; got ${typeName(v)}`);
          for (const [key, value] of v.map.values()) {
            if (typeof key !== 'string') throw semanticError(e.line, 'keywords must be strings');
            kwargs.set(key, value);
          }
        }
        this.tick(e.line);
        return this.call(fn, args, kwargs, e.line);
      }
      case 'index': {
        const obj = this.eval(e.obj);
        if (obj instanceof NdArray) return arrayIndex(obj, this.indexParts(e.index, e.line), e.line);
        if (e.index.t === 'multi') throw semanticError(e.line, `${typeName(obj)} takes one index; a[i, j] indexes numpy arrays`);
        if (e.index.t === 'slice') {
          const lo = e.index.lo ? toInt(this.eval(e.index.lo), e.line) : undefined;
          const hi = e.index.hi ? toInt(this.eval(e.index.hi), e.line) : undefined;
          const step = e.index.step ? toInt(this.eval(e.index.step), e.line) : 1;
          if (typeof obj === 'string') return pySlice([...obj], lo, hi, step, e.line).join('');
          const sliced = pySlice(this.sliceable(obj, e.line), lo, hi, step, e.line);
          return obj instanceof PyTuple ? new PyTuple(sliced) : sliced;
        }
        return this.index(obj, this.eval(e.index), e.line);
      }
      case 'bin':
        return this.binary(e.op, this.eval(e.a), this.eval(e.b), e.line);
      case 'unary': {
        const a = this.eval(e.a);
        if (e.op === 'not') return !truthy(a);
        if (e.op === '-') {
          if (typeof a === 'number' || typeof a === 'boolean') return -Number(a);
          const n = numericNegate(a);
          if (n !== undefined) return n;
          const r = this.objectBinary('neg', a, null, e.line);
          if (r !== undefined) return r;
        }
        if (e.op === '~' && (typeof a === 'number' || typeof a === 'boolean')) return bitOp('^', a, -1, e.line);
        if (e.op === '+') return a instanceof PyComplex || a instanceof NdArray ? a : toNumber(a, e.line);
        throw unsupported(e.line, e.op, `unary ${e.op} on ${typeName(a)} is outside the supported subset`);
      }
      case 'list':
        return this.args(e.items);
      case 'tuple':
        return new PyTuple(this.args(e.items));
      case 'dict': {
        const d = new PyDict();
        for (const entry of e.entries) {
          const value = this.eval(entry.value);
          if (entry.key) d.set(this.eval(entry.key), value, e.line);
          else if (value instanceof PyDict) for (const [k, v] of value.map.values()) d.set(k, v, e.line);
          else throw semanticError(e.line, `'**' in a dict display needs a dict; got ${typeName(value)}`);
        }
        return d;
      }
      case 'set':
        return PySet.of(this.args(e.items), e.line);
      case 'comp':
        return this.comprehension(e);
      case 'compare': {
        let left = this.eval(e.operands[0]);
        for (let i = 0; i < e.ops.length; i++) {
          const right = this.eval(e.operands[i + 1]);
          if (isObject(left, 'ignored')) return left;
          if (isObject(right, 'ignored')) return right;
          if (!this.compare(e.ops[i], left, right, e.line)) return false;
          left = right;
        }
        return true;
      }
      case 'boolop': {
        let v: PyValue = null;
        for (const x of e.values) {
          v = this.eval(x);
          if (e.op === 'and' ? !truthy(v) : truthy(v)) return v;
        }
        return v;
      }
      case 'ifexp': {
        const test = this.eval(e.test);
        if (isObject(test, 'ignored')) return test;
        return truthy(test) ? this.eval(e.body) : this.eval(e.orelse);
      }
      case 'lambda':
        return this.defineFunction('<lambda>', e.params, e.line, undefined, e.body);
    }
  }

  /** The indices of a numpy subscript, evaluated. */
  private indexParts(index: PyIndex, line: number): IndexPart[] {
    const items: (PyExpr | PySlice)[] =
      index.t === 'multi'
        ? index.items
        : index.t === 'tuple'
          ? index.items.map((it) => {
              if (it.t === 'star') throw unsupported(line, '*', 'starred indices are outside the supported subset');
              return it;
            })
          : [index];
    return items.map((it) => {
      if (it.t !== 'slice') return toInt(this.eval(it), line, 'an array index');
      return {
        lo: it.lo ? toInt(this.eval(it.lo), line) : undefined,
        hi: it.hi ? toInt(this.eval(it.hi), line) : undefined,
        step: it.step ? toInt(this.eval(it.step), line) : 1,
      };
    });
  }

  /** List, generator and dict comprehensions, evaluated eagerly in their own scope. */
  private comprehension(e: Extract<PyExpr, { t: 'comp' }>): PyValue {
    const out: PyValue[] = [];
    const dict = e.kind === 'dict' ? new PyDict() : undefined;
    const saved = this.scope;
    this.scope = new Scope(saved);
    try {
      const loop = (g: number): void => {
        if (g === e.generators.length) {
          this.tick(e.line);
          if (dict) dict.set(this.eval(e.elt), this.eval(e.value!), e.line);
          else out.push(this.eval(e.elt)); // bounded by the step limit (one step per element)
          return;
        }
        const gen = e.generators[g];
        for (const item of iterate(this.eval(gen.iter), e.line, 'the comprehension')) {
          this.assign(gen.target, item, e.line);
          if (gen.ifs.every((c) => truthy(this.eval(c)))) loop(g + 1);
        }
      };
      loop(0);
    } finally {
      this.scope = saved;
    }
    return dict ?? (e.kind === 'set' ? PySet.of(out, e.line) : out);
  }

  /** `format(value, spec)` and f-string fields; front ends may format their own objects. */
  protected formatValue(v: PyValue, spec: string, line: number): string {
    return formatSpec(v, spec, line);
  }

  protected compare(op: string, a: PyValue, b: PyValue, line: number): boolean {
    switch (op) {
      case '==':
        return pyEquals(a, b);
      case '!=':
        return !pyEquals(a, b);
      case 'is':
        return a === b || (a === null && b === null);
      case 'is not':
        return !(a === b || (a === null && b === null));
      case 'in':
        return this.contains(b, a, line);
      case 'not in':
        return !this.contains(b, a, line);
    }
    const c = pyCompare(a, b, op, line);
    return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
  }

  protected contains(container: PyValue, item: PyValue, line: number): boolean {
    if (typeof container === 'string') {
      if (typeof item !== 'string') throw semanticError(line, `'in <string>' needs a string on the left; got ${typeName(item)}`);
      return container.includes(item);
    }
    if (container instanceof PyDict) return container.has(item, line);
    return iterate(container, line, "'in'").some((x) => pyEquals(x, item));
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
    if (isObject(obj, 'ignored')) return obj;
    if (Array.isArray(obj) || obj instanceof PyTuple || typeof obj === 'string') {
      const items = Array.isArray(obj) ? obj : obj instanceof PyTuple ? obj.items : obj;
      const i = toInt(index, line, 'an index');
      const k = i < 0 ? items.length + i : i;
      if (k < 0 || k >= items.length) throw semanticError(line, `index ${i} is out of range (length ${items.length})`);
      return items[k];
    }
    if (obj instanceof PyDict) {
      const v = obj.get(index, line);
      if (v === undefined) throw semanticError(line, `KeyError: ${pyRepr(index)} is not in the dict`);
      return v;
    }
    throw semanticError(line, `${typeName(obj)} cannot be indexed`);
  }

  protected attr(obj: PyValue, name: string, line: number): PyValue {
    if (isObject(obj, 'ignored')) return obj;
    if (isObject(obj, 'module')) {
      const language = languageModuleName((obj as unknown as PyModule).path, name, line);
      return language ?? this.moduleAttr(obj as unknown as PyModule, name, line);
    }
    if (obj instanceof PyComplex || obj instanceof NdArray || typeof obj === 'number') {
      const value = valueAttr(obj, name);
      if (value !== undefined) return value;
      if (typeof obj !== 'number') throw semanticError(line, `${typeName(obj)} has no attribute '${name}' in the supported subset`);
    }
    if (
      typeof obj === 'string' ||
      Array.isArray(obj) ||
      obj instanceof PyTuple ||
      obj instanceof PyDict ||
      obj === null ||
      typeof obj === 'number' ||
      typeof obj === 'boolean'
    ) {
      const method = valueMethod(obj, name, line, (fn, args) => this.call(fn, args, new Map(), line));
      if (method) return method;
      throw semanticError(line, `${typeName(obj)} has no attribute '${name}' in the supported subset`);
    }
    if (isObject(obj) && !isObject(obj, 'builtin') && !isObject(obj, 'function')) return this.objectAttr(obj, name, line);
    throw semanticError(line, `${typeName(obj)} has no attribute '${name}' in the supported subset`);
  }

  protected call(fn: PyValue, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue {
    if (isObject(fn, 'builtin')) {
      // Builtins over what only running the circuit gives (max(counts, key=counts.get)) give nothing either.
      for (const a of args) if (isObject(a, 'ignored')) return a;
      if (kwargs.size) for (const a of kwargs.values()) if (isObject(a, 'ignored')) return a;
      return (fn as PyBuiltin).call(args, kwargs, line);
    }
    if (isObject(fn, 'function')) return this.callFunction(fn as unknown as PyFunction, args, kwargs, line);
    if (isObject(fn, 'ignored')) return fn;
    if (isObject(fn)) return this.callObject(fn, args, kwargs, line);
    throw semanticError(line, `${typeName(fn)} is not callable`);
  }

  protected binary(op: string, a: PyValue, b: PyValue, line: number): PyValue {
    if (isObject(a, 'ignored')) return a;
    if (isObject(b, 'ignored')) return b;
    if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) {
      const x = Number(a);
      const y = Number(b);
      if (op === '&' || op === '|' || op === '^' || op === '<<' || op === '>>') return bitOp(op, a, b, line);
      const r = realOp(op, x, y, line);
      if (r !== undefined) return r;
    }
    const numeric = numericBinary(op, a, b, line);
    if (numeric !== undefined) return numeric;
    if (op === '+' && Array.isArray(a) && Array.isArray(b)) {
      checkListLength(a.length + b.length, line);
      return [...a, ...b];
    }
    if (op === '+' && a instanceof PyTuple && b instanceof PyTuple) return new PyTuple([...a.items, ...b.items]);
    if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
    if (op === '*' && (Array.isArray(a) || typeof a === 'string') && (typeof b === 'number' || typeof b === 'boolean'))
      return repeatSequence(a, Number(b), line);
    if (op === '*' && (Array.isArray(b) || typeof b === 'string') && (typeof a === 'number' || typeof a === 'boolean'))
      return repeatSequence(b, Number(a), line);
    if (op === '%' && typeof a === 'string') return percentFormat(a, b, line);
    if (a instanceof PySet && b instanceof PySet && ['|', '&', '-', '^'].includes(op)) return setOp(op, a, b, line);
    if (op === '|' && a instanceof PyDict && b instanceof PyDict) {
      const d = new PyDict();
      for (const src of [a, b]) for (const [k, v] of src.map.values()) d.set(k, v, line);
      return d;
    }
    const r = this.objectBinary(op, a, b, line);
    if (r !== undefined) return r;
    throw unsupported(line, op, `${typeName(a)} ${op} ${typeName(b)} is outside the supported subset`);
  }

  // ---- entry point ----
  /** Module-level functions defined in the source, in definition order. */
  protected moduleFunctions(): PyFunction[] {
    const unique = new Set([...this.env.values()].filter((v) => isObject(v, 'function') && (v as unknown as PyFunction).name !== '<lambda>'));
    return [...unique] as unknown as PyFunction[];
  }

  /** Whether a value is this front end's circuit. */
  protected isCircuitValue(_v: PyValue): boolean {
    return false;
  }

  /** What a named entry point may return: a circuit, or what the front end wraps into one (a gate, a unitary matrix). */
  protected isEntryValue(v: PyValue): boolean {
    return this.isCircuitValue(v);
  }

  /** A free parameter named `name` to pass for an entry point's missing argument; undefined where the front end has none. */
  protected symbolicArgument(_name: string, _line: number): PyValue | undefined {
    return undefined;
  }

  /** Saves the front end's own state (last circuit, counters) and returns a function that restores it. */
  protected saveState(): () => void {
    return () => undefined;
  }

  /** Which circuit the program means (README "Which circuit"; python-entry-point.ts). */
  protected entryCircuit(
    entryPoint: string | undefined,
    builtAtTopLevel: boolean,
    what: string,
    entryArgs?: EntryPointArgs,
    freeParameters = false,
  ): PyValue | undefined {
    const host: EntryPointHost = {
      functions: this.moduleFunctions(),
      bound: (name) => this.env.get(name),
      call: (fn, args, kwargs) => this.callFunction(fn, args, kwargs, fn.line),
      isCircuitValue: (v) => this.isCircuitValue(v),
      isEntryValue: (v) => this.isEntryValue(v),
      symbolicArgument: (name, line) => this.symbolicArgument(name, line),
      saveState: () => this.saveState(),
    };
    return entryCircuit(host, entryPoint, builtAtTopLevel, what, entryArgs, freeParameters);
  }
}

/** Whether a function body has `yield` (outside nested functions). */
function hasYield(body: PyStmt[]): boolean {
  return body.some((s) => {
    switch (s.t) {
      case 'yield':
        return true;
      case 'if':
      case 'for':
      case 'while':
        return hasYield(s.body) || hasYield(s.orelse);
      case 'with':
        return hasYield(s.body);
      default:
        return false;
    }
  });
}
