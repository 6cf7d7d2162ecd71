import { HOST_LITTLE_ENDIAN, itemSize, swapBytes } from './element-decoding.js';
import type { DType } from './nd-array.js';

/** Rounds to the nearest integer, ties to even (IEEE default rounding). */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** number → IEEE 754 binary16 bits, rounding to nearest even directly from float64 (no double rounding). */
export function numberToHalf(value: number): number {
  if (Number.isNaN(value)) return 0x7e00;
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const a = Math.abs(value);
  // 65520 is halfway between the largest half (65504) and 2^16; ties to even go to infinity.
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | roundHalfEven(a * 2 ** 24); // subnormal; 1024 carries into the smallest normal
  let exponent = Math.floor(Math.log2(a));
  if (2 ** exponent > a) exponent--;
  else if (2 ** (exponent + 1) <= a) exponent++;
  let fraction = roundHalfEven((a / 2 ** exponent - 1) * 1024);
  if (fraction === 1024) {
    fraction = 0;
    exponent++;
  }
  if (exponent > 15) return sign | 0x7c00;
  return sign | ((exponent + 15) << 10) | fraction;
}

/**
 * Packs numbers as `dtype` items. Integer dtypes truncate toward zero and wrap like
 * typed arrays do (NaN/±Inf become 0); bool stores any non-zero value (and NaN) as 1.
 */
export function encodeElements(values: ArrayLike<number>, dtype: DType, littleEndian: boolean): Uint8Array {
  const count = values.length;
  let out: Uint8Array;
  switch (dtype) {
    case 'f8':
      out = new Uint8Array(Float64Array.from(values).buffer);
      break;
    case 'f4':
      out = new Uint8Array(Float32Array.from(values).buffer);
      break;
    case 'f2': {
      const bits = new Uint16Array(count);
      for (let i = 0; i < count; i++) bits[i] = numberToHalf(values[i]);
      out = new Uint8Array(bits.buffer);
      break;
    }
    case 'i1':
      out = new Uint8Array(Int8Array.from(values).buffer);
      break;
    case 'i2':
      out = new Uint8Array(Int16Array.from(values).buffer);
      break;
    case 'i4':
      out = new Uint8Array(Int32Array.from(values).buffer);
      break;
    case 'u1':
      out = Uint8Array.from(values);
      break;
    case 'u2':
      out = new Uint8Array(Uint16Array.from(values).buffer);
      break;
    case 'u4':
      out = new Uint8Array(Uint32Array.from(values).buffer);
      break;
    case 'i8':
    case 'u8': {
      const ints = dtype === 'i8' ? new BigInt64Array(count) : new BigUint64Array(count);
      for (let i = 0; i < count; i++) {
        const v = values[i];
        // BigInt64Array/BigUint64Array stores wrap modulo 2^64, matching the narrower typed arrays.
        ints[i] = Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n;
      }
      out = new Uint8Array(ints.buffer);
      break;
    }
    case 'b1': {
      out = new Uint8Array(count);
      for (let i = 0; i < count; i++) out[i] = values[i] !== 0 ? 1 : 0;
      break;
    }
  }
  if (littleEndian !== HOST_LITTLE_ENDIAN) swapBytes(out, itemSize(dtype));
  return out;
}
