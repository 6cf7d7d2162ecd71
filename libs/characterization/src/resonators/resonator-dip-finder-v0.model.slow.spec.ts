// Metric tests of resonator-dip-finder-v0 through the catalogue runner, on tuning seeds only: the original notch
// simulator, the realistic one (issue #16), and synthetic reproductions of the shapes that failed on measured traces.
import {
  createSeededRandom,
  generateRealisticResonatorTrace,
  generateRepeatedDipSweep,
  generateResonatorNotchTrace,
  tuningSeeds,
  type RealisticResonatorTraceOptions,
} from '#qdc/device-physics';
import { runModel } from '../model-runner.js';
import { WIDE_DIP_DEPTH_FLOORS } from './resonator-dip-finder-v0.model.js';
import { ModelInputError } from '../model-input-error.js';
import { countDetections, scoreDetections, type DetectionCounts } from '../evaluation/detection-score.js';
import { scoreResonatorDipFinder } from '../evaluation/synthetic-scores.js';

const ID = 'resonator-dip-finder-v0';

interface Output {
  dip_indices: number[];
  linewidths: number[];
  depths: number[];
  significance: number[];
  low_confidence: boolean[];
}

function run(trace: Float64Array): Output {
  return runModel(ID, { shape: [trace.length], data: trace }) as unknown as Output;
}
const dips = (trace: Float64Array): number[] => run(trace).dip_indices;

/** Lengths cycled through by realisticF1 (the benchmark samples 50–20 000; unit tests stay short). */
const SPEC_LENGTHS = [50, 91, 300, 1001];

function realisticF1(seeds: number[], options: RealisticResonatorTraceOptions = {}): number {
  let counts: DetectionCounts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  for (const [k, seed] of seeds.entries()) {
    const truth = generateRealisticResonatorTrace(seed, { length: SPEC_LENGTHS[k % SPEC_LENGTHS.length]!, ...options });
    const c = countDetections(dips(truth.trace), { indices: truth.dips.map((d) => d.index), tolerance: truth.dips.map((d) => Math.max(1, d.width / 2)) });
    counts = {
      truePositives: counts.truePositives + c.truePositives,
      falsePositives: counts.falsePositives + c.falsePositives,
      falseNegatives: counts.falseNegatives + c.falseNegatives,
    };
  }
  return scoreDetections(counts).f1;
}

/** Every labelled dip found within ½ its width (one seed, one dip). */
function expectFound(options: RealisticResonatorTraceOptions, seeds: number[]): void {
  for (const seed of seeds) {
    const truth = generateRealisticResonatorTrace(seed, { dipCount: 1, ...options });
    const found = dips(truth.trace);
    const dip = truth.dips[0]!;
    const near = found.filter((i) => Math.abs(i - dip.index) <= Math.max(1, dip.width / 2));
    expect({ seed, near: near.length, extra: found.length - near.length }).toEqual({ seed, near: 1, extra: 0 });
  }
}

