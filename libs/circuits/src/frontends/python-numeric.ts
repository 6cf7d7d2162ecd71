/**
 * Numeric values beyond int/float for the Python front ends: complex numbers (`1j`,
 * `complex(a, b)`, `cmath`) and numpy arrays of one or two dimensions (`np.array`, `np.eye`,
 * `np.kron`, `@`, elementwise arithmetic with broadcasting, `.conj().T`, `np.linalg.norm/eigh/inv/det`, …).
 * Everything is computed here over interleaved (re, im) Float64Arrays; nothing is executed.
 * Array sizes and matrix-product work are bounded (limits.ts), so a program cannot ask for more
 * memory or time than a 1024×1024 matrix.
 */
import { semanticError, unsupported, CircuitError } from '../errors.js';
import { MAX_ARRAY_WORK, checkArrayElements } from '../limits.js';
import type { Matrix } from '../ir/complex-matrix.js';
import { isObject, type PyBuiltin, type PyModule, type PyValue } from './python-objects.js';
import { PyTuple } from './python-values.js';

export class PyComplex {
  readonly kind = 'complex';
  constructor(
    readonly re: number,
    readonly im: number,
  ) {}
  toString(): string {
    const im = `${this.im}j`;
    return this.re === 0 ? im : `(${this.re}${this.im < 0 ? '' : '+'}${im})`;
  }
}

/** A numpy array of 1 or 2 dimensions (0-d results become scalars); data interleaved (re, im), row-major. */
export class NdArray {
  readonly kind = 'ndarray';
  constructor(
    readonly shape: number[],
    readonly data: Float64Array,
    readonly isComplex: boolean,
  ) {}
  get size(): number {
    return this.data.length / 2;
  }
}

type C = [number, number];

export const isComplexValue = (v: PyValue): v is PyComplex & PyValue => v instanceof PyComplex;
export const isArray = (v: PyValue): v is NdArray & PyValue => v instanceof NdArray;
const isScalar = (v: PyValue): boolean => typeof v === 'number' || typeof v === 'boolean' || v instanceof PyComplex;

function describe(v: PyValue): string {
  if (v === null) return 'None';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyTuple) return 'tuple';
  return typeof v === 'object' ? (v as { kind: string }).kind : typeof v === 'number' ? 'float' : typeof v;
}

export function toC(v: PyValue, line: number, what = 'a number'): C {
  if (typeof v === 'number') return [v, 0];
  if (typeof v === 'boolean') return [v ? 1 : 0, 0];
  if (v instanceof PyComplex) return [v.re, v.im];
  if (v instanceof NdArray && v.size === 1 && v.shape.every((d) => d === 1)) return [v.data[0], v.data[1]];
  throw semanticError(line, `expected ${what}; got ${describe(v)}`);
}

/** A scalar as Python would hold it: complex stays complex, real stays a float/int. */
export const scalar = ([re, im]: C, complex: boolean): PyValue => (complex ? (new PyComplex(re, im) as unknown as PyValue) : re);

// ---- complex arithmetic ----
const cmul = (a: C, b: C): C => [a[0] * b[0] - a[1] * b[1], a[0] * b[1] + a[1] * b[0]];
function cdiv(a: C, b: C, line: number): C {
  const d = b[0] * b[0] + b[1] * b[1];
  if (d === 0) throw semanticError(line, 'division by zero');
  return [(a[0] * b[0] + a[1] * b[1]) / d, (a[1] * b[0] - a[0] * b[1]) / d];
}
const cexp = (a: C): C => {
  const r = Math.exp(a[0]);
  return [r * Math.cos(a[1]), r * Math.sin(a[1])];
};
const clog = (a: C): C => [Math.log(Math.hypot(a[0], a[1])), Math.atan2(a[1], a[0])];
function csqrt(a: C): C {
  const r = Math.hypot(a[0], a[1]);
  const re = Math.sqrt((r + a[0]) / 2);
  const im = Math.sqrt(Math.max(0, (r - a[0]) / 2));
  return [re, a[1] < 0 || (a[1] === 0 && Object.is(a[1], -0)) ? -im : im];
}
function cpow(a: C, b: C): C {
  if (b[1] === 0 && Number.isInteger(b[0]) && Math.abs(b[0]) <= 64) {
    let out: C = [1, 0];
    for (let k = 0; k < Math.abs(b[0]); k++) out = cmul(out, a);
    return b[0] < 0 ? cdiv([1, 0], out, 0) : out;
  }
  if (a[0] === 0 && a[1] === 0) return b[0] === 0 && b[1] === 0 ? [1, 0] : [0, 0];
  return cexp(cmul(b, clog(a)));
}
const ccos = (a: C): C => [Math.cos(a[0]) * Math.cosh(a[1]), -Math.sin(a[0]) * Math.sinh(a[1])];
const csin = (a: C): C => [Math.sin(a[0]) * Math.cosh(a[1]), Math.cos(a[0]) * Math.sinh(a[1])];

function scalarOp(op: string, a: C, b: C, line: number): C {
  switch (op) {
    case '+':
      return [a[0] + b[0], a[1] + b[1]];
    case '-':
      return [a[0] - b[0], a[1] - b[1]];
    case '*':
      return cmul(a, b);
    case '/':
      return cdiv(a, b, line);
    case '**':
      return cpow(a, b);
  }
  throw unsupported(line, op, `${op} on complex numbers is outside the supported subset`);
}

/** Python's arithmetic on two real numbers (floor division and modulo as Python defines them); undefined for other operators. */
export function realOp(op: string, x: number, y: number, line: number): number | undefined {
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
      if (y === 0) throw semanticError(line, 'modulo by zero');
      return x - y * Math.floor(x / y);
    case '**':
      if (x === 0 && y < 0) throw semanticError(line, 'zero cannot be raised to a negative power');
      return x ** y;
  }
  return undefined;
}

const arrayRealOp = (op: string, x: number, y: number, line: number): number => {
  const r = realOp(op, x, y, line);
  if (r === undefined) throw unsupported(line, op, `${op} on arrays is outside the supported subset`);
  return r;
};

// ---- arrays ----
export function makeArray(shape: number[], complex: boolean, line?: number): NdArray {
  const n = shape.reduce((p, d) => p * d, 1);
  checkArrayElements(n, line);
  return new NdArray(shape, new Float64Array(2 * n), complex);
}

