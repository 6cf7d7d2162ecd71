// Metric tests of resonator-dip-finder-v0 through the catalogue runner, on tuning seeds only.
import { createSeededRandom, generateResonatorNotchTrace, tuningSeeds } from '#qdc/device-physics';
import { runModel } from '../model-runner.js';
import { ModelInputError } from '../model-input-error.js';
import { scoreResonatorDipFinder } from '../evaluation/synthetic-scores.js';

const ID = 'resonator-dip-finder-v0';

function run(trace: Float64Array): { dip_indices: number[]; linewidths: number[]; depths: number[] } {
  return runModel(ID, { shape: [trace.length], data: trace }) as { dip_indices: number[]; linewidths: number[]; depths: number[] };
}
const dips = (trace: Float64Array): number[] => run(trace).dip_indices;

describe(ID, () => {
  it('reaches F1 ≥ 0.97 on 250 labelled traces (linear and dB, ripple, tilt, 0–4 dips)', () => {
    expect(scoreResonatorDipFinder(dips, tuningSeeds(250, 6000)).f1).toBeGreaterThanOrEqual(0.97);
  });

  it('measures linewidths fr/Ql to within 15 % (median)', () => {
    const ratios: number[] = [];
    for (const seed of tuningSeeds(80, 6300)) {
      const truth = generateResonatorNotchTrace(seed);
      const out = run(truth.trace);
      for (const d of truth.dips) {
        const k = out.dip_indices.findIndex((i) => Math.abs(i - d.index) <= Math.max(1, d.linewidth / 2));
        if (k >= 0) ratios.push(out.linewidths[k]! / d.linewidth);
      }
    }
    ratios.sort((a, b) => a - b);
    expect(Math.abs(ratios[ratios.length >> 1]! - 1)).toBeLessThan(0.15);
  });

  it('returns parallel, finite lists with positive widths and depths', () => {
    for (const seed of tuningSeeds(30, 6400)) {
      const out = run(generateResonatorNotchTrace(seed).trace);
      expect(out.linewidths).toHaveLength(out.dip_indices.length);
      expect(out.depths).toHaveLength(out.dip_indices.length);
      for (const v of [...out.linewidths, ...out.depths]) expect(v).toBeGreaterThan(0);
    }
  });

  it('answers nothing for constant input or pure noise, linear or dB', () => {
    expect(dips(new Float64Array(101).fill(1))).toEqual([]);
    expect(dips(new Float64Array(8))).toEqual([]);
    let spurious = 0;
    for (const seed of tuningSeeds(60, 6500)) {
      const random = createSeededRandom(seed);
      spurious += dips(Float64Array.from({ length: 501 }, () => 1 + 0.01 * random.normal())).length;
      spurious += dips(Float64Array.from({ length: 501 }, () => -20 + 0.1 * random.normal())).length;
      spurious += dips(generateResonatorNotchTrace(seed, { dipCount: 0 }).trace).length;
    }
    expect(spurious / 180).toBeLessThanOrEqual(0.05);
  });

  it('finds mirrored dips in a reversed trace', () => {
    const score = scoreResonatorDipFinder(
      (trace) => dips(trace.slice().reverse()).map((i) => trace.length - 1 - i),
      tuningSeeds(100, 6600),
    );
    expect(score.f1).toBeGreaterThanOrEqual(0.96);
  });

  it('handles short traces, integer data, huge and tiny scales', () => {
    for (const n of [8, 9, 16, 40]) expect(() => run(generateResonatorNotchTrace(1, { length: n }).trace)).not.toThrow();
    const truth = generateResonatorNotchTrace(tuningSeeds(1, 6700)[0]!, { length: 1001, dipCount: 2, format: 'linear', snrRange: [100, 200] });
    const expected = dips(truth.trace);
    expect(expected).toHaveLength(2);
    let max = 0;
    for (const v of truth.trace) max = Math.max(max, v);
    const integers = truth.trace.map((v) => Math.round((v / max) * 30000));
    expect(dips(integers)).toHaveLength(2);
    expect(dips(truth.trace.map((v) => v * 1e12))).toEqual(expected);
    expect(dips(truth.trace.map((v) => v * 1e-12))).toEqual(expected);
  });

  it('rejects wrong shapes and non-finite values with ModelInputError', () => {
    expect(() => runModel(ID, { shape: [7], data: new Float64Array(7) })).toThrow(/expected a 1-D trace of length ≥ 8; got shape \[7\]/);
    expect(() => runModel(ID, { shape: [3, 4], data: new Float64Array(12) })).toThrow(/expected a 1-D trace of length ≥ 8; got shape \[3, 4\]/);
    const data = new Float64Array(20);
    data[3] = Infinity;
    expect(() => runModel(ID, { shape: [20], data })).toThrow(ModelInputError);
  });
});
