// Metric tests of the Coulomb-peak detectors through the catalogue runner, on tuning seeds only.
import { createSeededRandom, generateCoulombEdgeTrace, generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { runModel, runModelBatch } from '../model-runner.js';
import { roundSignificant } from './coulomb-peak.entries.js';
import { ModelInputError } from '../model-input-error.js';
import { scoreCoulombEdgeDetector, scoreCoulombPeakDetector } from '../evaluation/synthetic-scores.js';

// Measured ceilings (with margin) of spurious peaks per negative trace of the generator: noise-only traces with
// 1/f and telegraph noise on a curved background, and single steps. v1 is the weakest there (its widest kernels
// follow 1/f wander, and a lone bump cut by an end is accepted on its fit alone); v2 restricts both.
const MODELS = [
  { id: 'coulomb-blockade-peak-detector-v0', nominal: 100, anyLength: false, coloredNoiseFalsePeaks: 0.3, stepFalsePeaks: 0.45 },
  { id: 'coulomb-blockade-peak-detector-v1', nominal: 500, anyLength: true, coloredNoiseFalsePeaks: 0.7, stepFalsePeaks: 0.7 },
  { id: 'coulomb-blockade-peak-detector-v1-mini', nominal: 500, anyLength: false, coloredNoiseFalsePeaks: 0.1, stepFalsePeaks: 0.1 },
  { id: 'coulomb-blockade-peak-detector-v2', nominal: 128, anyLength: true, coloredNoiseFalsePeaks: 0.2, stepFalsePeaks: 0.25 },
] as const;

function peaks(id: string, trace: Float64Array): number[] {
  return runModel(id, { shape: [trace.length], data: trace })['peak_indices'] as number[];
}

describe.each(MODELS)('$id', ({ id, nominal, anyLength, coloredNoiseFalsePeaks, stepFalsePeaks }) => {
  const detect = (trace: Float64Array): number[] => peaks(id, trace);

  it('reaches F1 ≥ 0.97 on 250 labelled traces of its nominal length', () => {
    const score = scoreCoulombPeakDetector(detect, tuningSeeds(250, 2000), { length: nominal });
    expect(score.f1).toBeGreaterThanOrEqual(0.97);
  });

  it('answers nothing for constant input, and rarely anything for pure white noise', () => {
    expect(peaks(id, new Float64Array(nominal).fill(4.2))).toEqual([]);
    expect(peaks(id, new Float64Array(nominal))).toEqual([]);
    let spurious = 0;
    for (const seed of tuningSeeds(100, 3000)) {
      const random = createSeededRandom(seed);
      spurious += peaks(
        id,
        Float64Array.from({ length: nominal }, () => random.normal()),
      ).length;
    }
    expect(spurious / 100).toBeLessThanOrEqual(0.1);
  });

  it('keeps spurious peaks rare in noise-only traces (1/f, telegraph, curved background), flat traces and steps', () => {
    let spurious = 0;
    for (const seed of tuningSeeds(100, 3000)) spurious += peaks(id, generateCoulombPeakTrace(seed, { length: nominal, kind: 'noise' }).trace).length;
    expect(spurious / 100).toBeLessThanOrEqual(coloredNoiseFalsePeaks);
    let onSteps = 0;
    for (const seed of tuningSeeds(100, 3050)) {
      expect(peaks(id, generateCoulombPeakTrace(seed, { length: nominal, kind: 'flat' }).trace)).toEqual([]);
      onSteps += peaks(id, generateCoulombPeakTrace(seed, { length: nominal, kind: 'step' }).trace).length;
    }
    expect(onSteps / 100).toBeLessThanOrEqual(stepFalsePeaks);
  });

  it('returns ascending indices inside the trace', () => {
    for (const seed of tuningSeeds(20, 3100)) {
      const found = peaks(id, generateCoulombPeakTrace(seed, { length: nominal }).trace);
      found.forEach((p, k) => {
        expect(Number.isInteger(p)).toBe(true);
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThan(nominal);
        if (k > 0) expect(p).toBeGreaterThan(found[k - 1]!);
      });
    }
  });

  it('finds the mirrored peaks in a reversed trace', () => {
    const score = scoreCoulombPeakDetector((trace) => peaks(id, trace.slice().reverse()).map((p) => nominal - 1 - p), tuningSeeds(120, 3200), {
      length: nominal,
    });
    expect(score.f1).toBeGreaterThanOrEqual(0.96);
  });

  it('is unchanged by scale and offset (huge, tiny, negative values)', () => {
    for (const seed of tuningSeeds(10, 3400)) {
      const trace = generateCoulombPeakTrace(seed, { length: nominal }).trace;
      const reference = peaks(id, trace);
      expect(
        peaks(
          id,
          trace.map((v) => v * 1e15),
        ),
      ).toEqual(reference);
      expect(
        peaks(
          id,
          trace.map((v) => v * 1e-15),
        ),
      ).toEqual(reference);
      expect(
        peaks(
          id,
          trace.map((v) => v - 1e3 * Math.abs(trace[0]!)),
        ),
      ).toHaveLength(reference.length);
    }
  });

  it('handles integer-valued (quantised) data', () => {
    const score = scoreCoulombPeakDetector(
      (trace) => {
        let max = 0;
        for (const v of trace) max = Math.max(max, Math.abs(v));
        return peaks(
          id,
          trace.map((v) => Math.round((v / max) * 2000)),
        );
      },
      tuningSeeds(100, 3500),
      { length: nominal, snrRange: [15, 100] },
    );
    expect(score.f1).toBeGreaterThanOrEqual(0.95);
  });

  it('rejects wrong shapes and non-finite values with ModelInputError', () => {
    const bad: [number[], Float64Array][] = [
      [[3, 4], new Float64Array(12)],
      [[], new Float64Array(1)],
      [[nominal, 1], new Float64Array(nominal)],
    ];
    for (const [shape, data] of bad) expect(() => runModel(id, { shape, data })).toThrow(ModelInputError);
    expect(() => runModel(id, { shape: [3, 4], data: new Float64Array(12) })).toThrow(/expected a 1-D trace .*; got shape \[3, 4\]/);
    const withNaN = new Float64Array(nominal);
    withNaN[7] = NaN;
    expect(() => runModel(id, { shape: [nominal], data: withNaN })).toThrow(ModelInputError);
    if (!anyLength) expect(() => runModel(id, { shape: [nominal + 28], data: new Float64Array(nominal + 28) })).toThrow(ModelInputError);
  });

  if (anyLength) {
    it('accepts other lengths (F1 ≥ 0.97 over 100, 128, 500 and 777 samples)', () => {
      const lengths = [100, 128, 500, 777];
      const score = scoreCoulombPeakDetector(detect, tuningSeeds(240, 4000), (_, position) => ({ length: lengths[position % lengths.length]! }));
      expect(score.f1).toBeGreaterThanOrEqual(0.97);
      for (const n of [1, 2, 3, 7, 20])
        expect(() =>
          peaks(
            id,
            new Float64Array(n).map((_, i) => i % 2),
          ),
        ).not.toThrow();
    });
  }
});

// MODELS.md: a newer version must not score below an older one on the family benchmark (mixed lengths, as the bench).
describe('coulomb-blockade-peak-detector-v2 against v1', () => {
  it('scores at least v1 on 1000 mixed-length traces (100, 128, 500, 777 samples)', () => {
    // Before issue 29's noise fix v2 scored 0.98823 against v1's 0.98855 here (now 0.99012): narrow, faint, dense peaks.
    const lengths = [100, 128, 500, 777];
    const options = (_: number, position: number) => ({ length: lengths[position % lengths.length]! });
    const seeds = tuningSeeds(1000);
    const v1 = scoreCoulombPeakDetector((t) => peaks('coulomb-blockade-peak-detector-v1', t), seeds, options);
    const v2 = scoreCoulombPeakDetector((t) => peaks('coulomb-blockade-peak-detector-v2', t), seeds, options);
    expect(v2.f1).toBeGreaterThanOrEqual(v1.f1);
  });
});

// Issue 29: peaks on the first and last samples, and sweeps that end in a monotone rise (barriers opening, the flank
// of a peak outside the window), from generateCoulombEdgeTrace (tuning seeds).
describe.each([
  { id: 'coulomb-blockade-peak-detector-v1', lengths: [100, 500], edgeRecall: 0.97 },
  { id: 'coulomb-blockade-peak-detector-v1-mini', lengths: [500], edgeRecall: 0.97 },
  // v2 also drops cut peaks below 30 % of the median height (measured 0.96 here).
  { id: 'coulomb-blockade-peak-detector-v2', lengths: [128], edgeRecall: 0.95 },
])('$id at the ends of the sweep', ({ id, lengths, edgeRecall }) => {
  const detect =
    (model: string) =>
    (trace: Float64Array): number[] =>
      peaks(model, trace);
  it.each(lengths)('finds peaks 1–5 samples from an end and reports nothing on a rising end (L = %i)', (length) => {
    let edgePeaks = 0;
    let edgeHits = 0;
    for (const seed of tuningSeeds(120, 8000)) {
      const t = generateCoulombEdgeTrace(seed, { length, kind: 'edge-peaks' });
      const found = peaks(id, t.trace);
      for (const q of t.peakIndices) {
        const fromEnd = Math.min(q, length - 1 - q);
        if (fromEnd < 1 || fromEnd > 5) continue;
        edgePeaks++;
        if (found.some((p) => Math.abs(p - q) <= 2)) edgeHits++;
      }
    }
    expect(edgeHits / edgePeaks).toBeGreaterThanOrEqual(edgeRecall);
    let risingEndPeaks = 0;
    for (const seed of tuningSeeds(120, 8200)) {
      const t = generateCoulombEdgeTrace(seed, { length, kind: 'end-rise' });
      const found = peaks(id, t.trace);
      risingEndPeaks += found.filter((p) => (t.rise!.end === 'end' ? p >= length - 8 : p <= 7)).length;
    }
    expect(risingEndPeaks / 120).toBeLessThanOrEqual(0.06);
  });

  it('never reports the last sample of a monotone rise (exponential opening, noise 0.2 % of the rise)', () => {
    for (const length of lengths) {
      for (const [k, risePerLength] of [0.05, 0.1, 0.2].entries()) {
        const random = createSeededRandom(tuningSeeds(1, 8600 + k)[0]!);
        const trace = Float64Array.from({ length }, (_, i) => Math.exp((i - (length - 1)) / (risePerLength * length)) + 0.002 * random.normal());
        expect(peaks(id, trace)).toEqual([]);
      }
    }
  });

  it('reaches F1 ≥ 0.97 on the edge set (edge peaks and rising ends, 200 traces)', () => {
    const score = scoreCoulombEdgeDetector(detect(id), tuningSeeds(200, 8400), (_, position) => ({ length: lengths[position % lengths.length]! }));
    expect(score.f1).toBeGreaterThanOrEqual(0.97);
  });
});

describe('coulomb-blockade-peak-detector-v2 batch', () => {
  const id = 'coulomb-blockade-peak-detector-v2';

  it('gives, row by row, exactly what single runs give', () => {
    const length = 128;
    const seeds = tuningSeeds(64, 5000);
    const data = new Float64Array(seeds.length * length);
    seeds.forEach((seed, i) => {
      data.set(generateCoulombPeakTrace(seed, { length }).trace, i * length);
    });
    const batch = runModelBatch(id, { shape: [seeds.length, length], data });
    expect(batch).toHaveLength(seeds.length);
    batch.forEach((row, i) => {
      expect(row).toEqual(runModel(id, { shape: [length], data: data.slice(i * length, (i + 1) * length) }));
    });
  });

  it('rejects 1-D input and models without batch support', () => {
    expect(() => runModelBatch(id, { shape: [128], data: new Float64Array(128) })).toThrow(
      /expected a 2-D array \(batch_size, trace_length\); got shape \[128\]/,
    );
    expect(() => runModelBatch('coulomb-blockade-peak-detector-v0', { shape: [2, 100], data: new Float64Array(200) })).toThrow(ModelInputError);
  });
});

describe.each(['coulomb-blockade-peak-detector-v1', 'coulomb-blockade-peak-detector-v2'])('%s peak_heights and peak_widths', (id) => {
  it('measure the amplitude above background and the FWHM of clean peaks within 15 % (median)', () => {
    const heightErrors: number[] = [];
    const widthErrors: number[] = [];
    for (const seed of tuningSeeds(60, 7000)) {
      const truth = generateCoulombPeakTrace(seed, {
        length: 500,
        kind: 'peaks',
        snrRange: [40, 60],
        noiseMix: { white: 1, pink: 0, telegraph: 0, telegraphDwellSamples: 10 },
      });
      const out = runModel(id, { shape: [500], data: truth.trace }) as { peak_indices: number[]; peak_heights: number[]; peak_widths: number[] };
      truth.peakIndices.forEach((index, k) => {
        const found = out.peak_indices.findIndex((i) => Math.abs(i - index) <= 1);
        if (found < 0 || index < 3 * truth.peakFwhm || index > 500 - 3 * truth.peakFwhm) return;
        heightErrors.push(Math.abs(out.peak_heights[found]! / truth.peakAmplitudes[k]! - 1));
        widthErrors.push(Math.abs(out.peak_widths[found]! / truth.peakFwhm - 1));
      });
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    expect(heightErrors.length).toBeGreaterThan(100);
    expect(median(heightErrors)).toBeLessThan(0.15);
    expect(median(widthErrors)).toBeLessThan(0.15);
  });
});

describe('roundSignificant', () => {
  it('keeps 4 significant digits at every magnitude and the shortest decimal', () => {
    expect(roundSignificant(0.13879367006507648, 4)).toBe(0.1388);
    expect(JSON.stringify(roundSignificant(4.418133877032855e-12, 4))).toBe('4.418e-12');
    expect(roundSignificant(123456.7, 4)).toBe(123500);
    expect(roundSignificant(-0.00099951, 3)).toBe(-0.001);
    expect(roundSignificant(0, 4)).toBe(0);
    expect(roundSignificant(3.3e-30, 2)).toBe(3.3e-30);
  });
});
