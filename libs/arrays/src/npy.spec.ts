import { expectedValues, manifest, readFixture } from '../test/fixture-manifest.js';
import { ArrayDecodeError } from './array-decode-error.js';
import { DTYPES, type DType } from './nd-array.js';
import { parseNpyHeader } from './npy-header.js';
import { decodeNpy } from './npy.decode.js';
import { encodeNpy } from './npy.encode.js';

function npyWithHeader(header: string, body: Uint8Array = new Uint8Array(0), version = 1): Uint8Array {
  const text = new TextEncoder().encode(header);
  const lengthSize = version === 1 ? 2 : 4;
  const out = new Uint8Array(8 + lengthSize + text.length + body.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, text.length, true);
  else view.setUint32(8, text.length, true);
  out.set(text, 8 + lengthSize);
  out.set(body, 8 + lengthSize + text.length);
  return out;
}

function decodeError(bytes: Uint8Array): ArrayDecodeError {
  try {
    decodeNpy(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ArrayDecodeError);
    return error as ArrayDecodeError;
  }
  throw new Error('expected decodeNpy to throw');
}

/** Values that are exactly representable in `dtype`, so a round trip must return them unchanged. */
function representable(dtype: DType, count: number): number[] {
  const pick: Record<DType, (i: number) => number> = {
    f2: (i) => [0.5, -2, 65504, 2 ** -24, 1.5, -0.25, i, -i][i % 8],
    f4: (i) => Math.fround(Math.sin(i) * 1e3),
    f8: (i) => Math.sin(i) * 1e6,
    i1: (i) => [-128, 127, 0, -1][i % 4] + (i % 4 === 2 ? i % 50 : 0),
    i2: (i) => [-32768, 32767, 0, -1][i % 4] + (i % 4 === 2 ? i : 0),
    i4: (i) => [-(2 ** 31), 2 ** 31 - 1, 0, -1][i % 4] + (i % 4 === 2 ? i * 1000 : 0),
    i8: (i) => [-(2 ** 63), 2 ** 53, 0, -1][i % 4] + (i % 4 === 2 ? i : 0),
    u1: (i) => [0, 255, 17][i % 3],
    u2: (i) => [0, 65535, 1234][i % 3],
    u4: (i) => [0, 2 ** 32 - 1, 99999][i % 3],
    u8: (i) => [0, 2 ** 63, 2 ** 53 + 2][i % 3],
    b1: (i) => (i % 3 === 0 ? 1 : 0),
  };
  return Array.from({ length: count }, (_, i) => pick[dtype](i));
}

