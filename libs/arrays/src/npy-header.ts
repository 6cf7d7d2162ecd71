import { ArrayDecodeError, NPY_ERROR } from './array-decode-error.js';
import { MAX_ELEMENTS } from './decode-limits.js';
import { DTYPES, type DType } from './nd-array.js';
import { parsePyLiteral, PyLiteralSyntaxError, type PyLiteral } from './python-literal.js';

/** `\x93NUMPY`, the first six bytes of every .npy file. */
export const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59] as const;

export interface NpyHeader {
  dtype: DType;
  littleEndian: boolean;
  fortranOrder: boolean;
  shape: number[];
}

const HEADER_EXAMPLE = "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }";
const SUPPORTED = DTYPES.join(' ');

/** Quotes at most `max` characters of untrusted text for an error message. */
export function snippet(text: string, max = 80): string {
  const cut = text.length > max ? `${text.slice(0, max)}...` : text;
  return JSON.stringify(cut);
}

function fail(message: string): never {
  throw new ArrayDecodeError(message, NPY_ERROR);
}

/**
 * The header exactly as NumPy writes it (`numpy.lib.format._write_array_header`: these keys in this order, `repr`
 * spacing, a trailing `, }`, space padding and a newline), read with one regular expression: the general literal
 * parser below costs ~0.1 ms per header, a tenth of a small run's gateway CPU. Anything spelled otherwise goes
 * through that parser, which gives the same answer or the error.
 */
const DIM = '(?:0|[1-9]\\d{0,14})';
const NUMPY_WRITTEN = new RegExp(`^\\{'descr': '([^'\\\\]*)', 'fortran_order': (True|False), 'shape': \\((|${DIM},|${DIM}(?:, ${DIM})+)\\), \\} *\\n?$`);

/** Parses the header dict of a .npy file: `{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`. */
export function parseNpyHeader(text: string): NpyHeader {
  const written = NUMPY_WRITTEN.exec(text);
  if (written) {
    const dims = written[3]!
      .split(',')
      .filter((d) => d !== '')
      .map(Number);
    return { ...parseDescr({ kind: 'str', value: written[1]! }), fortranOrder: written[2] === 'True', shape: boundedShape(dims) };
  }
  let literal: PyLiteral;
  try {
    literal = parsePyLiteral(text);
  } catch (error) {
    if (!(error instanceof PyLiteralSyntaxError)) throw error;
    fail(`expected a .npy header dict like ${HEADER_EXAMPLE}; got ${snippet(text.trim())} (${error.message})`);
  }
  if (literal.kind !== 'dict') {
    fail(`expected a .npy header dict like ${HEADER_EXAMPLE}; got ${snippet(text.trim())}`);
  }
  const fields = new Map<string, PyLiteral>();
  for (const [key, value] of literal.entries) {
    if (key.kind !== 'str') fail(`expected .npy header keys to be strings; got ${snippet(text.trim())}`);
    fields.set(key.value, value);
  }
  const keys = [...fields.keys()].sort();
  if (keys.join() !== 'descr,fortran_order,shape') {
    fail(`expected .npy header keys 'descr', 'fortran_order', 'shape'; got ${keys.map((k) => `'${k}'`).join(', ') || 'none'}`);
  }

  const fortranOrder = fields.get('fortran_order')!;
  if (fortranOrder.kind !== 'bool') fail(`expected 'fortran_order' to be True or False in the .npy header; got ${snippet(text.trim())}`);
  return {
    ...parseDescr(fields.get('descr')!),
    fortranOrder: fortranOrder.value,
    shape: parseShape(fields.get('shape')!, text),
  };
}

function parseDescr(descr: PyLiteral): { dtype: DType; littleEndian: boolean } {
  if (descr.kind === 'list') fail(`expected a numeric dtype (${SUPPORTED}); got a structured dtype (record fields)`);
  if (descr.kind !== 'str') fail(`expected a dtype string such as '<f8' in the .npy header; got a ${descr.kind}`);
  const match = /^([<>|=]?)([a-zA-Z?])(\d*)$/.exec(descr.value);
  if (!match) fail(`expected a numeric dtype (${SUPPORTED}); got ${snippet(descr.value, 20)}`);
  const [, order, kind, size] = match;
  if (kind === 'O') {
    fail(`expected a numeric dtype (${SUPPORTED}); got object dtype '${descr.value}' (pickled Python objects are not accepted)`);
  }
  const dtype = kind === '?' && size === '' ? 'b1' : `${kind}${size}`;
  if (!(DTYPES as readonly string[]).includes(dtype)) fail(`expected a numeric dtype (${SUPPORTED}); got '${descr.value}'`);
  // NumPy writes '<' or '>' for multi-byte types; '=' (native) is read as little endian, the order of
  // every platform that realistically produces these files; '|' appears only on single-byte types.
  return { dtype: dtype as DType, littleEndian: order !== '>' };
}

function parseShape(shape: PyLiteral, text: string): number[] {
  if (shape.kind !== 'tuple') fail(`expected 'shape' to be a tuple of non-negative integers in the .npy header; got ${snippet(text.trim())}`);
  const dims = shape.items.map((item) => {
    if (item.kind !== 'int' || item.value < 0) {
      fail(`expected 'shape' to be a tuple of non-negative integers in the .npy header; got ${snippet(text.trim())}`);
    }
    return item.value;
  });
  return boundedShape(dims);
}

function boundedShape(dims: number[]): number[] {
  let count = 1;
  for (const d of dims) count *= d;
  // The per-dimension check keeps the product finite enough to compare (no Infinity * 0 = NaN).
  if (dims.some((d) => d > MAX_ELEMENTS) || count > MAX_ELEMENTS) {
    fail(`expected at most ${MAX_ELEMENTS} elements; got shape (${dims.join(', ')})`);
  }
  return dims;
}
