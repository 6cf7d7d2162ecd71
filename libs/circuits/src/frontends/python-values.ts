/**
 * Python value semantics for the restricted evaluator: dicts, equality and ordering, truth,
 * `str`/`repr`, hashing of dict keys, and string formatting (the format-specification
 * mini-language of `format()`/f-strings/`str.format`, and printf-style `%`), following the
 * Python 3 language reference §6 and the library reference "Format Specification Mini-Language"
 * and "printf-style String Formatting". Integers are JavaScript doubles: exact up to 2**53;
 * bit operations beyond that are refused rather than rounded.
 */
import { semanticError, unsupported } from '../errors.js';
import type { PyObject, PyValue } from './python-objects.js';

export class PyTuple {
  constructor(readonly items: PyValue[]) {}
}

const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

/** A Python dict: insertion-ordered, keyed by value (numbers, strings, None, tuples, front-end objects by identity). */
export class PyDict {
  readonly map = new Map<string, [PyValue, PyValue]>();
  get size(): number {
    return this.map.size;
  }
  has(key: PyValue, line: number): boolean {
    return this.map.has(hashKey(key, line));
  }
  get(key: PyValue, line: number): PyValue | undefined {
    return this.map.get(hashKey(key, line))?.[1];
  }
  set(key: PyValue, value: PyValue, line: number): void {
    const k = hashKey(key, line);
    const old = this.map.get(k);
    if (old) old[1] = value;
    else this.map.set(k, [key, value]);
  }
  delete(key: PyValue, line: number): boolean {
    return this.map.delete(hashKey(key, line));
  }
  keys(): PyValue[] {
    return [...this.map.values()].map((e) => e[0]);
  }
  values(): PyValue[] {
    return [...this.map.values()].map((e) => e[1]);
  }
}

/** A Python set: a PyDict whose values are its keys. */
export class PySet extends PyDict {
  add(v: PyValue, line: number): void {
    this.set(v, v, line);
  }
  static of(items: PyValue[], line: number): PySet {
    const s = new PySet();
    for (const x of items) s.add(x, line);
    return s;
  }
}

export function hashKey(v: PyValue, line: number): string {
  if (v === null) return 'None';
  if (typeof v === 'number') return `n:${v}`;
  if (typeof v === 'boolean') return `n:${v ? 1 : 0}`;
  if (typeof v === 'string') return `s:${v}`;
  if (v instanceof PyTuple) return `t:(${v.items.map((x) => hashKey(x, line)).join(',')})`;
  if (Array.isArray(v) || v instanceof PyDict)
    throw semanticError(line, `unhashable type: '${Array.isArray(v) ? 'list' : v instanceof PySet ? 'set' : 'dict'}' cannot be a dict key or set item`);
  let id = objectIds.get(v as object);
  if (id === undefined) {
    id = nextObjectId++;
    objectIds.set(v as object, id);
  }
  return `o:${id}`;
}

export function truthy(v: PyValue): boolean {
  if (v === null || v === false) return false;
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PyDict) return v.size > 0;
  const sized = v as { size?: unknown };
  if (typeof sized.size === 'number') return sized.size > 0;
  return true;
}

export function pyEquals(a: PyValue, b: PyValue): boolean {
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) return Number(a) === Number(b);
  if (typeof a === 'string' || typeof b === 'string' || a === null || b === null) return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
  if (a instanceof PyTuple && b instanceof PyTuple) return a.items.length === b.items.length && a.items.every((x, i) => pyEquals(x, b.items[i]));
  if (a instanceof PyDict && b instanceof PyDict && a instanceof PySet !== b instanceof PySet) return false;
  if (a instanceof PyDict && b instanceof PyDict)
    return a.size === b.size && [...a.map.entries()].every(([k, [, v]]) => b.map.has(k) && pyEquals(v, b.map.get(k)![1]));
  return a === b;
}

/** `a < b` → negative, 0, positive (numbers, strings, lists and tuples lexicographically). */
export function pyCompare(a: PyValue, b: PyValue, op: string, line: number): number {
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')) return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const seq = (v: PyValue) => (Array.isArray(v) ? v : v instanceof PyTuple ? v.items : undefined);
  const x = seq(a);
  const y = seq(b);
  if (x && y && Array.isArray(a) === Array.isArray(b)) {
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (!pyEquals(x[i], y[i])) return pyCompare(x[i], y[i], op, line);
    }
    return x.length - y.length;
  }
  throw semanticError(line, `'${op}' is not supported between ${kindName(a)} and ${kindName(b)}`);
}