describe(decodeNpy.name, () => {
  describe('fixtures written by NumPy', () => {
    const fixtures = manifest.arrays.filter((f) => f.format === 'npy');

    it('covers every dtype', () => {
      expect(new Set(fixtures.map((f) => f.dtype))).toEqual(new Set(DTYPES));
    });

    it.each(fixtures.map((f) => [f.file, f] as const))('%s decodes to the manifest values', (_, fixture) => {
      const sut = decodeNpy(readFixture(fixture.file));
      expect(sut.shape).toEqual(fixture.shape);
      expect(sut.dtype).toBe(fixture.dtype);
      expect(sut.data).toBeInstanceOf(Float64Array);
      expect(Array.from(sut.data)).toEqual(expectedValues(fixture));
    });
  });

  it('decodes data that is not aligned in its buffer (e.g. a Node Buffer slice)', () => {
    const file = readFixture('npy-f8-le-2d.npy');
    const shifted = new Uint8Array(file.length + 3);
    shifted.set(file, 3);
    const expected = decodeNpy(file);
    expect(decodeNpy(shifted.subarray(3))).toEqual(expected);
  });

  it('round-trips a (10000, 128) float64 array exactly (its speed is measured by bench:models, not here)', () => {
    const data = Float64Array.from({ length: 10000 * 128 }, (_, i) => i * 0.5 - 1e-300 * i);
    const sut = decodeNpy(encodeNpy({ shape: [10000, 128], data }));
    expect(sut.shape).toEqual([10000, 128]);
    expect(sut.data).toEqual(data);
  });

  describe('rejects', () => {
    it('a wrong magic, naming what came', () => {
      expect(decodeError(new Uint8Array([0x50, 0x4b, 5, 6, 0, 0])).message).toBe('expected a .npy file (magic \\x93NUMPY); got bytes starting 50 4b 05 06');
    });

    it('an unknown format version', () => {
      expect(decodeError(npyWithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(8), 4)).message).toContain(
        'expected .npy format version 1.0, 2.0 or 3.0; got 4.0',
      );
    });

    it('a header length running past the end of the file', () => {
      const bytes = npyWithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }");
      expect(decodeError(bytes.subarray(0, 30)).message).toMatch(/^truncated \.npy file: header says \d+ header bytes/);
    });

    it('a truncated body and trailing bytes, with the byte counts', () => {
      const file = encodeNpy({ shape: [2, 3], data: [1, 2, 3, 4, 5, 6] });
      expect(decodeError(file.subarray(0, file.length - 1)).message).toBe("truncated .npy file: expected 48 bytes of 'f8' data for shape [2, 3]; got 47");
      const longer = new Uint8Array(file.length + 2);
      longer.set(file);
      expect(decodeError(longer).message).toBe("expected 48 bytes of 'f8' data for shape [2, 3]; got 50");
    });

    it.each([
      ["{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", "got object dtype '|O'"],
      ["{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (2,), }", 'got a structured dtype'],
      ["{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }", "got '<c16'"],
      ["{'descr': '<U4', 'fortran_order': False, 'shape': (2,), }", "got '<U4'"],
      ["{'descr': '<f8', 'fortran_order': 0, 'shape': (2,), }", "expected 'fortran_order' to be True or False"],
      ["{'descr': '<f8', 'fortran_order': False, 'shape': [2], }", "expected 'shape' to be a tuple"],
      ["{'descr': '<f8', 'fortran_order': False, 'shape': (-2,), }", "expected 'shape' to be a tuple"],
      ["{'descr': '<f8', 'fortran_order': False, 'shape': (2.0,), }", 'expected a .npy header dict'],
      ["{'descr': '<f8', 'fortran_order': False}", "expected .npy header keys 'descr', 'fortran_order', 'shape'; got 'descr', 'fortran_order'"],
      ["{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'extra': 1}", "got 'descr', 'extra', 'fortran_order', 'shape'"],
      ["__import__('os').system('echo pwned')", 'expected a .npy header dict'],
      ["{'descr': '<f8', 'fortran_order': False, 'shape': (2,), ", 'expected a .npy header dict'],
      ['((((((((((((((((((((((((((((((((((((((((', 'nesting too deep'],
      ["{'descr': '<f8', 'fortran_order': False, 'shape': (65536, 65536), }", 'expected at most 2147483648 elements'],
    ])('header %s', (header, message) => {
      expect(decodeError(npyWithHeader(header, new Uint8Array(16))).message).toContain(message);
    });

    it('an empty array as value_error.empty', () => {
      const error = decodeError(npyWithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 0), }"));
      expect(error.type).toBe('value_error.empty');
      expect(error.message).toBe('expected a non-empty array; got shape [3, 0]');
    });

    it('a version 3 header that is not UTF-8', () => {
      const bytes = npyWithHeader("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", new Uint8Array(8), 3);
      bytes[20] = 0xff;
      expect(decodeError(bytes).message).toContain('invalid UTF-8');
    });
  });
});

