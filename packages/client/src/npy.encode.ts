/**
 * A NumPy `.npy` (format version 1) encoder for uploads: little-endian, C order, the element type of the typed
 * array given (numbers and nested number arrays as float64). Browser-safe: typed arrays, DataView and TextEncoder
 * only. Format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 */

export type NumericTypedArray =
  | Float64Array
  | Float32Array
  | Int8Array
  | Int16Array
  | Int32Array
  | Uint8Array
  | Uint8ClampedArray
  | Uint16Array
  | Uint32Array
  | BigInt64Array
  | BigUint64Array;

/** A flat C-order array with its shape, e.g. `{ data: new Float32Array(16 * 16), shape: [16, 16] }`. */
export interface ShapedArray {
  data: NumericTypedArray | readonly number[];
  shape: readonly number[];
}

/** `number[]`, `number[][]`, … (rectangular). */
export type NestedNumbers = readonly number[] | readonly NestedNumbers[];

/** What `encodeNpy` takes: a shaped array, a typed array (1-D) or nested number arrays. */
export type NpyEncodable = ShapedArray | NumericTypedArray | NestedNumbers;

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
/** NumPy pads the header so the data starts on a 64-byte boundary. */
const ALIGNMENT = 64;
/** Magic (6) + version (2) + header length (uint16). */
const PREFIX_BYTES = 10;

interface Layout {
  descr: string;
  itemBytes: number;
  write: (view: DataView, offset: number, value: number | bigint) => void;
}

function layoutOf(data: NumericTypedArray | readonly number[]): Layout {
  if (data instanceof Float64Array || Array.isArray(data)) return { descr: '<f8', itemBytes: 8, write: (v, o, x) => v.setFloat64(o, Number(x), true) };
  if (data instanceof Float32Array) return { descr: '<f4', itemBytes: 4, write: (v, o, x) => v.setFloat32(o, Number(x), true) };
  if (data instanceof Int32Array) return { descr: '<i4', itemBytes: 4, write: (v, o, x) => v.setInt32(o, Number(x), true) };
  if (data instanceof Int16Array) return { descr: '<i2', itemBytes: 2, write: (v, o, x) => v.setInt16(o, Number(x), true) };
  if (data instanceof Int8Array) return { descr: '|i1', itemBytes: 1, write: (v, o, x) => v.setInt8(o, Number(x)) };
  if (data instanceof Uint32Array) return { descr: '<u4', itemBytes: 4, write: (v, o, x) => v.setUint32(o, Number(x), true) };
  if (data instanceof Uint16Array) return { descr: '<u2', itemBytes: 2, write: (v, o, x) => v.setUint16(o, Number(x), true) };
  if (data instanceof Uint8Array || data instanceof Uint8ClampedArray) return { descr: '|u1', itemBytes: 1, write: (v, o, x) => v.setUint8(o, Number(x)) };
  if (data instanceof BigInt64Array) return { descr: '<i8', itemBytes: 8, write: (v, o, x) => v.setBigInt64(o, BigInt(x), true) };
  if (data instanceof BigUint64Array) return { descr: '<u8', itemBytes: 8, write: (v, o, x) => v.setBigUint64(o, BigInt(x), true) };
  throw new TypeError(`cannot encode ${Object.prototype.toString.call(data)} as .npy; expected a typed array or numbers`);
}

function isTypedArray(value: unknown): value is NumericTypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

/** Shape and C-order values of nested arrays; throws on ragged or non-numeric input, naming where. */
function flattenNested(input: NestedNumbers): { shape: number[]; data: Float64Array } {
  const shape: number[] = [];
  for (let level: unknown = input; Array.isArray(level); level = level[0]) {
    shape.push(level.length);
    if (level.length === 0) break;
  }
  const data = new Float64Array(shape.reduce((n, d) => n * d, 1));
  let next = 0;
  const walk = (node: unknown, depth: number, path: string): void => {
    if (depth === shape.length) {
      if (typeof node !== 'number') throw new TypeError(`expected a number at ${path || 'the top'}; got ${Array.isArray(node) ? 'an array' : typeof node}`);
      data[next++] = node;
      return;
    }
    if (!Array.isArray(node) || node.length !== shape[depth])
      throw new TypeError(
        `expected a rectangular array of shape [${shape.join(', ')}]: ${path || 'the top'} should have ${shape[depth]} elements; got ${Array.isArray(node) ? node.length : typeof node}`,
      );
    for (let i = 0; i < node.length; i++) walk(node[i], depth + 1, `${path}[${i}]`);
  };
  walk(input, 0, '');
  return { shape, data };
}

function normalise(input: NpyEncodable): { shape: readonly number[]; data: NumericTypedArray | readonly number[] } {
  if (isTypedArray(input)) return { shape: [input.length], data: input };
  if (Array.isArray(input)) return flattenNested(input as NestedNumbers);
  const shaped = input as ShapedArray;
  if (shaped && typeof shaped === 'object' && 'shape' in shaped && 'data' in shaped) return shaped;
  throw new TypeError('expected a typed array, nested number arrays or { data, shape }');
}

function pythonTuple(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

const littleEndianPlatform = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Encodes an array as a `.npy` file (version 1) that `np.load` and QDC read. Throws RangeError when the data do not
 * fill the shape.
 */
export function encodeNpy(input: NpyEncodable): Uint8Array {
  const { shape, data } = normalise(input);
  if (!shape.every((d) => Number.isSafeInteger(d) && d >= 0)) throw new RangeError(`expected a shape of non-negative integers; got [${shape.join(', ')}]`);
  const count = shape.reduce((n, d) => n * d, 1);
  if (data.length !== count) throw new RangeError(`expected ${count} values for shape [${shape.join(', ')}]; got ${data.length}`);
  const layout = layoutOf(data);

  const dict = `{'descr': '${layout.descr}', 'fortran_order': False, 'shape': ${pythonTuple(shape)}, }`;
  // +1: the newline that ends the padded header.
  const padding = (ALIGNMENT - ((PREFIX_BYTES + dict.length + 1) % ALIGNMENT)) % ALIGNMENT;
  const header = new TextEncoder().encode(`${dict}${' '.repeat(padding)}\n`);
  if (header.length > 0xffff) throw new RangeError(`a version 1 .npy header holds at most 65535 bytes; this shape needs ${header.length}`);

  const dataOffset = PREFIX_BYTES + header.length;
  const out = new Uint8Array(dataOffset + count * layout.itemBytes);
  out.set(MAGIC, 0);
  out[6] = 1;
  out[7] = 0;
  const view = new DataView(out.buffer);
  view.setUint16(8, header.length, true);
  out.set(header, PREFIX_BYTES);
  if (isTypedArray(data) && (littleEndianPlatform || layout.itemBytes === 1)) {
    out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), dataOffset);
  } else {
    for (let i = 0; i < count; i++) layout.write(view, dataOffset + i * layout.itemBytes, data[i]!);
  }
  return out;
}

/** True when the bytes start with the `.npy` magic. */
export function isNpy(bytes: Uint8Array): boolean {
  return MAGIC.every((b, i) => bytes[i] === b);
}