function kindName(v: PyValue): string {
  if (v === null) return 'None';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof PySet) return 'set';
  if (v instanceof PyDict) return 'dict';
  return (v as PyObject).kind;
}

function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const s = String(x);
  // Python writes two-digit exponents (1e-07) and switches to exponents from 1e16.
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

export function pyRepr(v: PyValue): string {
  if (typeof v === 'string') return `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  return pyStr(v, true);
}

export function pyStr(v: PyValue, inner = false): string {
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return floatRepr(v);
  if (typeof v === 'string') return inner ? pyRepr(v) : v;
  if (Array.isArray(v)) return `[${v.map((x) => pyRepr(x)).join(', ')}]`;
  if (v instanceof PyTuple) return v.items.length === 1 ? `(${pyRepr(v.items[0])},)` : `(${v.items.map((x) => pyRepr(x)).join(', ')})`;
  if (v instanceof PySet)
    return v.size
      ? `{${v
          .keys()
          .map((x) => pyRepr(x))
          .join(', ')}}`
      : 'set()';
  if (v instanceof PyDict) return `{${[...v.map.values()].map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
  const o = v as PyObject & { name?: unknown; size?: unknown };
  if ((o.kind === 'qreg' || o.kind === 'creg') && typeof o.name === 'string')
    return `${o.kind === 'qreg' ? 'QuantumRegister' : 'ClassicalRegister'}(${o.size}, '${o.name}')`;
  if ((o.kind === 'function' || o.kind === 'builtin') && typeof o.name === 'string') return `<function ${o.name}>`;
  return `<${o.kind}>`;
}

/** A safe integer for bit operations, or a 422 naming the value. */
export function bitInt(v: PyValue, line: number, op: string): bigint {
  const n = typeof v === 'boolean' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw semanticError(line, `'${op}' needs integers; got ${typeof n === 'number' ? n : kindName(v)}`);
  if (!Number.isSafeInteger(n)) throw unsupported(line, op, `integers beyond 2**53 are outside the supported subset; got ${n}`);
  return BigInt(n);
}

export function fromBig(v: bigint, line: number, op: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw unsupported(line, op, `the result ${v} is beyond 2**53, outside the supported subset`);
  return n;
}

export function bitOp(op: string, a: PyValue, b: PyValue, line: number): PyValue {
  if (typeof a === 'boolean' && typeof b === 'boolean' && (op === '&' || op === '|' || op === '^')) return op === '&' ? a && b : op === '|' ? a || b : a !== b;
  const x = bitInt(a, line, op);
  const y = bitInt(b, line, op);
  switch (op) {
    case '&':
      return fromBig(x & y, line, op);
    case '|':
      return fromBig(x | y, line, op);
    case '^':
      return fromBig(x ^ y, line, op);
    case '<<':
      if (y < 0n) throw semanticError(line, 'negative shift count');
      if (y > 64n) throw unsupported(line, '<<', `shifting by ${y} goes beyond 2**53, outside the supported subset`);
      return fromBig(x << y, line, op);
    case '>>':
      if (y < 0n) throw semanticError(line, 'negative shift count');
      return fromBig(x >> y, line, op);
  }
  throw semanticError(line, `unknown bit operator ${op}`);
}

/** Python's `format(value, spec)` for numbers and strings. */
export function formatSpec(v: PyValue, spec: string, line: number): string {
  if (spec === '') return pyStr(v);
  const m = /^(?:(.)?([<>=^]))?([+\- ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/s.exec(spec);
  if (!m) throw semanticError(line, `invalid format specification '${spec}'`);
  let [, fill, align] = m;
  const [, , , sign = '-', alt, zero, widthText, group, precText, type] = m;
  const width = widthText ? Number(widthText) : 0;
  const precision = precText === undefined ? undefined : Number(precText);
  if (zero && !align) {
    fill = '0';
    align = '=';
  }
  fill ??= ' ';
  let body: string;
  let prefix = '';
  let negative = false;
  if (typeof v === 'string') {
    if (type && type !== 's') throw semanticError(line, `format code '${type}' is for numbers; got a str`);
    body = precision === undefined ? v : v.slice(0, precision);
    align ??= '<';
  } else {
    const x = typeof v === 'boolean' ? Number(v) : v;
    if (typeof x !== 'number') {
      if (type) throw semanticError(line, `format code '${type}' needs a number; got ${kindName(v)}`);
      body = pyStr(v);
      align ??= '<';
    } else {
      negative = x < 0 || Object.is(x, -0);
      const a = Math.abs(x);
      const intOnly = (code: string) => {
        if (!Number.isInteger(a)) throw semanticError(line, `format code '${code}' needs an integer; got ${x}`);
      };
      switch (type) {
        case 'b':
          intOnly('b');
          body = a.toString(2);
          if (alt) prefix = '0b';
          break;
        case 'o':
          intOnly('o');
          body = a.toString(8);
          if (alt) prefix = '0o';
          break;
        case 'x':
        case 'X':
          intOnly(type);
          body = a.toString(16);
          if (type === 'X') body = body.toUpperCase();
          if (alt) prefix = type === 'x' ? '0x' : '0X';
          break;
        case 'c':
          intOnly('c');
          body = String.fromCodePoint(a);
          negative = false;
          break;
        case 'd':
        case 'n':
          intOnly(type);
          body = a.toString();
          break;
        case 'e':
        case 'E':
          body = a.toExponential(precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
          if (type === 'E') body = body.toUpperCase();
          break;
        case 'f':
        case 'F':
          body = a.toFixed(precision ?? 6);
          break;
        case '%':
          body = `${(a * 100).toFixed(precision ?? 6)}%`;
          break;
        case 'g':
        case 'G': {
          const p = precision === 0 ? 1 : (precision ?? 6);
          const exp = a === 0 ? 0 : Math.floor(Math.log10(a));
          body = exp < -4 || exp >= p ? a.toExponential(p - 1).replace(/e([+-])(\d)$/, 'e$10$2') : a.toPrecision(p);
          if (!alt) body = body.replace(/\.?0+(?=e|$)/, '');
          if (type === 'G') body = body.toUpperCase();
          break;
        }
        default:
          body = precision === undefined ? floatRepr(a) : a === 0 ? '0' : a.toPrecision(precision).replace(/\.?0+(?=e|$)/, '');
      }
      if (group && /^[0-9]/.test(body)) {
        const [intPart, rest] = [body.replace(/[^0-9].*$/s, ''), body.replace(/^[0-9]+/, '')];
        body = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, group) + rest;
      }
      align ??= '>';
    }
  }
  const signText = negative ? '-' : sign === '+' ? '+' : sign === ' ' ? ' ' : '';
  const head = signText + prefix;
  const pad = Math.max(0, width - head.length - body.length);
  const fillText = fill.repeat(pad);
  switch (align) {
    case '<':
      return head + body + fillText;
    case '^':
      return fill.repeat(Math.floor(pad / 2)) + head + body + fill.repeat(pad - Math.floor(pad / 2));
    case '=':
      return head + fillText + body;
    default:
      return fillText + head + body;
  }
}

/** printf-style `'%s %05d' % values`. */
export function percentFormat(template: string, values: PyValue, line: number): string {
  const args = values instanceof PyTuple ? values.items : [values];
  let k = 0;
  const out = template.replace(
    /%([-+ #0]*)(\d+|\*)?(?:\.(\d+|\*))?([diouxXeEfFgGcrsa%])/g,
    (_all, flags: string, w: string | undefined, p: string | undefined, code: string) => {
      if (code === '%') return '%';
      const next = () => {
        if (k >= args.length) throw semanticError(line, 'not enough arguments for format string');
        return args[k++];
      };
      const width = w === '*' ? String(next()) : (w ?? '');
      const prec = p === '*' ? String(next()) : p;
      const value = next();
      if (code === 's' || code === 'r' || code === 'a') {
        const s = code === 's' ? pyStr(value) : pyRepr(value);
        return formatSpec(prec === undefined ? s : s.slice(0, Number(prec)), `${flags.includes('-') ? '<' : '>'}${width}`, line);
      }
      const type = code === 'i' || code === 'u' ? 'd' : code;
      const n = typeof value === 'boolean' ? Number(value) : value;
      if (typeof n !== 'number') throw semanticError(line, `%${code} format needs a number; got ${kindName(value)}`);
      const val = type === 'd' || type === 'o' || type === 'x' || type === 'X' || type === 'c' ? Math.trunc(n) : n;
      const align = flags.includes('-') ? '<' : flags.includes('0') ? '=' : '>';
      const fill = flags.includes('0') && !flags.includes('-') ? '0' : ' ';
      const sign = flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
      return formatSpec(val, `${fill}${align}${sign}${flags.includes('#') ? '#' : ''}${width}${prec === undefined ? '' : `.${prec}`}${type}`, line);
    },
  );
  if (k < args.length && values instanceof PyTuple) throw semanticError(line, 'not all arguments converted during string formatting');
  return out;
}

/** `template.format(*args, **kwargs)`, with nested fields in the spec (`'{0:0{1}b}'.format(i, n)`). */
export function strFormat(template: string, args: PyValue[], kwargs: Map<string, PyValue>, line: number): string {
  let auto = 0;
  const field = (name: string): PyValue => {
    const m = /^([A-Za-z_][A-Za-z0-9_]*|\d+)?((?:\[[^\]]*\])*)$/.exec(name);
    if (!m) throw unsupported(line, `{${name}}`, 'format fields are positions, names or their [index]');
    let value: PyValue | undefined;
    if (m[1] === undefined) {
      value = args[auto++];
    } else if (/^\d+$/.test(m[1])) value = args[Number(m[1])];
    else value = kwargs.get(m[1]);
    if (value === undefined) throw semanticError(line, `str.format has no value for field '{${name}}'`);
    for (const [, idx] of m[2].matchAll(/\[([^\]]*)\]/g)) {
      const items: PyValue[] | undefined = Array.isArray(value) ? value : value instanceof PyTuple ? value.items : undefined;
      if (items && /^-?\d+$/.test(idx)) value = items[Number(idx) < 0 ? items.length + Number(idx) : Number(idx)];
      else if (value instanceof PyDict) value = value.get(/^\d+$/.test(idx) ? Number(idx) : idx, line);
      else value = undefined;
      if (value === undefined) throw semanticError(line, `str.format: no item [${idx}] in field '{${name}}'`);
    }
    return value;
  };
  let out = '';
  let i = 0;
  while (i < template.length) {
    const ch = template[i];
    if (ch === '{' && template[i + 1] === '{') {
      out += '{';
      i += 2;
    } else if (ch === '}' && template[i + 1] === '}') {
      out += '}';
      i += 2;
    } else if (ch === '{') {
      let depth = 1;
      let j = i + 1;
      while (j < template.length && depth) {
        if (template[j] === '{') depth++;
        else if (template[j] === '}') depth--;
        j++;
      }
      if (depth) throw semanticError(line, "unmatched '{' in format string");
      const inner = template.slice(i + 1, j - 1);
      const colon = inner.indexOf(':');
      let head = colon < 0 ? inner : inner.slice(0, colon);
      const specTemplate = colon < 0 ? '' : inner.slice(colon + 1);
      let conv: string | undefined;
      const bang = head.indexOf('!');
      if (bang >= 0) {
        conv = head.slice(bang + 1);
        head = head.slice(0, bang);
      }
      const value = field(head.trim());
      const spec = specTemplate.includes('{') ? specTemplate.replace(/\{([^{}]*)\}/g, (_a, n: string) => pyStr(field(n.trim()))) : specTemplate;
      out += formatSpec(conv === 'r' || conv === 'a' ? pyRepr(value) : conv === 's' ? pyStr(value) : value, spec, line);
      i = j;
    } else if (ch === '}') {
      throw semanticError(line, "single '}' encountered in format string");
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** The set operators `|`, `&`, `-` and `^`. */
export function setOp(op: string, a: PySet, b: PySet, line: number): PySet {
  switch (op) {
    case '|':
      return PySet.of([...a.keys(), ...b.keys()], line);
    case '&':
      return PySet.of(
        a.keys().filter((x) => b.has(x, line)),
        line,
      );
    case '-':
      return PySet.of(
        a.keys().filter((x) => !b.has(x, line)),
        line,
      );
    default:
      return PySet.of([...a.keys().filter((x) => !b.has(x, line)), ...b.keys().filter((x) => !a.has(x, line))], line);
  }
}

/** `items[lo:hi:step]` with Python's bounds (negative indices from the end, clamped to the sequence). */
export function pySlice<T>(items: T[], lo: number | undefined, hi: number | undefined, step: number, line: number): T[] {
  if (step === 0) throw semanticError(line, 'slice step cannot be zero');
  const n = items.length;
  const norm = (v: number | undefined, dflt: number) =>
    v === undefined ? dflt : v < 0 ? Math.max(n + v, step < 0 ? -1 : 0) : Math.min(v, step < 0 ? n - 1 : n);
  const start = norm(lo, step > 0 ? 0 : n - 1);
  const stop = norm(hi, step > 0 ? n : -1);
  const out: T[] = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(items[i]);
  return out;
}