describe(encodeNpy.name, () => {
  const shapes = [[], [5], [3, 4], [2, 3, 4]];

  it.each(
    DTYPES.flatMap((dtype) =>
      shapes.flatMap((shape) =>
        ([1, 2, 3] as const).flatMap((version) =>
          [false, true].flatMap((fortranOrder) => [false, true].map((bigEndian) => ({ dtype, shape, version, fortranOrder, bigEndian }))),
        ),
      ),
    ),
  )('round-trips $dtype shape $shape v$version fortran=$fortranOrder bigEndian=$bigEndian', (options) => {
    const { dtype, shape } = options;
    const data = representable(
      dtype,
      shape.reduce((a, b) => a * b, 1),
    );
    const file = encodeNpy({ shape, data }, options);
    const sut = decodeNpy(file);
    expect(sut).toEqual({ shape, dtype, data: Float64Array.from(data) });
  });

  it('writes NumPy layout: 64-byte aligned data, newline-terminated header, default <f8 C-order v1', () => {
    const file = encodeNpy({ shape: [2, 3], data: [1, 2, 3, 4, 5, 6] });
    const headerLength = file[8] | (file[9] << 8);
    const header = new TextDecoder().decode(file.subarray(10, 10 + headerLength));
    expect(file[6]).toBe(1);
    expect((10 + headerLength) % 64).toBe(0);
    expect(header.trimEnd()).toBe("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }");
    expect(header.endsWith('\n')).toBe(true);
    expect(file.length).toBe(10 + headerLength + 48);
  });

  it('writes 1-tuples with a trailing comma and 0-d shapes as ()', () => {
    const header = (shape: number[]) => new TextDecoder().decode(encodeNpy({ shape, data: new Array(shape.reduce((a, b) => a * b, 1)).fill(0) }));
    expect(header([4])).toContain("'shape': (4,)");
    expect(header([])).toContain("'shape': ()");
  });

  it('marks single-byte dtypes with | and multi-byte ones with their byte order', () => {
    const text = (dtype: DType, bigEndian: boolean) => new TextDecoder().decode(encodeNpy({ shape: [1], data: [1] }, { dtype, bigEndian }).subarray(0, 64));
    expect(text('u1', true)).toContain("'descr': '|u1'");
    expect(text('b1', false)).toContain("'descr': '|b1'");
    expect(text('i2', true)).toContain("'descr': '>i2'");
  });

  it('refuses data that does not match the shape', () => {
    expect(() => encodeNpy({ shape: [2, 2], data: [1, 2, 3] })).toThrow('expected 4 values for shape [2, 2]; got 3');
  });
});

describe(parseNpyHeader.name, () => {
  // NumPy's own spelling takes the quick path; every other spelling the general literal parser: the answers must agree.
  it.each([
    ["{'descr': '<f8', 'fortran_order': False, 'shape': (128,), }", { dtype: 'f8', littleEndian: true, fortranOrder: false, shape: [128] }],
    ["{'descr': '>i4', 'fortran_order': True, 'shape': (3, 4), }     \n", { dtype: 'i4', littleEndian: false, fortranOrder: true, shape: [3, 4] }],
    ["{'descr': '|u1', 'fortran_order': False, 'shape': (), }", { dtype: 'u1', littleEndian: true, fortranOrder: false, shape: [] }],
    ['{"descr": "<f8", "fortran_order": False, "shape": (128,)}', { dtype: 'f8', littleEndian: true, fortranOrder: false, shape: [128] }],
    ["{'shape': (2,3), 'descr': '<f4', 'fortran_order': False}", { dtype: 'f4', littleEndian: true, fortranOrder: false, shape: [2, 3] }],
  ])('reads %j', (text, header) => {
    expect(parseNpyHeader(text)).toEqual(header);
  });

  it.each([
    ["{'descr': '<f8', 'fortran_order': False, 'shape': (128), }", "expected 'shape' to be a tuple"],
    ["{'descr': '<f8', 'fortran_order': False, 'shape': (65536, 65536), }", 'expected at most 2147483648 elements'],
    ["{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", "got object dtype '|O'"],
    ["{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", 'integer 99999999999999999999 is too large'],
  ])('refuses %j as the general parser does', (text, message) => {
    expect(() => parseNpyHeader(text)).toThrow(message);
  });
});
