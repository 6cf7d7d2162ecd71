// What the models say on measured traces from /work/shared/data/real (see its README). Skipped, with a message,
// when the folder is not next to the repository.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeNpy } from '#qdc/arrays';
import { runModel } from './model-runner.js';

const REAL_DATA =
  [process.env.QDC_REAL_DATA, resolve(process.cwd(), '../shared/data/real'), '/work/shared/data/real'].find((dir) => dir && existsSync(dir)) ??
  resolve(process.cwd(), '../shared/data/real');
const available = existsSync(REAL_DATA);
if (!available) console.warn(`real-data tests skipped: ${REAL_DATA} not found`);
const describeReal = available ? describe : describe.skip;

function load(name: string): { shape: number[]; data: Float64Array } {
  const array = decodeNpy(new Uint8Array(readFileSync(resolve(REAL_DATA, `${name}.npy`))));
  return { shape: array.shape, data: array.data };
}

function argExtreme(data: Float64Array, sign: 1 | -1): number {
  let best = 0;
  for (let i = 1; i < data.length; i++) if (sign * data[i]! > sign * data[best]!) best = i;
  return best;
}

describeReal('real measured traces', () => {
  it('resonator_tools_S21testdata (1001,), linear: exactly one dip, near the minimum', () => {
    const input = load('resonator_tools_S21testdata');
    expect(input.shape).toEqual([1001]);
    const out = runModel('resonator-dip-finder-v0', input) as { dip_indices: number[]; linewidths: number[] };
    expect(out.dip_indices).toHaveLength(1);
    expect(Math.abs(out.dip_indices[0]! - argExtreme(input.data, -1))).toBeLessThanOrEqual(Math.max(5, out.linewidths[0]! / 4));
  });

  it('scres_nyu_al_inp_30mK (2001,), dB: exactly one dip, within a linewidth of the minimum', () => {
    const input = load('scres_nyu_al_inp_30mK');
    expect(input.shape).toEqual([2001]);
    const out = runModel('resonator-dip-finder-v0', input) as { dip_indices: number[]; linewidths: number[] };
    expect(out.dip_indices).toHaveLength(1);
    expect(Math.abs(out.dip_indices[0]! - argExtreme(input.data, -1))).toBeLessThanOrEqual(out.linewidths[0]!);
  });

  it('qtt_coulomb_peak_SD2b (462,): the any-length detectors find the one peak near its maximum', () => {
    const input = load('qtt_coulomb_peak_SD2b');
    const top = argExtreme(input.data, 1);
    for (const id of ['coulomb-blockade-peak-detector-v1', 'coulomb-blockade-peak-detector-v2']) {
      const found = runModel(id, input)['peak_indices'] as number[];
      expect(found).toHaveLength(1);
      expect(Math.abs(found[0]! - top)).toBeLessThanOrEqual(5);
    }
  });
});
