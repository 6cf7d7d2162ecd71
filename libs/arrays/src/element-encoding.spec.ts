import { decodeElements, halfToNumber } from './element-decoding.js';
import { encodeElements, numberToHalf } from './element-encoding.js';

describe(numberToHalf.name, () => {
  it('round-trips every finite and infinite half bit pattern exactly', () => {
    // One assertion over all 65 536 patterns (an expect per pattern took 15 s): the list of mismatches must be empty.
    const mismatches: string[] = [];
    for (let bits = 0; bits < 0x10000; bits++) {
      const value = halfToNumber(bits);
      const expected = Number.isNaN(value) ? 0x7e00 : bits;
      if (numberToHalf(value) !== expected) mismatches.push(`0x${bits.toString(16)} → ${value} → 0x${numberToHalf(value).toString(16)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('decodes the landmark values of IEEE 754 binary16', () => {
    expect(halfToNumber(0x3c00)).toBe(1);
    expect(halfToNumber(0xc000)).toBe(-2);
    expect(halfToNumber(0x7bff)).toBe(65504);
    expect(halfToNumber(0x0001)).toBe(2 ** -24);
    expect(halfToNumber(0x0400)).toBe(2 ** -14);
    expect(halfToNumber(0x7c00)).toBe(Infinity);
    expect(halfToNumber(0xfc00)).toBe(-Infinity);
    expect(Object.is(halfToNumber(0x8000), -0)).toBe(true);
  });

  it('rounds to nearest, ties to even, and overflows to infinity past 65520', () => {
    expect(numberToHalf(1 + 2 ** -11)).toBe(0x3c00); // tie between 1 and 1+2^-10 → even (1)
    expect(numberToHalf(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie → even mantissa 2
    expect(numberToHalf(1 + 2 ** -11 + 2 ** -30)).toBe(0x3c01); // just above the tie
    expect(numberToHalf(65519.99)).toBe(0x7bff);
    expect(numberToHalf(65520)).toBe(0x7c00);
    expect(numberToHalf(-1e9)).toBe(0xfc00);
    expect(numberToHalf(2 ** -25)).toBe(0); // tie between 0 and the smallest subnormal → 0
    expect(numberToHalf(2 ** -25 * 3)).toBe(2); // tie between 1 and 2 subnormal units → 2
    expect(numberToHalf(2 ** -14 - 2 ** -26)).toBe(0x0400); // rounds up into the smallest normal
  });
});

describe(encodeElements.name, () => {
  it('wraps and truncates integers like typed arrays, NaN → 0', () => {
    const bytes = encodeElements([1.9, -1.9, 300, NaN], 'i1', true);
    expect(Array.from(new Int8Array(bytes.buffer))).toEqual([1, -1, 44, 0]);
  });

  it('stores any non-zero value (and NaN) as true for bool', () => {
    expect(Array.from(encodeElements([0, 2, -0.5, NaN, -0], 'b1', true))).toEqual([0, 1, 1, 1, 0]);
  });

  it('round-trips 64-bit integers through decodeElements, exact up to 2^53', () => {
    const values = [0, -1, 2 ** 53, -(2 ** 53), 2 ** 63, -(2 ** 63), 123456789012345];
    const signed = values.filter((v) => v < 2 ** 63);
    expect(Array.from(decodeElements(encodeElements(signed, 'i8', false), 'i8', false))).toEqual(signed);
    const unsigned = [0, 1, 2 ** 53, 2 ** 64 - 2 ** 12, 4294967296 + 7];
    expect(Array.from(decodeElements(encodeElements(unsigned, 'u8', true), 'u8', true))).toEqual(unsigned);
  });
});
