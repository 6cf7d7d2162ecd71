import { buildRawZip, deflatedZeros, npzZipBomb, torchZipBomb } from '../test/zip-bomb.js';
import { PickleWriter } from '../test/zip-builder.js';
import { ArrayDecodeError, LIMIT_ERROR } from './array-decode-error.js';
import { decodeArray } from './decode-array.js';
import type { DecodeLimits } from './decode-limits.js';
import { encodeNpy } from './npy.encode.js';

const MODEL_LIMITS: DecodeLimits = { maxElements: 1 << 20, maxInflatedBytes: 256 * 1024 * 1024, owner: 'model coulomb-blockade-peak-detector-v1' };

function decodeError(bytes: Uint8Array, limits?: DecodeLimits): ArrayDecodeError {
  try {
    decodeArray(bytes, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(ArrayDecodeError);
    return error as ArrayDecodeError;
  }
  throw new Error('expected decodeArray to throw');
}

/** A torch archive whose storage entry is `data` (deflated), declared as `declaredSize` bytes. */
function archive(elements: number, shape: number[], data: Uint8Array, declaredSize: number): Uint8Array {
  const pickle = new PickleWriter().tensor('FloatStorage', '0', elements, 0, shape, [1]).build();
  return buildRawZip([
    { name: 'archive/data.pkl', data: pickle, method: 0, declaredSize: pickle.length },
    { name: 'archive/data/0', data, method: 8, declaredSize },
  ]);
}

describe('decode limits (zip bombs, element counts)', () => {
  it('decodes a deflated tensor within the limits', () => {
    const sut = decodeArray(torchZipBomb(1000), MODEL_LIMITS);
    expect(sut.shape).toEqual([1000]);
    expect(sut.data).toEqual(new Float64Array(1000));
  });

  it("refuses the 204 KB .pt that inflates to 200 MB (52 M elements) from its tensor record, naming the model's limit", () => {
    const bomb = torchZipBomb(52_428_800);
    expect(bomb.length).toBeLessThan(300_000);
    const error = decodeError(bomb, MODEL_LIMITS);
    expect(error.type).toBe(LIMIT_ERROR);
    expect(error.message).toBe(
      'expected at most 1048576 elements for model coulomb-blockade-peak-detector-v1; the tensor record declares size [52428800] (52428800 elements)',
    );
  });

  it('refuses a storage the zip directory declares beyond the inflation cap before inflating it', () => {
    // A 10-element view of a storage declared as 400 MB; the deflate data is garbage, so inflating would fail differently.
    const garbage = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7919) & 0xff);
    const error = decodeError(archive(100_000_000, [10], garbage, 400_000_000), MODEL_LIMITS);
    expect(error.type).toBe(LIMIT_ERROR);
    expect(error.message).toBe(
      'expected the .pt archive to expand to at most 268435456 bytes for model coulomb-blockade-peak-detector-v1 (zip bomb guard); its tensor storage declares 400000000 bytes (400000000 in the zip directory)',
    );
  });

  it('refuses from the central directory alone when it declares more than the cap', () => {
    const garbage = Uint8Array.from({ length: 1000 }, (_, i) => (i * 131) & 0xff);
    const error = decodeError(archive(10, [10], garbage, 300 * 1024 * 1024), MODEL_LIMITS);
    expect(error.type).toBe(LIMIT_ERROR);
    expect(error.message).toBe(
      "expected the .pt archive to expand to at most 268435456 bytes for model coulomb-blockade-peak-detector-v1 (zip bomb guard); its central directory declares 314572800 bytes for 'archive/data/0'",
    );
  });

  it('stops inflating an entry whose data expands beyond what its directory declares', () => {
    // Declares 40 bytes (10 float32), holds 64 MiB of zeros.
    const error = decodeError(archive(10, [10], deflatedZeros(64 * 1024 * 1024), 40), MODEL_LIMITS);
    expect(error.type).toBe(LIMIT_ERROR);
    expect(error.message).toBe("expected 'archive/data/0' to inflate to the 40 bytes its central directory declares; it inflates to more (inflation stopped)");
  });

  it('refuses a pickle record declared larger than a tensor record can be', () => {
    const pickle = deflatedZeros(8 * 1024 * 1024);
    const bytes = buildRawZip([{ name: 'archive/data.pkl', data: pickle, method: 8, declaredSize: 8 * 1024 * 1024 }]);
    const error = decodeError(bytes, MODEL_LIMITS);
    expect(error.type).toBe(LIMIT_ERROR);
    expect(error.message).toBe("expected 'archive/data.pkl' in the .pt archive to hold at most 1048576 bytes; its central directory declares 8388608 bytes");
  });

  it('refuses a .npy whose header declares more elements than the model takes, before decoding', () => {
    const npy = encodeNpy({ shape: [2048, 1024], data: new Float64Array(2048 * 1024) });
    const error = decodeError(npy, MODEL_LIMITS);
    expect(error.type).toBe(LIMIT_ERROR);
    expect(error.message).toBe(
      'expected at most 1048576 elements for model coulomb-blockade-peak-detector-v1; the .npy header declares shape [2048, 1024] (2097152 elements)',
    );
    expect(decodeArray(npy).shape).toEqual([2048, 1024]); // the library's own ceiling is higher
  });

  it('refuses an .npz (np.savez zip) bomb without inflating it', () => {
    const error = decodeError(npzZipBomb(200 * 1024 * 1024), MODEL_LIMITS);
    expect(error.type).toBe('value_error.pt');
    expect(error.message).toBe('expected a PyTorch .pt zip archive with <name>/data.pkl; got a zip holding data.npy');
  });

  it('never raises the limits above the library ceilings', () => {
    const error = decodeError(torchZipBomb(10, { shape: [1 << 27] }), { maxElements: 2 ** 40, maxInflatedBytes: 2 ** 40 });
    expect(error.message).toMatch(/^expected at most 67108864 elements; the tensor record declares size \[134217728\]/);
  });
});
