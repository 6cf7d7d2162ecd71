import { ArrayDecodeError, EMPTY_ERROR } from './array-decode-error.js';

/** NumPy type codes (kind + item size in bytes) the decoders accept. */
export type DType = 'f2' | 'f4' | 'f8' | 'i1' | 'i2' | 'i4' | 'i8' | 'u1' | 'u2' | 'u4' | 'u8' | 'b1';

export const DTYPES: readonly DType[] = ['f2', 'f4', 'f8', 'i1', 'i2', 'i4', 'i8', 'u1', 'u2', 'u4', 'u8', 'b1'];

/** A decoded array: `data` is always C-order (row-major) float64; `dtype` is what the file stored. */
export interface NdArray {
  shape: number[];
  data: Float64Array;
  dtype: DType;
}

/** Product of the dimensions; 1 for a 0-d (scalar) shape. */
export function elementCount(shape: readonly number[]): number {
  let count = 1;
  for (const dim of shape) count *= dim;
  return count;
}

/** First flat (C-order) index holding NaN or ±Inf, or -1 when every value is finite. */
export function findNonFinite(a: NdArray): number {
  const data = a.data;
  for (let i = 0; i < data.length; i++) {
    // x - x is 0 for finite x and NaN for NaN/±Inf: one comparison per element.
    if (data[i] - data[i] !== 0) return i;
  }
  return -1;
}

export function formatShape(shape: readonly number[]): string {
  return `[${shape.join(', ')}]`;
}

/** Callers treat an empty array as unusable input, so the decoders reject it up front. */
export function assertNonEmpty(shape: readonly number[]): void {
  if (shape.includes(0)) {
    throw new ArrayDecodeError(`expected a non-empty array; got shape ${formatShape(shape)}`, EMPTY_ERROR);
  }
}
