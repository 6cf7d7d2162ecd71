import { elementCount } from './nd-array.js';

/** C-order (row-major) strides in elements. */
export function rowMajorStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    strides[d] = step;
    step *= shape[d];
  }
  return strides;
}

/** Fortran-order (column-major) strides in elements. */
export function columnMajorStrides(shape: readonly number[]): number[] {
  const strides = new Array<number>(shape.length);
  let step = 1;
  for (let d = 0; d < shape.length; d++) {
    strides[d] = step;
    step *= shape[d];
  }
  return strides;
}

/** True when the view walks memory exactly like a C-order array (size-1 dims may carry any stride). */
export function isRowMajor(shape: readonly number[], strides: readonly number[]): boolean {
  let step = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    if (shape[d] !== 1 && strides[d] !== step) return false;
    step *= shape[d];
  }
  return true;
}

/**
 * Copies the strided view (`offset`, `shape`, `strides`, all in elements) of `source` into a new
 * C-order array. The caller has checked that every index the view touches lies inside `source`.
 */
export function gatherStrided(source: Float64Array, offset: number, shape: readonly number[], strides: readonly number[]): Float64Array {
  const count = elementCount(shape);
  const out = new Float64Array(count);
  const ndim = shape.length;
  if (count === 0) return out;
  if (ndim === 0) {
    out[0] = source[offset];
    return out;
  }
  const innerSize = shape[ndim - 1];
  const innerStride = strides[ndim - 1];
  const counter = new Array<number>(ndim - 1).fill(0);
  let base = offset;
  let o = 0;
  for (let row = count / innerSize; row > 0; row--) {
    for (let j = 0, p = base; j < innerSize; j++, p += innerStride) out[o++] = source[p];
    // Odometer step over the outer dimensions.
    for (let d = ndim - 2; d >= 0; d--) {
      base += strides[d];
      if (++counter[d] < shape[d]) break;
      base -= strides[d] * shape[d];
      counter[d] = 0;
    }
  }
  return out;
}
