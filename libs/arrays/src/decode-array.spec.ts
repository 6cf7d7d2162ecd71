import { expectedValues, manifest, readFixture } from '../test/fixture-manifest.js';
import { ArrayDecodeError, decodeArray, encodeNpy } from './index.js';

function decodeError(bytes: Uint8Array): ArrayDecodeError {
  try {
    decodeArray(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(ArrayDecodeError);
    return error as ArrayDecodeError;
  }
  throw new Error('expected decodeArray to throw');
}

describe(decodeArray.name, () => {
  it.each(manifest.arrays.map((f) => [f.file, f] as const))('detects and decodes %s from its content', (_, fixture) => {
    const sut = decodeArray(readFixture(fixture.file));
    expect(sut.shape).toEqual(fixture.shape);
    expect(Array.from(sut.data)).toEqual(expectedValues(fixture));
  });

  it.each(manifest.rejected.map((f) => [f.file, f] as const))('rejects %s with an informative ArrayDecodeError', (_, fixture) => {
    const error = decodeError(readFixture(fixture.file));
    expect(error.type).toBe(fixture.error_type);
    expect(error.message).toContain(fixture.message);
    expect(error.message).toMatch(/expected|truncated|not allowed/);
  });

  it('names the first bytes of an unknown format', () => {
    const error = decodeError(Uint8Array.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]));
    expect(error.type).toBe('value_error.format');
    expect(error.message).toBe('expected a .npy file (magic \\x93NUMPY) or a PyTorch .pt zip archive; got bytes starting 50 4b 05 06');
  });

  it('says so when the upload is text', () => {
    expect(decodeError(new TextEncoder().encode('1.0,2.0\n3.0,4.0\n')).message).toBe(
      'expected a .npy file (magic \\x93NUMPY) or a PyTorch .pt zip archive; got bytes starting 31 2e 30 2c (text such as CSV or JSON is not accepted)',
    );
  });

  it('rejects an empty upload', () => {
    expect(decodeError(new Uint8Array(0)).message).toContain('got an empty file');
  });

  it('reports a cut-off magic as a truncated .npy', () => {
    expect(decodeError(Uint8Array.from([0x93, 0x4e, 0x55])).message).toContain('truncated .npy file');
  });

  it('ignores what the file is called: a .npy body is a .npy whatever the upload name', () => {
    const file = encodeNpy({ shape: [2], data: [1, 2] }, { dtype: 'i2' });
    expect(decodeArray(Buffer.from(file))).toEqual({ shape: [2], dtype: 'i2', data: Float64Array.from([1, 2]) });
  });
});
