/**
 * Which circuit a Python program means (README "Which circuit"): the entry point a request names, called with the
 * arguments it gives (or, for conversion, with free parameters), or the single module-level function that returns a
 * circuit; and the options and JSON arguments of the Python front ends that choose it.
 */
import { CircuitError, semanticError } from '../errors.js';
import type { PyParam, PyStmt } from './python-ast.js';
import { isObject, typeName, type PyFunction, type PyValue } from './python-objects.js';
import { PyDict } from './python-values.js';

/** Options of the Python front ends. */
export interface PythonParseOptions {
  /** The module-level function whose returned circuit is the program's circuit (request field `entry_point`). */
  entryPoint?: string;
  /**
   * Arguments the entry point is called with (request field `entry_point_args`): a JSON array is
   * passed positionally, a JSON object by keyword; numbers, strings, booleans, null, lists and dicts.
   */
  entryPointArgs?: EntryPointArgs;
  /**
   * Keep unbound parameters free (`Circuit.inputs`) instead of refusing them: for conversion and resource
   * counting, never for simulation. An entry point's required arguments that `entryPointArgs` does not give
   * are then bound to symbolic parameters of their own names (Qiskit `Parameter`, sympy `Symbol`).
   */
  freeParameters?: boolean;
}

export type JsonArgument = number | string | boolean | null | JsonArgument[] | { [key: string]: JsonArgument };
export type EntryPointArgs = JsonArgument[] | { [name: string]: JsonArgument };

/** A JSON value as the Python value it stands for (objects become dicts). */
export function pyFromJson(value: JsonArgument): PyValue {
  if (value === null || typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.map(pyFromJson);
  const d = new PyDict();
  for (const [k, v] of Object.entries(value)) d.set(k, pyFromJson(v), 0);
  return d;
}

/** What choosing the entry point needs from the evaluator that ran the module. */
export interface EntryPointHost {
  /** Module-level functions defined in the source, in definition order. */
  functions: PyFunction[];
  /** The value the module binds to `name`. */
  bound(name: string): PyValue | undefined;
  /** Calls a function defined in the source. */
  call(fn: PyFunction, args: PyValue[], kwargs: Map<string, PyValue>): PyValue;
  /** Whether a value is the front end's circuit. */
  isCircuitValue(v: PyValue): boolean;
  /** What a named entry point may return: a circuit, or what the front end wraps into one. */
  isEntryValue(v: PyValue): boolean;
  /** A free parameter for a missing argument; undefined where the front end has none. */
  symbolicArgument(name: string, line: number): PyValue | undefined;
  /** Saves the front end's own state and returns a function that restores it. */
  saveState(): () => void;
}

/**
 * Which circuit the program means (README "Which circuit"): with `entryPoint`, the circuit that
 * function returns; otherwise, when the module built a circuit at top level, undefined (the
 * front end uses that one); otherwise the circuit returned by the single module-level function
 * callable without arguments that returns one. Several → an error listing them.
 */
export function entryCircuit(
  host: EntryPointHost,
  entryPoint: string | undefined,
  builtAtTopLevel: boolean,
  what: string,
  entryArgs?: EntryPointArgs,
  freeParameters = false,
): PyValue | undefined {
  const functions = host.functions;
  const callable = (f: PyFunction) => f.params.every((p) => p.kind === 'varargs' || p.kind === 'varkw' || f.defaults.has(p.name));
  const names = functions.map((f) => `${f.name}()`).join(', ') || 'none';
  if (entryPoint === undefined && entryArgs !== undefined) throw semanticError(undefined, 'entry_point_args needs an entry_point (the function to call)');
  if (entryPoint !== undefined) {
    // The name the module binds (`main = build` makes `main` an entry point too).
    const bound = host.bound(entryPoint);
    const fn = bound !== undefined && isObject(bound, 'function') ? (bound as unknown as PyFunction) : undefined;
    if (!fn) throw semanticError(undefined, `entry_point '${entryPoint}' is not a function defined at module level; functions found: ${names}`);
    const args = Array.isArray(entryArgs) ? entryArgs.map(pyFromJson) : [];
    const kwargs = new Map<string, PyValue>(entryArgs && !Array.isArray(entryArgs) ? Object.entries(entryArgs).map(([k, v]) => [k, pyFromJson(v)]) : []);
    const positional = fn.params.filter((p) => p.kind === 'normal');
    const given = (p: PyParam) => kwargs.has(p.name) || (p.kind === 'normal' && positional.indexOf(p) < args.length);
    const required = fn.params.filter((p) => (p.kind === 'normal' || p.kind === 'kwonly') && !fn.defaults.has(p.name) && !given(p)).map((p) => p.name);
    // Where none are given, the missing arguments are free parameters of their own names (conversion only).
    const needsArguments = (why = '') =>
      semanticError(
        fn.line,
        `entry_point ${fn.name}() needs arguments (${required.join(', ')}); give them with entry_point_args (a JSON list, or an object by name) or give them defaults${why}`,
      );
    const symbols = freeParameters ? required.map((name) => host.symbolicArgument(name, fn.line)) : [];
    const symbolic = freeParameters && required.length > 0 && symbols.every((v) => v !== undefined);
    if (required.length && !symbolic) throw needsArguments();
    if (symbolic) for (const [i, name] of required.entries()) kwargs.set(name, symbols[i]!);
    let value: PyValue;
    try {
      value = host.call(fn, args, kwargs);
    } catch (error) {
      // An argument used as a size, index or flag cannot stay a free parameter: the caller must give it.
      if (symbolic && error instanceof CircuitError) throw needsArguments(` (as free parameters they fail: ${error.message})`);
      throw error;
    }
    if (!host.isEntryValue(value)) throw semanticError(fn.line, `entry_point ${fn.name}() returns ${typeName(value)}, not a ${what}`);
    return value;
  }
  if (builtAtTopLevel) return undefined;
  const candidates = functions.filter((f) => callable(f) && f.body && returnsValue(f.body));
  const found: PyFunction[] = [];
  let firstError: unknown;
  for (const fn of candidates) {
    const restore = host.saveState();
    try {
      if (host.isCircuitValue(host.call(fn, [], new Map()))) found.push(fn);
    } catch (error) {
      if (!(error instanceof CircuitError)) throw error;
      firstError ??= error;
    } finally {
      restore();
    }
  }
  if (found.length > 1) {
    throw semanticError(
      undefined,
      `the source builds no ${what} at top level and several functions return one: ${found.map((f) => `${f.name}()`).join(', ')}; name the one to use with entry_point`,
    );
  }
  if (found.length === 1) return host.call(found[0], [], new Map());
  if (firstError) throw firstError;
  return undefined;
}

/** Whether a function body has `return <value>` (outside nested functions). */
function returnsValue(body: PyStmt[]): boolean {
  return body.some((s) => {
    switch (s.t) {
      case 'return':
        return s.value !== undefined;
      case 'if':
      case 'for':
      case 'while':
        return returnsValue(s.body) || returnsValue(s.orelse);
      case 'with':
        return returnsValue(s.body);
      default:
        return false;
    }
  });
}
