/**
 * The values of the restricted Python evaluator: the object kinds every front end shares (builtins, modules,
 * functions from the source, iterators, ignored calls), lexical scopes, and the checked conversions the evaluator
 * and the front ends use to read a value (`typeName`, `iterate`, `toNumber`, `toInt`). Containers and their
 * semantics are in python-values.ts, complex numbers and arrays in python-numeric.ts.
 */
import { semanticError, unsupported } from '../errors.js';
import type { PyExpr, PyParam, PyStmt } from './python-ast.js';
import { NdArray, PyComplex, arrayItems } from './python-numeric.js';
import { PyDict, PySet, PyTuple } from './python-values.js';

export interface PyObject {
  kind: string;
}

export type PyValue = number | string | boolean | null | PyValue[] | PyTuple | PyDict | PyObject;

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

/** A function (or lambda) defined in the source; it closes over the scope it was defined in. */
export interface PyFunction extends PyObject {
  kind: 'function';
  name: string;
  params: PyParam[];
  defaults: Map<string, PyValue>;
  body?: PyStmt[];
  expr?: PyExpr;
  /** A generator function (its body has `yield`): a call runs it to the end and answers the list of yielded values. */
  generator: boolean;
  closure: Scope;
  line: number;
}

export const ignored = (what: string): PyIgnored => ({ kind: 'ignored', what });
export const isObject = (v: PyValue, kind?: string): v is PyObject =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  !(v instanceof PyTuple) &&
  !(v instanceof PyDict) &&
  (kind === undefined || (v as PyObject).kind === kind);

/** A scope: module, function call or comprehension; names resolve through `parent` (lexical scoping). */
export class Scope {
  readonly vars: Map<string, PyValue>;
  globals?: Set<string>;
  nonlocals?: Set<string>;
  constructor(
    readonly parent?: Scope,
    vars?: Map<string, PyValue>,
  ) {
    this.vars = vars ?? new Map();
  }
}

export function typeName(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof PySet) return 'set';
  if (v instanceof PyDict) return 'dict';
  return (v as PyObject).kind;
}

/** Elements of an iterable value (list, tuple, range result, string, dict keys). */
/** What `iter(x)` answers: the items of `x` and how many `next()` has taken; iterating it takes the rest. */
export interface PyIterator extends PyObject {
  kind: 'iterator';
  items: PyValue[];
  next: number;
}

export function iterate(v: PyValue, line: number, what = 'value'): PyValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  if (typeof v === 'string') return [...v];
  if (v instanceof PyDict) return v.keys();
  if (isObject(v) && Array.isArray((v as { items?: unknown }).items) && (v as { iterable?: boolean }).iterable)
    return (v as unknown as { items: PyValue[] }).items;
  if (v instanceof NdArray) return arrayItems(v);
  if (isObject(v, 'iterator')) {
    const it = v as PyIterator;
    const rest = it.items.slice(it.next);
    it.next = it.items.length;
    return rest;
  }
  throw semanticError(line, `expected a list, tuple, str, dict, range or array for ${what}; got ${typeName(v)}`);
}

export function toNumber(v: PyValue, line: number, what = 'a number'): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof PyComplex) {
    if (v.im === 0) return v.re;
    throw semanticError(line, `expected ${what}; got the complex number ${v} (take .real, abs() or cmath.phase())`);
  }
  if (isObject(v, 'ignored')) throw unsupported(line, (v as PyIgnored).what, `${(v as PyIgnored).what} produces no value the circuit can use`);
  throw semanticError(line, `expected ${what}; got ${typeName(v)}`);
}

export function toInt(v: PyValue, line: number, what = 'an integer'): number {
  const n = toNumber(v, line, what);
  if (!Number.isInteger(n)) throw semanticError(line, `expected ${what}; got ${n}`);
  return n;
}