/** An array from nested lists/tuples/arrays of numbers (rectangular, at most 2 dimensions). */
export function toArray(v: PyValue, line: number, complex?: boolean): NdArray {
  if (v instanceof NdArray) return complex && !v.isComplex ? new NdArray(v.shape, v.data, true) : v;
  if (isScalar(v)) {
    const [re, im] = toC(v, line);
    const a = makeArray([], complex ?? v instanceof PyComplex, line);
    a.data[0] = re;
    a.data[1] = im;
    return a;
  }
  const rows = seq(v, line);
  if (rows === undefined) throw semanticError(line, `expected a number, a list of numbers or a list of lists; got ${describe(v)}`);
  checkArrayElements(rows.length, line);
  const inner = rows.map((r) => (isScalar(r) ? undefined : r instanceof NdArray ? r : seq(r, line)));
  const nested = inner.some((r) => r !== undefined);
  if (!nested) {
    const out = makeArray([rows.length], false, line);
    let cplx = complex ?? false;
    rows.forEach((r, i) => {
      const [re, im] = toC(r, line, 'a number in the array');
      out.data[2 * i] = re;
      out.data[2 * i + 1] = im;
      if (r instanceof PyComplex) cplx = true;
    });
    return new NdArray(out.shape, out.data, cplx);
  }
  const lists = rows.map((r) => {
    if (r instanceof NdArray) {
      if (r.shape.length !== 1) throw unsupported(line, 'np.array', 'arrays of more than two dimensions are outside the supported subset');
      return Array.from({ length: r.size }, (_, i) => scalar([r.data[2 * i], r.data[2 * i + 1]], r.isComplex));
    }
    const items = seq(r, line);
    if (items === undefined) throw semanticError(line, 'np.array: rows must all be lists of the same length');
    return items;
  });
  const cols = lists[0].length;
  if (lists.some((l) => l.length !== cols)) throw semanticError(line, `np.array: rows have different lengths (${lists.map((l) => l.length).join(', ')})`);
  const out = makeArray([rows.length, cols], false, line);
  let cplx = complex ?? rows.some((r) => r instanceof NdArray && r.isComplex);
  lists.forEach((l, r) => {
    l.forEach((x, c) => {
      if (!isScalar(x)) throw unsupported(line, 'np.array', 'arrays of more than two dimensions are outside the supported subset');
      const [re, im] = toC(x, line, 'a number in the array');
      out.data[2 * (r * cols + c)] = re;
      out.data[2 * (r * cols + c) + 1] = im;
      if (x instanceof PyComplex) cplx = true;
    });
  });
  return new NdArray(out.shape, out.data, cplx);
}

function seq(v: PyValue, _line: number): PyValue[] | undefined {
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  return undefined;
}

/** Elements of an array along its first axis (scalars or rows). */
export function arrayItems(a: NdArray): PyValue[] {
  if (a.shape.length === 0) return [scalar([a.data[0], a.data[1]], a.isComplex)];
  if (a.shape.length === 1) return Array.from({ length: a.shape[0] }, (_, i) => scalar([a.data[2 * i], a.data[2 * i + 1]], a.isComplex));
  const cols = a.shape[1];
  return Array.from({ length: a.shape[0] }, (_, r) => new NdArray([cols], a.data.slice(2 * r * cols, 2 * (r + 1) * cols), a.isComplex) as unknown as PyValue);
}

/** Plain nested lists (`.tolist()`). */
function toList(a: NdArray): PyValue {
  const items = arrayItems(a);
  return a.shape.length === 2 ? items.map((r) => toList(r as unknown as NdArray)) : a.shape.length === 0 ? items[0] : items;
}

/** numpy broadcasting of two shapes of at most 2 dimensions. */
function broadcast(a: number[], b: number[], line: number): number[] {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) throw semanticError(line, `operands could not be broadcast together with shapes (${a.join(',')}) (${b.join(',')})`);
    out.push(Math.max(x, y));
  }
  return out;
}

function elementIndex(shape: number[], outShape: number[], flat: number): number {
  // Map a flat index of the broadcast shape onto an operand's flat index.
  let idx = 0;
  let stride = 1;
  let rest = flat;
  const coords: number[] = [];
  for (let i = outShape.length - 1; i >= 0; i--) {
    coords[i] = rest % outShape[i];
    rest = Math.floor(rest / outShape[i]);
  }
  for (let i = shape.length - 1; i >= 0; i--) {
    const c = coords[outShape.length - shape.length + i];
    idx += (shape[i] === 1 ? 0 : c) * stride;
    stride *= shape[i];
  }
  return idx;
}

function elementwise(op: string, a: NdArray, b: NdArray, line: number): NdArray {
  const shape = broadcast(a.shape, b.shape, line);
  const complex = a.isComplex || b.isComplex || (op === '**' && false);
  const out = makeArray(shape, complex, line);
  const n = out.size;
  for (let k = 0; k < n; k++) {
    const i = elementIndex(a.shape, shape, k);
    const j = elementIndex(b.shape, shape, k);
    const x: C = [a.data[2 * i], a.data[2 * i + 1]];
    const y: C = [b.data[2 * j], b.data[2 * j + 1]];
    const r = complex ? scalarOp(op, x, y, line) : ([arrayRealOp(op, x[0], y[0], line), 0] as C);
    out.data[2 * k] = r[0];
    out.data[2 * k + 1] = r[1];
  }
  return out;
}

function map(a: NdArray, f: (x: C) => C, complex = a.isComplex): NdArray {
  const out = new NdArray(a.shape, new Float64Array(a.data.length), complex);
  for (let k = 0; k < a.size; k++) {
    const r = f([a.data[2 * k], a.data[2 * k + 1]]);
    out.data[2 * k] = r[0];
    out.data[2 * k + 1] = complex ? r[1] : 0;
  }
  return out;
}

const shapeText = (a: NdArray): string => `(${a.shape.join(', ')}${a.shape.length === 1 ? ',' : ''})`;

