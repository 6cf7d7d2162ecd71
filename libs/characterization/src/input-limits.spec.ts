import { inputDecodeLimits, maxInputElements, MAX_ARRAY_ELEMENTS, MAX_BATCH_ELEMENTS, MAX_TRACE_ELEMENTS, MIN_DECODE_ELEMENTS } from './input-limits.js';
import { modelEntry } from './model-catalogue.js';
import { MAX_DECODING_ELEMENTS } from './decoding/index.js';

const MiB = 1024 * 1024;

describe(inputDecodeLimits.name, () => {
  it('knows each kind of model’s maximum input', () => {
    expect(maxInputElements(modelEntry('coulomb-blockade-peak-detector-v2'))).toBe(MAX_BATCH_ELEMENTS);
    expect(maxInputElements(modelEntry('resonator-dip-finder-v0'))).toBe(MAX_TRACE_ELEMENTS);
    expect(maxInputElements(modelEntry('coulomb-blockade-peak-detector-v0'))).toBe(100);
    expect(maxInputElements(modelEntry('coulomb-diamond-detector-v1'))).toBe(MAX_ARRAY_ELEMENTS);
    expect(maxInputElements(modelEntry('ising-decoding-v1-fast'))).toBe(MAX_DECODING_ELEMENTS);
  });

  it('caps inflation at a small multiple of the upload limit and of what the largest input needs', () => {
    expect(inputDecodeLimits('coulomb-blockade-peak-detector-v2', 64 * MiB)).toEqual({
      maxElements: MAX_BATCH_ELEMENTS,
      maxInflatedBytes: 256 * MiB,
      owner: 'model coulomb-blockade-peak-detector-v2',
    });
    expect(inputDecodeLimits('coulomb-blockade-peak-detector-v1', 64 * MiB).maxInflatedBytes).toBe(16 * MAX_TRACE_ELEMENTS + MiB);
    expect(inputDecodeLimits('coulomb-blockade-peak-detector-v2', MiB).maxInflatedBytes).toBe(4 * MiB);
  });

  it('never refuses a small input for its size, so a wrong shape gets the model’s own message', () => {
    expect(inputDecodeLimits('coulomb-blockade-peak-detector-v0', 64 * MiB).maxElements).toBe(MIN_DECODE_ELEMENTS);
  });
});
