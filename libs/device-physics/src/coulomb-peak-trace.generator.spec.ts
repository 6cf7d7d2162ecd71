import { EDGE_DONT_CARE_SAMPLES, FAINT_PEAK_SNR, FWHM_PER_THERMAL_WIDTH, generateCoulombPeakTrace, SNR_MAX, SNR_MIN } from './coulomb-peak-trace.generator.js';
import { standardDeviation } from './measurement-noise.js';
import { tuningSeeds } from './seeds.js';

describe(generateCoulombPeakTrace.name, () => {
  it('is deterministic per seed', () => {
    const a = generateCoulombPeakTrace(5, { length: 128 });
    const b = generateCoulombPeakTrace(5, { length: 128 });
    expect(Array.from(b.trace)).toEqual(Array.from(a.trace));
    expect(b.peakIndices).toEqual(a.peakIndices);
  });

  it('produces the requested or a default length', () => {
    expect(generateCoulombPeakTrace(1, { length: 777 }).trace).toHaveLength(777);
    for (const seed of tuningSeeds(30)) expect([100, 128, 500]).toContain(generateCoulombPeakTrace(seed).trace.length);
  });

  it('labels peaks inside the window, ascending, above the 3σ rule, with 0–13 peaks per trace', () => {
    for (const seed of tuningSeeds(300)) {
      const t = generateCoulombPeakTrace(seed);
      const n = t.trace.length;
      expect(t.peakIndices.length).toBeLessThanOrEqual(13);
      t.peakIndices.forEach((index, k) => {
        expect(index).toBeGreaterThanOrEqual(0);
        expect(index).toBeLessThan(n);
        if (k > 0) expect(index).toBeGreaterThan(t.peakIndices[k - 1]!);
        expect(t.peakAmplitudes[k]!).toBeGreaterThanOrEqual(FAINT_PEAK_SNR * t.noiseStd);
        expect(Math.round(t.peakCentres[k]!)).toBe(index);
      });
      for (const ignored of t.ignoredPeakIndices) expect(ignored).toBeGreaterThanOrEqual(-EDGE_DONT_CARE_SAMPLES);
      expect(t.snr).toBeGreaterThanOrEqual(SNR_MIN);
      expect(t.snr).toBeLessThanOrEqual(SNR_MAX);
      expect(t.trace.every(Number.isFinite)).toBe(true);
    }
  });

  it('puts the maximum of an isolated, noiseless-enough peak on its labelled centre', () => {
    const t = generateCoulombPeakTrace(tuningSeeds(1, 40)[0]!, { length: 500, peakCount: 1, snrRange: [5000, 5000] });
    expect(t.peakIndices).toHaveLength(1);
    const centre = t.peakIndices[0]!;
    let argmax = 0;
    for (let i = 0; i < t.trace.length; i++) if (t.trace[i]! > t.trace[argmax]!) argmax = i;
    expect(Math.abs(argmax - centre)).toBeLessThanOrEqual(1);
  });

  it('makes negatives without peaks: noise, flat and a single step', () => {
    for (const kind of ['noise', 'flat', 'step'] as const) {
      const t = generateCoulombPeakTrace(3, { length: 128, kind });
      expect(t.peakIndices).toEqual([]);
      expect(t.kind).toBe(kind);
    }
    expect(standardDeviation(generateCoulombPeakTrace(3, { length: 128, kind: 'flat' }).trace)).toBe(0);
  });

  it('reports the realised noise level', () => {
    const t = generateCoulombPeakTrace(9, { length: 500, kind: 'noise', noiseMix: { white: 1, pink: 0, telegraph: 0, telegraphDwellSamples: 10 } });
    // A noise-only trace is background + noise; its detrended spread is close to noiseStd.
    const n = t.trace.length;
    let d = 0;
    for (let i = 1; i < n; i++) d += (t.trace[i]! - t.trace[i - 1]!) ** 2;
    expect(Math.sqrt(d / (n - 1) / 2) / t.noiseStd).toBeCloseTo(1, 0);
  });

  it('uses the FWHM of cosh⁻²(x / 2.5w)', () => {
    const w = 1;
    const half = (FWHM_PER_THERMAL_WIDTH * w) / 2;
    expect(1 / Math.cosh(half / (2.5 * w)) ** 2).toBeCloseTo(0.5, 10);
  });
});