export function matmul(a: NdArray, b: NdArray, line: number): PyValue {
  if (a.shape.length === 0 || b.shape.length === 0) throw semanticError(line, 'matmul: input operand does not have enough dimensions (use * for scalars)');
  const A = a.shape.length === 1 ? [1, a.shape[0]] : a.shape;
  const B = b.shape.length === 1 ? [b.shape[0], 1] : b.shape;
  if (A[1] !== B[0]) throw semanticError(line, `matmul: shapes ${shapeText(a)} and ${shapeText(b)} are not aligned (${A[1]} ≠ ${B[0]})`);
  const work = A[0] * A[1] * B[1];
  if (work > MAX_ARRAY_WORK) throw new CircuitError('limit', `a matrix product may take at most ${MAX_ARRAY_WORK} multiply-adds; this one takes ${work}`, line);
  const complex = a.isComplex || b.isComplex;
  const out = makeArray([A[0], B[1]], complex, line);
  const [n, m, p] = [A[0], A[1], B[1]];
  for (let r = 0; r < n; r++)
    for (let c = 0; c < p; c++) {
      let re = 0;
      let im = 0;
      for (let k = 0; k < m; k++) {
        const ar = a.data[2 * (r * m + k)],
          ai = a.data[2 * (r * m + k) + 1];
        const br = b.data[2 * (k * p + c)],
          bi = b.data[2 * (k * p + c) + 1];
        re += ar * br - ai * bi;
        im += ar * bi + ai * br;
      }
      out.data[2 * (r * p + c)] = re;
      out.data[2 * (r * p + c) + 1] = im;
    }
  if (a.shape.length === 1 && b.shape.length === 1) return scalar([out.data[0], out.data[1]], complex);
  if (a.shape.length === 1) return new NdArray([p], out.data, complex) as unknown as PyValue;
  if (b.shape.length === 1) return new NdArray([n], out.data, complex) as unknown as PyValue;
  return out as unknown as PyValue;
}

export function kron(a: NdArray, b: NdArray, line: number): NdArray {
  const A = a.shape.length === 2 ? a.shape : [1, a.shape[0] ?? 1];
  const B = b.shape.length === 2 ? b.shape : [1, b.shape[0] ?? 1];
  const rows = A[0] * B[0];
  const cols = A[1] * B[1];
  checkArrayElements(rows * cols, line);
  const complex = a.isComplex || b.isComplex;
  const out = makeArray(a.shape.length === 2 || b.shape.length === 2 ? [rows, cols] : [cols], complex, line);
  for (let i = 0; i < A[0]; i++)
    for (let j = 0; j < A[1]; j++) {
      const x: C = [a.data[2 * (i * A[1] + j)], a.data[2 * (i * A[1] + j) + 1]];
      for (let k = 0; k < B[0]; k++)
        for (let l = 0; l < B[1]; l++) {
          const y: C = [b.data[2 * (k * B[1] + l)], b.data[2 * (k * B[1] + l) + 1]];
          const [re, im] = cmul(x, y);
          const idx = (i * B[0] + k) * cols + j * B[1] + l;
          out.data[2 * idx] = re;
          out.data[2 * idx + 1] = im;
        }
    }
  return out;
}

function transpose(a: NdArray): NdArray {
  if (a.shape.length < 2) return a;
  const [r, c] = a.shape;
  const out = new NdArray([c, r], new Float64Array(a.data.length), a.isComplex);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) {
      out.data[2 * (j * r + i)] = a.data[2 * (i * c + j)];
      out.data[2 * (j * r + i) + 1] = a.data[2 * (i * c + j) + 1];
    }
  return out;
}

const conj = (a: NdArray): NdArray => map(a, ([re, im]) => [re, -im]);

/** `a op b` when either side is complex or an array; undefined otherwise. */
export function numericBinary(op: string, a: PyValue, b: PyValue, line: number): PyValue | undefined {
  const arrays = a instanceof NdArray || b instanceof NdArray;
  if (!arrays && !(a instanceof PyComplex) && !(b instanceof PyComplex)) return undefined;
  if (!(isScalar(a) || a instanceof NdArray || (arrays && seq(a, line))) || !(isScalar(b) || b instanceof NdArray || (arrays && seq(b, line))))
    return undefined;
  if (op === '@') {
    if (!arrays) return undefined;
    return matmul(toArray(a, line), toArray(b, line), line);
  }
  if (!arrays) {
    if (op === '//' || op === '%') throw semanticError(line, `can't take ${op === '//' ? 'floor' : 'modulo'} of a complex number`);
    return new PyComplex(...scalarOp(op, toC(a, line), toC(b, line), line)) as unknown as PyValue;
  }
  const out = elementwise(op, toArray(a, line), toArray(b, line), line);
  return out.shape.length === 0 ? scalar([out.data[0], out.data[1]], out.isComplex) : (out as unknown as PyValue);
}

export function numericNegate(a: PyValue): PyValue | undefined {
  if (a instanceof PyComplex) return new PyComplex(-a.re, -a.im) as unknown as PyValue;
  if (a instanceof NdArray) return map(a, ([re, im]) => [-re, -im]) as unknown as PyValue;
  return undefined;
}

export function numericAbs(a: PyValue, line: number): PyValue {
  if (a instanceof NdArray) return map(a, ([re, im]) => [Math.hypot(re, im), 0], false) as unknown as PyValue;
  const [re, im] = toC(a, line, 'a number for abs()');
  return Math.hypot(re, im);
}

