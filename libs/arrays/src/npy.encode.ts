import { itemSize } from './element-decoding.js';
import { encodeElements } from './element-encoding.js';
import { elementCount, formatShape, type DType } from './nd-array.js';
import { NPY_MAGIC } from './npy-header.js';
import { gatherStrided, rowMajorStrides } from './strided-gather.js';

export interface EncodeNpyOptions {
  /** Element type written to the file; default 'f8'. */
  dtype?: DType;
  /** Write the data column-major (the input is always C order); default false. */
  fortranOrder?: boolean;
  /** Default false (little endian). */
  bigEndian?: boolean;
  /** .npy format version; default 1. */
  version?: 1 | 2 | 3;
}

// NumPy pads the header so the data starts on a 64-byte boundary, letting readers map it aligned.
const ALIGNMENT = 64;

function pythonTuple(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(', ')})`;
}

/**
 * Encodes a C-order array as a .npy file NumPy can `np.load`. Throws RangeError when
 * `data.length` does not match the shape or a v1 header would not fit its 16-bit length.
 */
export function encodeNpy(array: { shape: number[]; data: ArrayLike<number> }, options: EncodeNpyOptions = {}): Uint8Array {
  const { dtype = 'f8', fortranOrder = false, bigEndian = false, version = 1 } = options;
  const { shape, data } = array;
  if (!shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
    throw new RangeError(`expected a shape of non-negative integers; got ${formatShape(shape)}`);
  }
  if (data.length !== elementCount(shape)) {
    throw new RangeError(`expected ${elementCount(shape)} values for shape ${formatShape(shape)}; got ${data.length}`);
  }

  const order = itemSize(dtype) === 1 ? '|' : bigEndian ? '>' : '<';
  const dict = `{'descr': '${order}${dtype}', 'fortran_order': ${fortranOrder ? 'True' : 'False'}, 'shape': ${pythonTuple(shape)}, }`;
  const prefixLength = NPY_MAGIC.length + 2 + (version === 1 ? 2 : 4);
  // +1 for the terminating newline, which NumPy requires to end the padded header.
  const padding = (ALIGNMENT - ((prefixLength + dict.length + 1) % ALIGNMENT)) % ALIGNMENT;
  const header = `${dict}${' '.repeat(padding)}\n`;
  const headerBytes = new TextEncoder().encode(header);
  if (version === 1 && headerBytes.length > 0xffff) {
    throw new RangeError(`a version 1 .npy header holds at most 65535 bytes; this one needs ${headerBytes.length} (use version 2)`);
  }

  const values = fortranOrder && shape.length > 1 ? fortranValues(data, shape) : data;
  const body = encodeElements(values, dtype, !bigEndian);

  const out = new Uint8Array(prefixLength + headerBytes.length + body.length);
  out.set(NPY_MAGIC, 0);
  out[6] = version;
  out[7] = 0;
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, headerBytes.length, true);
  else view.setUint32(8, headerBytes.length, true);
  out.set(headerBytes, prefixLength);
  out.set(body, prefixLength + headerBytes.length);
  return out;
}

/** Reorders C-order values into column-major order: read the C array through transposed strides. */
function fortranValues(data: ArrayLike<number>, shape: readonly number[]): Float64Array {
  const reversed = [...shape].reverse();
  const strides = rowMajorStrides(shape).reverse();
  return gatherStrided(Float64Array.from(data), 0, reversed, strides);
}
