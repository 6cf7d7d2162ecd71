import type { DType } from './nd-array.js';

/** What one stored element is: a NumPy dtype, or bfloat16, which only torch files carry. */
export type ElementKind = DType | 'bf16';

export const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function itemSize(kind: ElementKind): number {
  return kind === 'bf16' ? 2 : Number(kind[1]);
}

/** IEEE 754 binary16 → number; exact (every half value is a double). */
export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

let halfTable: Float64Array | undefined;

/** 512 KiB lookup table, built on first use: turns half decoding into one load per element. */
function halfLookup(): Float64Array {
  if (!halfTable) {
    halfTable = new Float64Array(65536);
    for (let bits = 0; bits < 65536; bits++) halfTable[bits] = halfToNumber(bits);
  }
  return halfTable;
}

/** Reverses the byte order of every `size`-byte item, in place. */
export function swapBytes(bytes: Uint8Array, size: number): void {
  for (let i = 0; i + size <= bytes.length; i += size) {
    for (let lo = i, hi = i + size - 1; lo < hi; lo++, hi--) {
      const t = bytes[lo];
      bytes[lo] = bytes[hi];
      bytes[hi] = t;
    }
  }
}

/**
 * Converts packed elements to float64. `bytes.length` must be a multiple of the item size.
 * Typed-array views do the work; the input is copied only when it must be byte-swapped
 * or is not aligned for a view (e.g. a Node Buffer slice at an odd offset).
 */
export function decodeElements(bytes: Uint8Array, kind: ElementKind, littleEndian: boolean): Float64Array {
  const size = itemSize(kind);
  const count = bytes.length / size;
  let src = bytes;
  const copied = size > 1 && (littleEndian !== HOST_LITTLE_ENDIAN || bytes.byteOffset % size !== 0);
  if (copied) {
    // Not bytes.slice(): on a Node Buffer that is a view, not a copy.
    src = new Uint8Array(bytes);
    if (littleEndian !== HOST_LITTLE_ENDIAN) swapBytes(src, size);
  }
  const { buffer, byteOffset } = src;
  switch (kind) {
    case 'f8': {
      const view = new Float64Array(buffer, byteOffset, count);
      return copied ? view : view.slice();
    }
    case 'f4':
      return new Float64Array(new Float32Array(buffer, byteOffset, count));
    case 'f2': {
      const view = new Uint16Array(buffer, byteOffset, count);
      const table = halfLookup();
      const out = new Float64Array(count);
      for (let i = 0; i < count; i++) out[i] = table[view[i]];
      return out;
    }
    case 'bf16': {
      // bfloat16 is the top half of a float32.
      const view = new Uint16Array(buffer, byteOffset, count);
      const widened = new Uint32Array(count);
      for (let i = 0; i < count; i++) widened[i] = view[i] << 16;
      return new Float64Array(new Float32Array(widened.buffer));
    }
    case 'i1':
      return new Float64Array(new Int8Array(buffer, byteOffset, count));
    case 'i2':
      return new Float64Array(new Int16Array(buffer, byteOffset, count));
    case 'i4':
      return new Float64Array(new Int32Array(buffer, byteOffset, count));
    case 'u1':
      return new Float64Array(new Uint8Array(buffer, byteOffset, count));
    case 'u2':
      return new Float64Array(new Uint16Array(buffer, byteOffset, count));
    case 'u4':
      return new Float64Array(new Uint32Array(buffer, byteOffset, count));
    case 'i8':
    case 'u8':
      return decodeInt64(new Uint32Array(buffer, byteOffset, count * 2), kind === 'i8');
    case 'b1': {
      const out = new Float64Array(count);
      for (let i = 0; i < count; i++) out[i] = src[i] !== 0 ? 1 : 0;
      return out;
    }
  }
}

/** 64-bit integers from 32-bit halves (avoids a BigInt per element); exact up to 2^53, rounded beyond. */
function decodeInt64(words: Uint32Array, signed: boolean): Float64Array {
  const count = words.length / 2;
  // In host byte order the low word comes first on little-endian machines.
  const lowIndex = HOST_LITTLE_ENDIAN ? 0 : 1;
  const highIndex = 1 - lowIndex;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const low = words[2 * i + lowIndex];
    const high = words[2 * i + highIndex];
    out[i] = (signed ? high | 0 : high) * 4294967296 + low;
  }
  return out;
}