/** Index `a[i]`, `a[i, j]`, `a[i][j]`, `a[:, j]`, `a[lo:hi]` (one slice per axis). */
export type IndexPart = number | { lo?: number; hi?: number; step: number };
export function arrayIndex(a: NdArray, parts: IndexPart[], line: number): PyValue {
  if (parts.length > a.shape.length) throw semanticError(line, `too many indices for an array of dimension ${a.shape.length}`);
  const axes = a.shape.map((n, ax) => {
    const p = parts[ax] ?? { step: 1 };
    if (typeof p === 'number') {
      const k = p < 0 ? n + p : p;
      if (!Number.isInteger(p) || k < 0 || k >= n) throw semanticError(line, `index ${p} is out of bounds for axis ${ax} with size ${n}`);
      return { picks: [k], keep: false };
    }
    const step = p.step;
    if (step === 0) throw semanticError(line, 'slice step cannot be zero');
    const norm = (v: number | undefined, dflt: number) =>
      v === undefined ? dflt : v < 0 ? Math.max(n + v, step < 0 ? -1 : 0) : Math.min(v, step < 0 ? n - 1 : n);
    const start = norm(p.lo, step > 0 ? 0 : n - 1);
    const stop = norm(p.hi, step > 0 ? n : -1);
    const picks: number[] = [];
    for (let i = start; step > 0 ? i < stop : i > stop; i += step) picks.push(i);
    return { picks, keep: true };
  });
  const shape = axes.filter((x) => x.keep).map((x) => x.picks.length);
  const rows = axes[0]?.picks ?? [0];
  const cols = a.shape.length === 2 ? axes[1].picks : [0];
  const out = makeArray(shape, a.isComplex, line);
  let k = 0;
  const width = a.shape.length === 2 ? a.shape[1] : 1;
  for (const r of rows)
    for (const c of cols) {
      const src = a.shape.length === 2 ? r * width + c : r;
      out.data[2 * k] = a.data[2 * src];
      out.data[2 * k + 1] = a.data[2 * src + 1];
      k++;
    }
  return shape.length === 0 ? scalar([out.data[0], out.data[1]], a.isComplex) : (out as unknown as PyValue);
}

export function setArrayItem(a: NdArray, parts: IndexPart[], value: PyValue, line: number): void {
  if (parts.length !== a.shape.length || parts.some((p) => typeof p !== 'number'))
    throw unsupported(line, 'array item assignment', 'assign one element at a time (a[i] or a[i, j])');
  const idx = (parts as number[]).map((p, ax) => {
    const k = p < 0 ? a.shape[ax] + p : p;
    if (k < 0 || k >= a.shape[ax]) throw semanticError(line, `index ${p} is out of bounds for axis ${ax} with size ${a.shape[ax]}`);
    return k;
  });
  const flat = idx.length === 2 ? idx[0] * a.shape[1] + idx[1] : idx[0];
  const [re, im] = toC(value, line, 'a number to store in the array');
  if (im !== 0 && !a.isComplex) throw semanticError(line, 'cannot store a complex number in a real array (create it with dtype=complex)');
  a.data[2 * flat] = re;
  a.data[2 * flat + 1] = im;
}

// ---- attributes of values ----
const builtin = (name: string, call: PyBuiltin['call']): PyValue => ({ kind: 'builtin', name, call }) as PyBuiltin as PyValue;

export function valueAttr(v: PyValue, name: string): PyValue | undefined {
  if (v instanceof PyComplex) {
    if (name === 'real') return v.re;
    if (name === 'imag') return v.im;
    if (name === 'conjugate') return builtin('complex.conjugate', () => new PyComplex(v.re, -v.im) as unknown as PyValue);
    return undefined;
  }
  if (typeof v === 'number') {
    if (name === 'real') return v;
    if (name === 'imag') return 0;
    if (name === 'conjugate') return builtin('float.conjugate', () => v);
    if (name === 'bit_length' && Number.isInteger(v)) return builtin('int.bit_length', () => (v === 0 ? 0 : Math.abs(v).toString(2).length));
    return undefined;
  }
  if (!(v instanceof NdArray)) return undefined;
  switch (name) {
    case 'T':
      return transpose(v) as unknown as PyValue;
    case 'shape':
      return new PyTuple([...v.shape]);
    case 'ndim':
      return v.shape.length;
    case 'size':
      return v.size;
    case 'real':
      return map(v, ([re]) => [re, 0], false) as unknown as PyValue;
    case 'imag':
      return map(v, ([, im]) => [im, 0], false) as unknown as PyValue;
    case 'conj':
    case 'conjugate':
      return builtin(`ndarray.${name}`, () => conj(v) as unknown as PyValue);
    case 'transpose':
      return builtin('ndarray.transpose', () => transpose(v) as unknown as PyValue);
    case 'dot':
      return builtin('ndarray.dot', (args, _k, l) => matmul(v, toArray(args[0] ?? null, l), l));
    case 'copy':
      return builtin('ndarray.copy', () => new NdArray([...v.shape], v.data.slice(), v.isComplex) as unknown as PyValue);
    case 'flatten':
    case 'ravel':
      return builtin(`ndarray.${name}`, () => new NdArray([v.size], v.data.slice(), v.isComplex) as unknown as PyValue);
    case 'tolist':
      return builtin('ndarray.tolist', () => toList(v));
    case 'reshape':
      return builtin('ndarray.reshape', (args, _k, l) => reshape(v, args, l));
    case 'astype':
      return builtin('ndarray.astype', (args) => new NdArray(v.shape, v.data.slice(), isComplexDtype(args[0] ?? null) || v.isComplex) as unknown as PyValue);
    case 'sum':
      return builtin('ndarray.sum', () => sumAll(v));
  }
  return undefined;
}

function reshape(v: NdArray, args: PyValue[], line: number): PyValue {
  const dims = (args.length === 1 && seq(args[0], line) ? seq(args[0], line)! : args).map((d) => {
    if (typeof d !== 'number' || !Number.isInteger(d)) throw semanticError(line, 'reshape takes integer dimensions');
    return d;
  });
  const known = dims.filter((d) => d !== -1).reduce((p, d) => p * d, 1);
  const shape = dims.map((d) => (d === -1 ? v.size / known : d));
  if (shape.length > 2 || shape.some((d) => !Number.isInteger(d) || d < 0) || shape.reduce((p, d) => p * d, 1) !== v.size) {
    throw semanticError(line, `cannot reshape an array of size ${v.size} into shape (${dims.join(', ')}) (at most 2 dimensions)`);
  }
  return new NdArray(shape, v.data.slice(), v.isComplex) as unknown as PyValue;
}

function sumAll(v: NdArray): PyValue {
  let re = 0;
  let im = 0;
  for (let k = 0; k < v.size; k++) {
    re += v.data[2 * k];
    im += v.data[2 * k + 1];
  }
  return scalar([re, im], v.isComplex);
}

function isComplexDtype(d: PyValue): boolean {
  if (typeof d === 'string') return d.startsWith('complex');
  return isObject(d, 'builtin') && /complex/.test((d as PyBuiltin).name);
}