describe(ID, () => {
  it('reaches F1 ≥ 0.97 on 120 traces of the original notch simulator (linear and dB, ripple, tilt, 0–4 dips)', () => {
    expect(scoreResonatorDipFinder(dips, tuningSeeds(120, 6000)).f1).toBeGreaterThanOrEqual(0.97);
  });

  it('reaches F1 ≥ 0.97 on 80 traces of the realistic simulator (S11, Kerr, steps, zoomed, SNR 5–1e5, 50–1001 points)', () => {
    expect(realisticF1(tuningSeeds(80, 3000))).toBeGreaterThanOrEqual(0.97);
  });

  it('measures linewidths fr/Ql to within 15 % (median)', () => {
    const ratios: number[] = [];
    for (const seed of tuningSeeds(25, 6300)) {
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

  it('returns parallel, finite lists with positive widths, depths and significance', () => {
    for (const seed of tuningSeeds(20, 6400)) {
      const out = run(generateRealisticResonatorTrace(seed, { length: 400 }).trace);
      for (const key of ['linewidths', 'depths', 'significance', 'low_confidence'] as const) expect(out[key]).toHaveLength(out.dip_indices.length);
      for (const v of [...out.linewidths, ...out.depths, ...out.significance]) expect(v).toBeGreaterThan(0);
    }
  });

  it('answers nothing for constant input or pure noise, linear or dB, and for dip-free sweeps with ripple and steps', () => {
    expect(dips(new Float64Array(101).fill(1))).toEqual([]);
    expect(dips(new Float64Array(8))).toEqual([]);
    let spurious = 0;
    for (const seed of tuningSeeds(20, 6500)) {
      const random = createSeededRandom(seed);
      spurious += dips(Float64Array.from({ length: 501 }, () => 1 + 0.01 * random.normal())).length;
      spurious += dips(Float64Array.from({ length: 501 }, () => -20 + 0.1 * random.normal())).length;
      spurious += dips(generateResonatorNotchTrace(seed, { dipCount: 0 }).trace).length;
      spurious += dips(generateRealisticResonatorTrace(seed, { dipCount: 0, length: 400 }).trace).length;
    }
    expect(spurious / 80).toBeLessThanOrEqual(0.05);
  });

  it('finds mirrored dips in a reversed trace', () => {
    const score = scoreResonatorDipFinder((trace) => dips(trace.slice().reverse()).map((i) => trace.length - 1 - i), tuningSeeds(25, 6600));
    expect(score.f1).toBeGreaterThanOrEqual(0.96);
  });

  // Shapes of the measured traces the previous version missed (synthetic reproductions, not the shared files).
  it('finds a dip filling 10–80 % of a zoomed sweep, including 91-point sweeps', () => {
    expectFound({ zoomed: true, fill: 0.4, length: 91, kerr: false, steps: false, grid: 'uniform' }, tuningSeeds(6, 7000));
    expectFound({ zoomed: true, fill: 0.75, length: 800, kerr: false, steps: false, snrRange: [50, 5000], grid: 'uniform' }, tuningSeeds(6, 7010));
    expectFound({ zoomed: true, fill: 0.12, length: 2001, kerr: false, steps: false, grid: 'uniform' }, tuningSeeds(6, 7020));
  });

  it('finds shallow under-coupled dips in very clean high-power traces (no absolute depth floor)', () => {
    // Qi/Qc = 0.1: a 0.8 dB dip at SNR 1e4–1e5, with ripple up to 5 %.
    expectFound({ qiOverQc: 0.1, snrRange: [1e4, 1e5], zoomed: false, kerr: false, steps: false, length: 1001, mode: 'notch' }, tuningSeeds(6, 7100));
  });

  it('finds reflection (S11) dips, over- and under-coupled, in dB', () => {
    expectFound({ mode: 'reflection', format: 'dB', qiOverQc: 5, zoomed: false, kerr: false, steps: false, length: 600 }, tuningSeeds(5, 7200));
    expectFound({ mode: 'reflection', format: 'dB', qiOverQc: 0.3, zoomed: false, kerr: false, steps: false, length: 600 }, tuningSeeds(5, 7210));
  });

  it('reports the minimum of a Fano-asymmetric lineshape (φ = ±0.5), not the Lorentzian centre', () => {
    let closer = 0;
    let total = 0;
    for (const phi of [0.5, -0.5]) {
      for (const seed of tuningSeeds(6, 7300)) {
        const truth = generateRealisticResonatorTrace(seed, {
          dipCount: 1,
          phi,
          qiOverQc: 2,
          zoomed: true,
          fill: 0.2,
          length: 1001,
          snrRange: [200, 2000],
          kerr: false,
          steps: false,
          ripple: false,
        });
        const found = dips(truth.trace);
        expect(found).toHaveLength(1);
        const dip = truth.dips[0]!;
        expect(Math.abs(found[0]! - dip.index)).toBeLessThanOrEqual(dip.width / 2);
        if (Math.abs(dip.index - dip.centre) >= 3) {
          total++;
          if (Math.abs(found[0]! - dip.index) < Math.abs(found[0]! - dip.centre)) closer++;
        }
      }
    }
    expect(total).toBeGreaterThan(0);
    expect(closer).toBe(total);
  });

  it('finds dips in coarse 50-point sweeps', () => {
    expectFound({ length: 50, zoomed: false, kerr: false, steps: false, snrRange: [10, 1000] }, tuningSeeds(8, 7400));
  });

  it('reports one resonance for a broad critically coupled dip whose flat bottom is noisy', () => {
    for (const seed of tuningSeeds(6, 7500)) {
      const truth = generateRealisticResonatorTrace(seed, {
        dipCount: 1,
        qiOverQc: 1,
        phi: 0,
        zoomed: true,
        fill: 0.3,
        length: 1500,
        snrRange: [8, 15],
        kerr: false,
        steps: false,
        mode: 'reflection',
        format: 'linear',
      });
      const found = dips(truth.trace);
      expect(found).toHaveLength(1);
      expect(Math.abs(found[0]! - truth.dips[0]!.index)).toBeLessThanOrEqual(truth.dips[0]!.width / 2);
    }
  });

  it('never answers an empty list on a trace whose dip is 5σ deep', () => {
    // SNR 5 on the lineshape; FWHM 3–30 samples so that the sampled dip is as deep as the lineshape (a 1.5-sample
    // dip centred between two samples is shallower on the grid), and a notch of moderate depth (Qi/Qc = 0.5) so that
    // the magnitude's Rician noise floor does not fill its bottom (a 5σ-deep notch that nearly reaches zero is
    // shallower than 5σ in |S21|).
    for (const [k, seed] of tuningSeeds(20, 7600).entries()) {
      const truth = generateRealisticResonatorTrace(seed, {
        dipCount: 1,
        snrRange: [5, 5],
        steps: false,
        kerr: false,
        length: 300,
        zoomed: true,
        fill: 0.01 + 0.09 * (k / 19),
        qiOverQc: 0.5,
        mode: 'notch',
      });
      expect({ seed, found: dips(truth.trace).length > 0 }).toEqual({ seed, found: true });
    }
  });

  it('finds Kerr-bifurcated (shark-fin) dips at high power', () => {
    expectFound({ kerr: 3, zoomed: false, steps: false, length: 800, snrRange: [30, 3000] }, tuningSeeds(6, 7700));
    expectFound({ kerr: -3, zoomed: false, steps: false, length: 800, snrRange: [30, 3000] }, tuningSeeds(6, 7710));
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

  it('issue 29: ≤ 2 false dips, all low_confidence, on 12 flat rows drifting by 1.5σ RMS (with ripple; ~0.2 per 200-point row measured)', () => {
    let falseDips = 0;
    let confident = 0;
    for (const seed of tuningSeeds(2, 9740)) {
      for (const row of generateRepeatedDipSweep(seed, { rows: 6, length: 200, flatFraction: 1, driftSigma: 1.5 }).rows) {
        const out = run(row.trace);
        falseDips += out.dip_indices.length;
        confident += out.low_confidence.filter((low) => !low).length;
      }
    }
    expect({ atMostTwo: falseDips <= 2, confident }).toEqual({ atMostTwo: true, confident: 0 });
  });

  it('issue 29: ≤ 5 confident dips on 24 flat 800-point rows drifting by 1.5σ RMS (9 before the wide-dip floors), none below its floor', () => {
    let confident = 0;
    for (const seed of tuningSeeds(3, 9790)) {
      for (const row of generateRepeatedDipSweep(seed, { rows: 8, length: 800, flatFraction: 1, driftSigma: 1.5 }).rows) {
        const out = run(row.trace);
        out.low_confidence.forEach((low, k) => {
          if (low) return;
          confident++;
          const floor = WIDE_DIP_DEPTH_FLOORS.filter((f) => out.linewidths[k]! > f.spanFraction * 800).at(-1);
          expect(out.significance[k]!).toBeGreaterThanOrEqual(floor?.minDepthSigma ?? 0);
        });
      }
    }
    expect(confident).toBeLessThanOrEqual(5);
  });
});
