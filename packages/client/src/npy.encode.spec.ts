import { decodeNpy } from '#qdc/arrays';
import { encodeNpy, isNpy } from './npy.encode.js';

/** Round trips through the server's own reader (libs/arrays), which follows NumPy's format description. */
describe('encodeNpy', () => {
  it('writes a number[] as a 1-D float64 array the server reads back exactly', () => {
    const values = [0, 1.5, -2.25, Math.PI, 1e-300, -1e300];
    const bytes = encodeNpy(values);
    expect(isNpy(bytes)).toBe(true);
    expect(bytes[6]).toBe(1); // format version 1
    const decoded = decodeNpy(bytes);
    expect(decoded.shape).toEqual([6]);
    expect(decoded.dtype).toBe('f8');
    expect([...decoded.data]).toEqual(values);
  });

  it('writes nested arrays in C order with their shape', () => {
    const matrix = [
      [1, 2, 3],
      [4, 5, 6],
    ];
    const decoded = decodeNpy(encodeNpy(matrix));
    expect(decoded.shape).toEqual([2, 3]);
    expect([...decoded.data]).toEqual([1, 2, 3, 4, 5, 6]);
    const cube = decodeNpy(
      encodeNpy([
        [[1], [2]],
        [[3], [4]],
      ]),
    );
    expect(cube.shape).toEqual([2, 2, 1]);
    expect([...cube.data]).toEqual([1, 2, 3, 4]);
  });

  it.each([
    ['f4', new Float32Array([1.5, -2, 3.25, 0])],
    ['f8', new Float64Array([1.5, -2, 3.25, 0])],
    ['i1', new Int8Array([-128, 0, 1, 127])],
    ['i2', new Int16Array([-32768, 0, 1, 32767])],
    ['i4', new Int32Array([-2147483648, 0, 1, 2147483647])],
    ['u1', new Uint8Array([0, 1, 128, 255])],
    ['u2', new Uint16Array([0, 1, 40000, 65535])],
    ['u4', new Uint32Array([0, 1, 3e9, 4294967295])],
    ['i8', new BigInt64Array([-5n, 0n, 1n, 2n ** 40n])],
    ['u8', new BigUint64Array([0n, 1n, 7n, 2n ** 50n])],
  ])('keeps the element type of a %s typed array with a shape', (dtype, data) => {
    const decoded = decodeNpy(encodeNpy({ data, shape: [2, 2] }));
    expect(decoded.dtype).toBe(dtype);
    expect(decoded.shape).toEqual([2, 2]);
    expect([...decoded.data]).toEqual([...data].map(Number));
  });

  it('encodes a bare typed array as 1-D and only the view (not the buffer behind it)', () => {
    const buffer = new Float64Array([9, 1, 2, 3, 9]);
    const view = buffer.subarray(1, 4);
    const decoded = decodeNpy(encodeNpy(view));
    expect(decoded.shape).toEqual([3]);
    expect([...decoded.data]).toEqual([1, 2, 3]);
  });

  it('pads the header so the data start on a 64-byte boundary and ends it with a newline', () => {
    for (const shape of [[7], [128], [16, 16], [2, 4, 5, 5, 3]]) {
      const count = shape.reduce((a, b) => a * b, 1);
      const bytes = encodeNpy({ data: new Float32Array(count), shape });
      const headerLength = bytes[8]! | (bytes[9]! << 8);
      expect((10 + headerLength) % 64).toBe(0);
      expect(bytes[10 + headerLength - 1]).toBe(0x0a);
      expect(bytes.length).toBe(10 + headerLength + 4 * count);
    }
  });

  it('writes a one-element shape as a Python 1-tuple', () => {
    const text = new TextDecoder().decode(encodeNpy([42]).subarray(10, 80));
    expect(text).toContain("'shape': (1,)");
    expect(text).toContain("'descr': '<f8'");
    expect(text).toContain("'fortran_order': False");
  });

  it('refuses ragged arrays, non-numbers and data that do not fill the shape, saying where', () => {
    expect(() => encodeNpy([[1, 2], [3]])).toThrow('[1] should have 2 elements; got 1');
    expect(() => encodeNpy([1, [2]] as unknown as number[])).toThrow('expected a number at [1]; got an array');
    expect(() => encodeNpy([1, 'x'] as unknown as number[])).toThrow('expected a number at [1]; got string');
    expect(() => encodeNpy({ data: new Float64Array(5), shape: [2, 3] })).toThrow('expected 6 values for shape [2, 3]; got 5');
    expect(() => encodeNpy({ data: [1], shape: [-1] })).toThrow('non-negative integers');
  });
});
