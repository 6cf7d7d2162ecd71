/**
 * The Python built-in functions of the restricted evaluator (Python library reference, "Built-in
 * Functions"), over its closed value set. Lists are materialised (range, zip, map…), each one
 * bounded by MAX_LIST_LENGTH; nothing here can reach the host.
 */
import { CircuitError, semanticError, unsupported } from '../errors.js';
import { MAX_LIST_LENGTH, checkListLength } from '../limits.js';
import { type PyBuiltin, type PyIterator, type PyValue, ignored, isObject, iterate, toInt, toNumber, typeName } from './python-objects.js';
import { PyDict, PySet, PyTuple, bitInt, formatSpec, pyCompare, pyRepr, pyStr, truthy } from './python-values.js';

export interface BuiltinHost {
  /** Calls any callable value (a builtin, a function from the source, a front-end object). */
  callValue(fn: PyValue, args: PyValue[], kwargs: Map<string, PyValue>, line: number): PyValue;
  lengthOf(v: PyValue, line: number): number;
}

/** Python's round(): halves to even, like round(2.5) == 2. */
function roundHalfEven(x: number, digits: number): number {
  const f = 10 ** digits;
  const y = x * f;
  const r = Math.round(y);
  const exactHalf = Math.abs(y - Math.trunc(y)) === 0.5;
  return (exactHalf && r % 2 !== 0 ? r - 1 : r) / f;
}

function rangeOf(n: number[], line: number): number[] {
  const [start, stop, step] = n.length === 1 ? [0, n[0], 1] : [n[0], n[1], n[2] ?? 1];
  if (n.length === 0 || n.length > 3) throw semanticError(line, `range expected 1 to 3 arguments; got ${n.length}`);
  if (step === 0) throw semanticError(line, 'range() step must not be zero');
  const length = Math.max(0, Math.ceil((stop - start) / step));
  if (length > MAX_LIST_LENGTH)
    throw new CircuitError('limit', `range is too long: a list may have at most ${MAX_LIST_LENGTH} elements; this one would have ${length}`, line);
  return Array.from({ length }, (_, i) => start + i * step);
}

function intOf(args: PyValue[], kwargs: Map<string, PyValue>, line: number): number {
  const v = args[0] ?? 0;
  const baseArg = args[1] ?? kwargs.get('base');
  if (typeof v === 'string') {
    const base = baseArg === undefined ? 10 : toInt(baseArg, line, 'the base');
    let text = v.trim().replace(/_/g, '').toLowerCase();
    const negative = text.startsWith('-');
    if (negative || text.startsWith('+')) text = text.slice(1);
    const prefixes: Record<number, string> = { 2: '0b', 8: '0o', 16: '0x' };
    let b = base;
    if (base === 0) {
      const p = Object.entries(prefixes).find(([, pre]) => text.startsWith(pre));
      b = p ? Number(p[0]) : 10;
    }
    if (prefixes[b] && text.startsWith(prefixes[b])) text = text.slice(2);
    const digits = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, b);
    if (!text || b < 2 || b > 36 || [...text].some((c) => !digits.includes(c)))
      throw semanticError(line, `invalid literal for int() with base ${base}: ${pyRepr(v)}`);
    const n = [...text].reduce((acc, c) => acc * b + digits.indexOf(c), 0);
    if (!Number.isSafeInteger(n)) throw unsupported(line, 'int()', `integers beyond 2**53 are outside the supported subset; got ${pyRepr(v)}`);
    return negative ? -n : n;
  }
  if (baseArg !== undefined) throw semanticError(line, "int() can't convert a non-string with an explicit base");
  const x = toNumber(v, line, 'a number for int()');
  if (!Number.isFinite(x)) throw semanticError(line, `cannot convert ${x} to an integer`);
  return Math.trunc(x);
}

function floatOf(v: PyValue | undefined, line: number): number {
  if (v === undefined) return 0;
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
    if (/^[+-]?nan$/.test(t)) return Number.NaN;
    const n = Number(t.replace(/_/g, ''));
    if (t === '' || Number.isNaN(n)) throw semanticError(line, `could not convert string to float: ${pyRepr(v)}`);
    return n;
  }
  return toNumber(v, line, 'a number for float()');
}

function prefixed(prefix: string, radix: number) {
  return (args: PyValue[], _kw: Map<string, PyValue>, line: number): string => {
    const n = bitInt(args[0] ?? null, line, `${prefix === '0b' ? 'bin' : prefix === '0o' ? 'oct' : 'hex'}()`);
    return `${n < 0n ? '-' : ''}${prefix}${(n < 0n ? -n : n).toString(radix)}`;
  };
}