// ---- modules ----
type Elementwise = { real: (x: number) => number; complex: (x: C) => C; realDomain?: (x: number) => boolean };
const ELEMENTWISE: Record<string, Elementwise> = {
  exp: { real: Math.exp, complex: cexp },
  sqrt: { real: Math.sqrt, complex: csqrt, realDomain: (x) => x >= 0 },
  cos: { real: Math.cos, complex: ccos },
  sin: { real: Math.sin, complex: csin },
  log: { real: Math.log, complex: clog, realDomain: (x) => x > 0 },
};

/** np.exp and friends: elementwise on arrays, complex-aware on scalars (numpy keeps real input real). */
function npElementwise(path: string, name: string, f: Elementwise): PyValue {
  return builtin(`${path}.${name}`, (args, _k, line) => {
    const x = args[0] ?? null;
    if (x instanceof NdArray || seq(x, line)) {
      const a = toArray(x, line);
      return map(a, (c) => (a.isComplex ? f.complex(c) : [f.real(c[0]), 0])) as unknown as PyValue;
    }
    const c = toC(x, line, `a number for ${path}.${name}`);
    if (path === 'cmath') return new PyComplex(...f.complex(c)) as unknown as PyValue;
    return x instanceof PyComplex ? (new PyComplex(...f.complex(c)) as unknown as PyValue) : f.real(c[0]);
  });
}

const asInt = (v: PyValue | undefined, line: number, what: string): number => {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw semanticError(line, `expected ${what} (a non-negative integer); got ${v === undefined ? 'nothing' : describe(v)}`);
  return v;
};

function shapeArg(v: PyValue | undefined, line: number): number[] {
  if (v !== undefined && v !== null && seq(v, line)) return seq(v, line)!.map((d) => asInt(d, line, 'an array dimension'));
  return [asInt(v, line, 'an array size')];
}

/** Largest matrix `scipy.linalg.expm` takes (the programs it serves build gates of a few qubits). */
const MAX_EXPM_DIMENSION = 64;

/** The matrix exponential of a small square matrix: scaling and squaring of the Taylor series (Moler & Van Loan 2003, method 3). */
function expm(a: NdArray, line: number): NdArray {
  const [rows, cols] = a.shape;
  if (a.shape.length !== 2 || rows !== cols) throw semanticError(line, `scipy.linalg.expm takes a square matrix; got shape (${a.shape.join(', ')})`);
  if (rows > MAX_EXPM_DIMENSION)
    throw semanticError(line, `scipy.linalg.expm is supported up to ${MAX_EXPM_DIMENSION}×${MAX_EXPM_DIMENSION}; got ${rows}×${rows}`);
  const d = rows;
  const data = a.isComplex ? a.data : Float64Array.from({ length: 2 * d * d }, (_, i) => (i % 2 ? 0 : a.data[i / 2]));
  const mul = (x: Float64Array, y: Float64Array) => {
    const out = new Float64Array(2 * d * d);
    for (let i = 0; i < d; i++)
      for (let k = 0; k < d; k++) {
        const xr = x[2 * (i * d + k)];
        const xi = x[2 * (i * d + k) + 1];
        if (!xr && !xi) continue;
        for (let j = 0; j < d; j++) {
          out[2 * (i * d + j)] += xr * y[2 * (k * d + j)] - xi * y[2 * (k * d + j) + 1];
          out[2 * (i * d + j) + 1] += xr * y[2 * (k * d + j) + 1] + xi * y[2 * (k * d + j)];
        }
      }
    return out;
  };
  let norm = 0;
  for (let i = 0; i < d; i++) {
    let row = 0;
    for (let j = 0; j < d; j++) row += Math.hypot(data[2 * (i * d + j)], data[2 * (i * d + j) + 1]);
    norm = Math.max(norm, row);
  }
  const squarings = Math.max(0, Math.ceil(Math.log2(Math.max(norm, 1e-300))) + 1);
  const scaled = data.map((v) => v / 2 ** squarings);
  let sum = new Float64Array(2 * d * d);
  let term = new Float64Array(2 * d * d);
  for (let i = 0; i < d; i++) {
    sum[2 * (i * d + i)] = 1;
    term[2 * (i * d + i)] = 1;
  }
  for (let k = 1; k <= 20; k++) {
    term = mul(term, scaled).map((v) => v / k);
    sum = sum.map((v, i) => v + term[i]);
  }
  for (let s = 0; s < squarings; s++) sum = mul(sum, sum);
  return new NdArray([d, d], sum, true);
}

/** A square matrix of at most MAX_EXPM_DIMENSION rows, as complex data; `what` names the function for errors. */
function squareComplex(v: PyValue, line: number, what: string): { d: number; data: Float64Array; complex: boolean } {
  const a = toArray(v, line);
  const [rows, cols] = a.shape;
  if (a.shape.length !== 2 || rows !== cols) throw semanticError(line, `${what} takes a square matrix; got shape (${a.shape.join(', ')})`);
  if (rows > MAX_EXPM_DIMENSION) throw semanticError(line, `${what} is supported up to ${MAX_EXPM_DIMENSION}×${MAX_EXPM_DIMENSION}; got ${rows}×${rows}`);
  return { d: rows, data: a.data, complex: a.isComplex };
}

/**
 * Eigenvalues (ascending) and orthonormal eigenvectors (columns) of a Hermitian matrix, as `numpy.linalg.eigh`:
 * H = A + iB is embedded as the real symmetric [[A, −B], [B, A]] (each eigenvalue twice; [x; y] ↦ x + iy), which
 * the cyclic Jacobi method diagonalises (Golub & Van Loan, Matrix Computations, 4th ed., §8.5); degenerate
 * eigenvectors are made orthonormal over ℂ by Gram–Schmidt. Only the lower triangle is read, as numpy does.
 */
