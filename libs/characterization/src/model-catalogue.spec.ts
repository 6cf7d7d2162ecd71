// The catalogue convention: every family's `<FAMILY>_ENTRIES` list is registered once, ids are unique, and the
// listing order is the order of FAMILIES.
import { MODEL_CATALOGUE, findModel, modelEntry } from './model-catalogue.js';
import { ModelInputError } from './model-input-error.js';
import { COULOMB_PEAK_ENTRIES } from './coulomb-peaks/index.js';
import { RESONATOR_ENTRIES } from './resonators/index.js';
import { ONE_D_ENTRIES } from './one-d/index.js';
import { CHARGE_STABILITY_ENTRIES } from './charge-stability/index.js';
import { COULOMB_DIAMOND_ENTRIES } from './coulomb-diamonds/index.js';
import { ANTICROSSING_ENTRIES } from './anticrossings/index.js';
import { ELECTRON_UNLOADING_ENTRIES } from './electron-unloading/index.js';
import { DECODING_ENTRIES } from './decoding/index.js';

describe('model catalogue', () => {
  it('lists every family entry once, in family order, with unique ids', () => {
    const families = [
      COULOMB_PEAK_ENTRIES,
      RESONATOR_ENTRIES,
      ONE_D_ENTRIES,
      CHARGE_STABILITY_ENTRIES,
      COULOMB_DIAMOND_ENTRIES,
      ANTICROSSING_ENTRIES,
      ELECTRON_UNLOADING_ENTRIES,
      DECODING_ENTRIES,
    ];
    const ids = MODEL_CATALOGUE.map((m) => m.id);
    expect(ids).toEqual(families.flat().map((e) => e.spec.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, 5)).toEqual([
      'coulomb-blockade-peak-detector-v0',
      'coulomb-blockade-peak-detector-v1',
      'coulomb-blockade-peak-detector-v1-mini',
      'coulomb-blockade-peak-detector-v2',
      'resonator-dip-finder-v0',
    ]);
  });

  it('finds an entry by id and rejects an unknown one with what was expected', () => {
    expect(findModel('resonator-dip-finder-v0')?.name).toBe('Resonator dip finder v0');
    expect(findModel('nope')).toBeUndefined();
    expect(modelEntry('coulomb-blockade-peak-detector-v2').spec.batch).toBe(true);
    expect(() => modelEntry('nope')).toThrow(new ModelInputError('expected a known model id; got "nope"'));
  });
});