export function standardBuiltins(host: BuiltinHost): Record<string, PyBuiltin> {
  const b = (name: string, call: PyBuiltin['call']): PyBuiltin => ({ kind: 'builtin', name, call });
  const key = (kwargs: Map<string, PyValue>, line: number) => {
    const fn = kwargs.get('key');
    return fn === undefined || fn === null ? (v: PyValue) => v : (v: PyValue) => host.callValue(fn, [v], new Map(), line);
  };
  const extreme = (name: 'min' | 'max') =>
    b(name, (args, kwargs, line) => {
      const items = args.length === 1 ? iterate(args[0], line, `${name}()`) : args;
      if (items.length === 0) {
        if (kwargs.has('default')) return kwargs.get('default')!;
        throw semanticError(line, `${name}() of an empty sequence`);
      }
      const k = key(kwargs, line);
      let best = items[0];
      let bestKey = k(best);
      for (const item of items.slice(1)) {
        const kv = k(item);
        const c = pyCompare(kv, bestKey, name === 'min' ? '<' : '>', line);
        if (name === 'min' ? c < 0 : c > 0) {
          best = item;
          bestKey = kv;
        }
      }
      return best;
    });
  const exception = (name: string) => b(name, (args) => ({ kind: 'exception', name, message: args.length ? pyStr(args[0]) : '' }) as unknown as PyValue);
  const typeCheck: Record<string, (v: PyValue) => boolean> = {
    int: (v) => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'boolean',
    float: (v) => typeof v === 'number',
    str: (v) => typeof v === 'string',
    bool: (v) => typeof v === 'boolean',
    list: (v) => Array.isArray(v),
    tuple: (v) => v instanceof PyTuple,
    dict: (v) => v instanceof PyDict && !(v instanceof PySet),
    set: (v) => v instanceof PySet,
  };
  const builtins: Record<string, PyBuiltin> = {
    range: b('range', (args, _kw, line) =>
      rangeOf(
        args.map((a) => toInt(a, line, 'an integer argument of range')),
        line,
      ),
    ),
    len: b('len', (args, _kw, line) => host.lengthOf(args[0] ?? null, line)),
    list: b('list', (args, _kw, line) => (args.length ? [...iterate(args[0], line, 'list()')] : [])),
    tuple: b('tuple', (args, _kw, line) => new PyTuple(args.length ? [...iterate(args[0], line, 'tuple()')] : [])),
    dict: b('dict', (args, kwargs, line) => {
      const d = new PyDict();
      if (args[0] instanceof PyDict) for (const [k, v] of args[0].map.values()) d.set(k, v, line);
      else if (args.length)
        for (const item of iterate(args[0], line, 'dict()')) {
          const pair = iterate(item, line, 'a dict() item');
          if (pair.length !== 2) throw semanticError(line, `dict() items must be pairs; got ${pair.length} values`);
          d.set(pair[0], pair[1], line);
        }
      for (const [k, v] of kwargs) d.set(k, v, line);
      return d;
    }),
    set: b('set', (args, _kw, line) => PySet.of(args.length ? iterate(args[0], line, 'set()') : [], line)),
    frozenset: b('frozenset', (args, _kw, line) => PySet.of(args.length ? iterate(args[0], line, 'frozenset()') : [], line)),
    int: b('int', (args, kwargs, line) => intOf(args, kwargs, line)),
    float: b('float', (args, _kw, line) => floatOf(args[0], line)),
    bool: b('bool', (args) => truthy(args[0] ?? false)),
    str: b('str', (args) => (args.length ? pyStr(args[0]) : '')),
    repr: b('repr', (args) => pyRepr(args[0] ?? null)),
    format: b('format', (args, _kw, line) => {
      const spec = args[1] ?? '';
      if (typeof spec !== 'string') throw semanticError(line, `format() spec must be a str; got ${typeName(spec)}`);
      return formatSpec(args[0] ?? null, spec, line);
    }),
    bin: b('bin', prefixed('0b', 2)),
    oct: b('oct', prefixed('0o', 8)),
    hex: b('hex', prefixed('0x', 16)),
    chr: b('chr', (args, _kw, line) => String.fromCodePoint(toInt(args[0] ?? null, line, 'a code point'))),
    ord: b('ord', (args, _kw, line) => {
      const s = args[0];
      if (typeof s !== 'string' || [...s].length !== 1) throw semanticError(line, 'ord() expects a character');
      return s.codePointAt(0)!;
    }),
    abs: b('abs', (args, _kw, line) => Math.abs(toNumber(args[0] ?? null, line))),
    round: b('round', (args, kwargs, line) => {
      const nd = args[1] ?? kwargs.get('ndigits') ?? null;
      const x = toNumber(args[0] ?? null, line);
      return roundHalfEven(x, nd === null ? 0 : toInt(nd, line, 'the number of digits'));
    }),
    divmod: b('divmod', (args, _kw, line) => {
      const x = toNumber(args[0] ?? null, line);
      const y = toNumber(args[1] ?? null, line);
      if (y === 0) throw semanticError(line, 'division by zero');
      return new PyTuple([Math.floor(x / y), x - y * Math.floor(x / y)]);
    }),
    min: extreme('min'),
    max: extreme('max'),
    sum: b('sum', (args, kwargs, line) => {
      const start = args[1] ?? kwargs.get('start') ?? 0;
      return iterate(args[0] ?? null, line, 'sum()').reduce<number>((s, a) => s + toNumber(a, line), toNumber(start, line));
    }),
    pow: b('pow', (args, _kw, line) => {
      if (args.length === 3) {
        let base = bitInt(args[0], line, 'pow()');
        let exp = bitInt(args[1], line, 'pow()');
        const mod = bitInt(args[2], line, 'pow()');
        if (mod === 0n) throw semanticError(line, 'pow() 3rd argument cannot be 0');
        if (exp < 0n) throw unsupported(line, 'pow(a, -b, m)', 'modular inverses are outside the supported subset');
        let r = 1n;
        base = ((base % mod) + mod) % mod;
        while (exp > 0n) {
          if (exp & 1n) r = (r * base) % mod;
          base = (base * base) % mod;
          exp >>= 1n;
        }
        return Number(r);
      }
      return toNumber(args[0] ?? null, line) ** toNumber(args[1] ?? null, line);
    }),
    enumerate: b('enumerate', (args, kwargs, line) => {
      const start = args[1] ?? kwargs.get('start');
      const s = start === undefined ? 0 : toInt(start, line, 'the start of enumerate');
      return iterate(args[0] ?? null, line, 'enumerate()').map((v, i) => new PyTuple([i + s, v]));
    }),
    zip: b('zip', (args, _kw, line) => {
      const lists = args.map((a) => iterate(a, line, 'zip()'));
      const n = lists.length ? Math.min(...lists.map((l) => l.length)) : 0;
      return Array.from({ length: n }, (_, i) => new PyTuple(lists.map((l) => l[i])));
    }),
    iter: b('iter', (args, _kw, line): PyValue => {
      const v = args[0] ?? null;
      if (isObject(v, 'iterator')) return v;
      return { kind: 'iterator', items: [...iterate(v, line, 'iter()')], next: 0 } as PyIterator;
    }),
    next: b('next', (args, _kw, line) => {
      const it = args[0] ?? null;
      if (!isObject(it, 'iterator')) throw semanticError(line, `next() expects an iterator (from iter()); got ${typeName(it)}`);
      const iterator = it as PyIterator;
      if (iterator.next < iterator.items.length) return iterator.items[iterator.next++]!;
      if (args.length > 1) return args[1]!;
      throw semanticError(line, 'next(): the iterator is exhausted (StopIteration)');
    }),
    reversed: b('reversed', (args, _kw, line) => [...iterate(args[0] ?? null, line, 'reversed()')].reverse()),
    sorted: b('sorted', (args, kwargs, line) => {
      const k = key(kwargs, line);
      const keyed = iterate(args[0] ?? null, line, 'sorted()').map((v) => [k(v), v] as const);
      keyed.sort((x, y) => pyCompare(x[0], y[0], '<', line));
      const out = keyed.map((x) => x[1]);
      return truthy(kwargs.get('reverse') ?? false) ? out.reverse() : out;
    }),
    any: b('any', (args, _kw, line) => iterate(args[0] ?? null, line, 'any()').some(truthy)),
    all: b('all', (args, _kw, line) => iterate(args[0] ?? null, line, 'all()').every(truthy)),
    map: b('map', (args, _kw, line) => {
      const lists = args.slice(1).map((a) => iterate(a, line, 'map()'));
      const n = lists.length ? Math.min(...lists.map((l) => l.length)) : 0;
      return Array.from({ length: n }, (_, i) =>
        host.callValue(
          args[0],
          lists.map((l) => l[i]),
          new Map(),
          line,
        ),
      );
    }),
    filter: b('filter', (args, _kw, line) =>
      iterate(args[1] ?? null, line, 'filter()').filter((v) => (args[0] === null ? truthy(v) : truthy(host.callValue(args[0], [v], new Map(), line)))),
    ),
    isinstance: b('isinstance', (args, _kw, line) => {
      const types = args[1] instanceof PyTuple ? args[1].items : [args[1]];
      return types.some((t) => {
        const name = isObject(t ?? null, 'builtin') ? (t as PyBuiltin).name : '';
        if (!(name in typeCheck)) throw unsupported(line, 'isinstance', `isinstance supports ${Object.keys(typeCheck).join(', ')}`);
        return typeCheck[name](args[0] ?? null);
      });
    }),
    print: b('print', () => ignored('print')),
    display: b('display', () => ignored('display')),
  };
  for (const name of [
    'Exception',
    'ValueError',
    'TypeError',
    'IndexError',
    'KeyError',
    'RuntimeError',
    'NotImplementedError',
    'AssertionError',
    'ZeroDivisionError',
  ])
    builtins[name] = exception(name);
  return builtins;
}

/** `[x] * n` and `'ab' * n`, bounded like every list. */
export function repeatSequence(a: PyValue[] | string, n: number, line: number): PyValue[] | string {
  const times = Math.max(0, Math.trunc(n));
  checkListLength(a.length * times, line);
  return typeof a === 'string' ? a.repeat(times) : Array.from({ length: times }, () => a).flat();
}