function eigh(v: PyValue, line: number, what: string): { values: number[]; vectors: NdArray; complex: boolean } {
  const { d, data, complex } = squareComplex(v, line, what);
  const n = 2 * d;
  const m = new Float64Array(n * n);
  for (let i = 0; i < d; i++)
    for (let j = 0; j <= i; j++) {
      const re = data[2 * (i * d + j)];
      const im = i === j ? 0 : data[2 * (i * d + j) + 1];
      for (const [r, c, x] of [
        [i, j, re],
        [j, i, re],
        [i + d, j + d, re],
        [j + d, i + d, re],
        [i + d, j, im],
        [j, i + d, im],
        [j + d, i, -im],
        [i, j + d, -im],
      ] as const)
        m[r * n + c] = x;
    }
  const vec = new Float64Array(n * n);
  for (let i = 0; i < n; i++) vec[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += m[p * n + q] ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = m[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (m[q * n + q] - m[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = m[k * n + p];
          const akq = m[k * n + q];
          m[k * n + p] = c * akp - s * akq;
          m[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = m[p * n + k];
          const aqk = m[q * n + k];
          m[p * n + k] = c * apk - s * aqk;
          m[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = vec[k * n + p];
          const vkq = vec[k * n + q];
          vec[k * n + p] = c * vkp - s * vkq;
          vec[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => m[a * n + a] - m[b * n + b]);
  const values: number[] = [];
  const chosen: C[][] = [];
  for (const k of order) {
    if (chosen.length === d) break;
    let x: C[] = Array.from({ length: d }, (_, i): C => [vec[i * n + k], vec[(i + d) * n + k]]);
    // Gram–Schmidt over ℂ against the vectors already taken (the two copies of an eigenvector are ℂ-parallel).
    for (const u of chosen) {
      let dot: C = [0, 0];
      for (let i = 0; i < d; i++) dot = [dot[0] + u[i][0] * x[i][0] + u[i][1] * x[i][1], dot[1] + u[i][0] * x[i][1] - u[i][1] * x[i][0]];
      x = x.map((xi, i): C => [xi[0] - (dot[0] * u[i][0] - dot[1] * u[i][1]), xi[1] - (dot[0] * u[i][1] + dot[1] * u[i][0])]);
    }
    const norm = Math.sqrt(x.reduce((acc, [re, im]) => acc + re * re + im * im, 0));
    if (norm < 0.5) continue;
    // numpy's phase convention is not specified; make the largest component real and positive, as LAPACK usually does for real input.
    const big = x.reduce((best, xi, i) => (Math.hypot(...xi) > Math.hypot(...x[best]) + 1e-12 ? i : best), 0);
    const phase: C = [x[big][0] / Math.hypot(...x[big]), -x[big][1] / Math.hypot(...x[big])];
    chosen.push(x.map((xi): C => [(xi[0] * phase[0] - xi[1] * phase[1]) / norm, (xi[0] * phase[1] + xi[1] * phase[0]) / norm]));
    values.push(m[k * n + k]);
  }
  const out = new Float64Array(2 * d * d);
  for (let j = 0; j < d; j++)
    for (let i = 0; i < d; i++) {
      out[2 * (i * d + j)] = chosen[j][i][0];
      out[2 * (i * d + j) + 1] = complex ? chosen[j][i][1] : 0;
    }
  return { values, vectors: new NdArray([d, d], out, complex), complex };
}

/** LU decomposition with partial pivoting of a small complex matrix: the determinant, or the inverse by Gauss–Jordan. */
function gaussJordan(v: PyValue, line: number, what: string, inverse: boolean): { det: C; inv?: NdArray } {
  const { d, data, complex } = squareComplex(v, line, what);
  const a: C[][] = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j): C => [data[2 * (i * d + j)], data[2 * (i * d + j) + 1]]));
  const b: C[][] = Array.from({ length: d }, (_, i) => Array.from({ length: d }, (_, j): C => [i === j ? 1 : 0, 0]));
  let det: C = [1, 0];
  for (let col = 0; col < d; col++) {
    let pivot = col;
    for (let r = col + 1; r < d; r++) if (Math.hypot(...a[r][col]) > Math.hypot(...a[pivot][col])) pivot = r;
    if (Math.hypot(...a[pivot][col]) < 1e-14) {
      if (inverse) throw semanticError(line, `${what}: the matrix is singular`);
      return { det: [0, 0] };
    }
    if (pivot !== col) {
      [a[pivot], a[col]] = [a[col], a[pivot]];
      [b[pivot], b[col]] = [b[col], b[pivot]];
      det = [-det[0], -det[1]];
    }
    const p = a[col][col];
    det = cmul(det, p);
    for (let j = 0; j < d; j++) {
      a[col][j] = cdiv(a[col][j], p, line);
      b[col][j] = cdiv(b[col][j], p, line);
    }
    for (let r = 0; r < d; r++) {
      if (r === col) continue;
      const f = a[r][col];
      if (!f[0] && !f[1]) continue;
      for (let j = 0; j < d; j++) {
        const fa = cmul(f, a[col][j]);
        const fb = cmul(f, b[col][j]);
        a[r][j] = [a[r][j][0] - fa[0], a[r][j][1] - fa[1]];
        b[r][j] = [b[r][j][0] - fb[0], b[r][j][1] - fb[1]];
      }
    }
  }
  if (!inverse) return { det };
  const out = new Float64Array(2 * d * d);
  for (let i = 0; i < d; i++)
    for (let j = 0; j < d; j++) {
      out[2 * (i * d + j)] = b[i][j][0];
      out[2 * (i * d + j) + 1] = complex ? b[i][j][1] : 0;
    }
  return { det, inv: new NdArray([d, d], out, complex) };
}

const realVector = (values: number[]): NdArray => {
  const data = new Float64Array(2 * values.length);
  values.forEach((x, i) => {
    data[2 * i] = x;
  });
  return new NdArray([values.length], data, false);
};

/** `numpy.<name>` (and `numpy.linalg.<name>`, `scipy.linalg.expm`); undefined when not in the subset. */
export function numpyAttr(path: string, name: string): PyValue | undefined {
  if (path === 'scipy') return name === 'linalg' ? ({ kind: 'module', path: 'scipy.linalg' } as PyModule as PyValue) : undefined;
  // \`import scipy.linalg\` binds \`scipy\` to this module, so \`scipy.linalg.expm\` asks it for \`linalg\` first.
  if (path === 'scipy.linalg' && name === 'linalg') return { kind: 'module', path: 'scipy.linalg' } as PyModule as PyValue;
  if (path === 'scipy.linalg')
    return name === 'expm' ? builtin('scipy.linalg.expm', (args, _k, l) => expm(toArray(args[0] ?? null, l, true), l) as unknown as PyValue) : undefined;
  if (path === 'numpy.linalg') {
    if (name === 'norm')
      return builtin('np.linalg.norm', (args, _k, l) => {
        const a = toArray(args[0] ?? null, l);
        let s = 0;
        for (let k = 0; k < a.data.length; k++) s += a.data[k] * a.data[k];
        return Math.sqrt(s);
      });
    if (name === 'eigh')
      return builtin('np.linalg.eigh', (args, _k, l) => {
        const { values, vectors } = eigh(args[0] ?? null, l, 'np.linalg.eigh');
        return new PyTuple([realVector(values) as unknown as PyValue, vectors as unknown as PyValue]) as unknown as PyValue;
      });
    if (name === 'eigvalsh')
      return builtin('np.linalg.eigvalsh', (args, _k, l) => realVector(eigh(args[0] ?? null, l, 'np.linalg.eigvalsh').values) as unknown as PyValue);
    if (name === 'inv') return builtin('np.linalg.inv', (args, _k, l) => gaussJordan(args[0] ?? null, l, 'np.linalg.inv', true).inv as unknown as PyValue);
    if (name === 'det')
      return builtin('np.linalg.det', (args, _k, l) => {
        const a = toArray(args[0] ?? null, l);
        return scalar(gaussJordan(a as unknown as PyValue, l, 'np.linalg.det', false).det, a.isComplex);
      });
    return undefined;
  }
  if (path !== 'numpy') return undefined;
  if (name in ELEMENTWISE) return npElementwise('np', name, ELEMENTWISE[name]);
  switch (name) {
    case 'linalg':
      return { kind: 'module', path: 'numpy.linalg' } as PyModule as PyValue;
    case 'array':
    case 'asarray':
    case 'matrix':
      return builtin(`np.${name}`, (args, k, l) => {
        const a = toArray(args[0] ?? null, l, isComplexDtype(k.get('dtype') ?? args[1] ?? null) || undefined);
        return a.data === (args[0] as unknown as NdArray)?.data
          ? (new NdArray([...a.shape], a.data.slice(), a.isComplex) as unknown as PyValue)
          : (a as unknown as PyValue);
      });
    case 'eye':
    case 'identity':
      return builtin(`np.${name}`, (args, k, l) => {
        const n = asInt(args[0], l, 'the matrix size');
        const m = makeArray([n, n], isComplexDtype(k.get('dtype') ?? null), l);
        for (let i = 0; i < n; i++) m.data[2 * (i * n + i)] = 1;
        return m as unknown as PyValue;
      });
    case 'zeros':
    case 'ones':
      return builtin(`np.${name}`, (args, k, l) => {
        const m = makeArray(shapeArg(args[0], l), isComplexDtype(k.get('dtype') ?? args[1] ?? null), l);
        if (m.shape.length > 2) throw unsupported(l, `np.${name}`, 'arrays of more than two dimensions are outside the supported subset');
        if (name === 'ones') for (let i = 0; i < m.size; i++) m.data[2 * i] = 1;
        return m as unknown as PyValue;
      });
    case 'zeros_like':
      return builtin('np.zeros_like', (args, _k, l) => {
        const a = toArray(args[0] ?? null, l);
        return makeArray([...a.shape], a.isComplex, l) as unknown as PyValue;
      });
    case 'kron':
      return builtin('np.kron', (args, _k, l) => kron(toArray(args[0] ?? null, l), toArray(args[1] ?? null, l), l) as unknown as PyValue);
    case 'dot':
    case 'matmul':
      return builtin(`np.${name}`, (args, _k, l) => {
        const [a, b] = [args[0] ?? null, args[1] ?? null];
        if (isScalar(a) || isScalar(b)) return numericBinary('*', a, b, l) ?? toC(a, l)[0] * toC(b, l)[0];
        return matmul(toArray(a, l), toArray(b, l), l);
      });
    case 'vdot':
      return builtin('np.vdot', (args, _k, l) => {
        const a = toArray(args[0] ?? null, l);
        const b = toArray(args[1] ?? null, l);
        return matmul(new NdArray([a.size], conj(a).data, a.isComplex), new NdArray([b.size], b.data, b.isComplex), l);
      });
    case 'outer':
      return builtin('np.outer', (args, _k, l) => {
        const a = toArray(args[0] ?? null, l);
        const b = toArray(args[1] ?? null, l);
        return matmul(new NdArray([a.size, 1], a.data, a.isComplex), new NdArray([1, b.size], b.data, b.isComplex), l);
      });
    case 'diag':
      return builtin('np.diag', (args, _k, l) => {
        const a = toArray(args[0] ?? null, l);
        if (a.shape.length === 1) {
          const n = a.size;
          const m = makeArray([n, n], a.isComplex, l);
          for (let i = 0; i < n; i++) {
            m.data[2 * (i * n + i)] = a.data[2 * i];
            m.data[2 * (i * n + i) + 1] = a.data[2 * i + 1];
          }
          return m as unknown as PyValue;
        }
        if (a.shape.length !== 2) throw semanticError(l, 'np.diag takes a vector or a matrix');
        const n = Math.min(a.shape[0], a.shape[1]);
        const v = makeArray([n], a.isComplex, l);
        for (let i = 0; i < n; i++) {
          v.data[2 * i] = a.data[2 * (i * a.shape[1] + i)];
          v.data[2 * i + 1] = a.data[2 * (i * a.shape[1] + i) + 1];
        }
        return v as unknown as PyValue;
      });
    case 'conj':
    case 'conjugate':
      return builtin(`np.${name}`, (args, _k, l) => {
        const x = args[0] ?? null;
        if (isScalar(x)) {
          const [re, im] = toC(x, l);
          return x instanceof PyComplex ? (new PyComplex(re, -im) as unknown as PyValue) : re;
        }
        return conj(toArray(x, l)) as unknown as PyValue;
      });
    case 'real':
    case 'imag':
      return builtin(`np.${name}`, (args, _k, l) => {
        const x = args[0] ?? null;
        if (isScalar(x)) return toC(x, l)[name === 'real' ? 0 : 1];
        return map(toArray(x, l), ([re, im]) => [name === 'real' ? re : im, 0], false) as unknown as PyValue;
      });
    case 'abs':
    case 'absolute':
      return builtin(`np.${name}`, (args, _k, l) => numericAbs(seq(args[0] ?? null, l) ? (toArray(args[0], l) as unknown as PyValue) : (args[0] ?? null), l));
    case 'angle':
      return builtin('np.angle', (args, _k, l) => {
        const x = args[0] ?? null;
        if (isScalar(x)) {
          const [re, im] = toC(x, l);
          return Math.atan2(im, re);
        }
        return map(toArray(x, l), ([re, im]) => [Math.atan2(im, re), 0], false) as unknown as PyValue;
      });
    case 'transpose':
      return builtin('np.transpose', (args, _k, l) => transpose(toArray(args[0] ?? null, l)) as unknown as PyValue);
    case 'trace':
      return builtin('np.trace', (args, _k, l) => {
        const a = toArray(args[0] ?? null, l);
        if (a.shape.length !== 2) throw semanticError(l, 'np.trace takes a matrix');
        let re = 0;
        let im = 0;
        for (let i = 0; i < Math.min(a.shape[0], a.shape[1]); i++) {
          re += a.data[2 * (i * a.shape[1] + i)];
          im += a.data[2 * (i * a.shape[1] + i) + 1];
        }
        return scalar([re, im], a.isComplex);
      });
    case 'sum':
      return builtin('np.sum', (args, _k, l) => sumAll(toArray(args[0] ?? null, l)));
    case 'allclose':
      return builtin('np.allclose', (args, k, l) => {
        const a = toArray(args[0] ?? null, l);
        const b = toArray(args[1] ?? null, l);
        const atol = typeof k.get('atol') === 'number' ? (k.get('atol') as number) : 1e-8;
        const d = elementwise('-', a, b, l);
        for (let i = 0; i < d.size; i++)
          if (Math.hypot(d.data[2 * i], d.data[2 * i + 1]) > atol + 1e-5 * Math.hypot(b.data[2 * (i % b.size)], b.data[2 * (i % b.size) + 1])) return false;
        return true;
      });
    case 'arange':
    case 'linspace':
      return builtin(`np.${name}`, (args, k, l) => {
        const nums = args.map((a) => toC(a, l, `an argument of np.${name}`)[0]);
        let values: number[];
        if (name === 'arange') {
          const [start, stop, step] = nums.length === 1 ? [0, nums[0], 1] : [nums[0], nums[1], nums[2] ?? 1];
          if (step === 0) throw semanticError(l, 'np.arange step must not be zero');
          const n = Math.max(0, Math.ceil((stop - start) / step));
          checkArrayElements(n, l);
          values = Array.from({ length: n }, (_, i) => start + i * step);
        } else {
          const num = nums[2] ?? (typeof k.get('num') === 'number' ? (k.get('num') as number) : 50);
          checkArrayElements(num, l);
          const endpoint = k.get('endpoint') !== false;
          const div = endpoint ? num - 1 : num;
          values = Array.from({ length: num }, (_, i) => (div === 0 ? nums[0] : nums[0] + ((nums[1] - nums[0]) * i) / div));
        }
        return toArray(values, l);
      });
    case 'complex128':
    case 'complex64':
    case 'complex_':
      return builtin(`np.${name}`, (args, _k, l) => new PyComplex(...toC(args[0] ?? 0, l)) as unknown as PyValue);
    case 'float64':
    case 'float32':
      return builtin(`np.${name}`, (args, _k, l) => toC(args[0] ?? 0, l)[0]);
  }
  return undefined;
}

/** `cmath.<name>`: complex results always, like Python's cmath. */
export function cmathAttr(name: string, _line: number): PyValue | undefined {
  if (name in ELEMENTWISE) return npElementwise('cmath', name, ELEMENTWISE[name]);
  switch (name) {
    case 'pi':
      return Math.PI;
    case 'e':
      return Math.E;
    case 'tau':
      return 2 * Math.PI;
    case 'phase':
      return builtin('cmath.phase', (args, _k, l) => {
        const [re, im] = toC(args[0] ?? null, l, 'a number for cmath.phase');
        return Math.atan2(im, re);
      });
    case 'polar':
      return builtin('cmath.polar', (args, _k, l) => {
        const [re, im] = toC(args[0] ?? null, l, 'a number for cmath.polar');
        return new PyTuple([Math.hypot(re, im), Math.atan2(im, re)]);
      });
    case 'rect':
      return builtin('cmath.rect', (args, _k, l) => {
        const r = toC(args[0] ?? null, l, 'the modulus')[0];
        const phi = toC(args[1] ?? null, l, 'the phase')[0];
        return new PyComplex(r * Math.cos(phi), r * Math.sin(phi)) as unknown as PyValue;
      });
  }
  return undefined;
}

/** The `complex(re, im)` builtin. */
export function complexBuiltin(): PyBuiltin {
  return {
    kind: 'builtin',
    name: 'complex',
    call: (args, kwargs, line) => {
      const a = toC(args[0] ?? kwargs.get('real') ?? 0, line, 'the real part of complex()');
      const b = toC(args[1] ?? kwargs.get('imag') ?? 0, line, 'the imaginary part of complex()');
      return new PyComplex(a[0] - b[1], a[1] + b[0]) as unknown as PyValue;
    },
  };
}

/** A square matrix (interleaved re/im, row-major) from a Python value. */
export function toMatrix(v: PyValue, line: number, what: string): Matrix {
  const a = toArray(v, line);
  if (a.shape.length !== 2 || a.shape[0] !== a.shape[1]) throw semanticError(line, `${what} must be a square matrix; got shape ${shapeText(a)}`);
  return a.data;
}

/** A vector of complex amplitudes from a Python value. */
export function toVector(v: PyValue, line: number, what: string): C[] {
  const a = toArray(v, line);
  if (a.shape.length !== 1 && !(a.shape.length === 2 && (a.shape[0] === 1 || a.shape[1] === 1)))
    throw semanticError(line, `${what} must be a vector; got shape ${shapeText(a)}`);
  return Array.from({ length: a.size }, (_, i) => [a.data[2 * i], a.data[2 * i + 1]] as C);
}
