import { generateCoulombBlockadeTrace, BLOCKADE_PEAK_SNR } from './coulomb-blockade-trace.generator.js';
import { generatePinchOffTrace, TANH_KNEE_U } from './pinch-off-trace.generator.js';
import { generateTurnOnTrace } from './turn-on-trace.generator.js';
import { tuningSeeds } from '../seeds.js';

describe(generatePinchOffTrace.name, () => {
  it('is deterministic per seed and labels positives inside the window, cut-off on the closed side', () => {
    expect(Array.from(generatePinchOffTrace(7).trace)).toEqual(Array.from(generatePinchOffTrace(7).trace));
    for (const seed of tuningSeeds(200)) {
      const t = generatePinchOffTrace(seed, { kind: 'pinch-off' });
      expect(t.isPinchOff).toBe(true);
      for (const x of [t.cutOff!, t.transition!, t.saturation!]) {
        expect(x).toBeGreaterThan(0);
        expect(x).toBeLessThan(99);
      }
      expect(Math.abs(t.cutOff! - t.transition!)).toBeCloseTo(TANH_KNEE_U * t.width, 9);
      // Closing sweeps: current falls along the trace, so the pinched-off side (cut-off) is at larger index.
      expect(t.cutOff! > t.saturation!).toBe(t.closing);
      const start = Math.abs(t.trace[0]!);
      const end = Math.abs(t.trace[99]!);
      expect(start > end).toBe(t.closing);
      expect(t.trace.every(Number.isFinite)).toBe(true);
    }
  });

  it('draws every negative kind without labels', () => {
    const kinds = new Set<string>();
    for (const seed of tuningSeeds(300)) {
      const t = generatePinchOffTrace(seed);
      kinds.add(t.kind);
      if (!t.isPinchOff) expect([t.cutOff, t.transition, t.saturation]).toEqual([null, null, null]);
    }
    expect(kinds.size).toBe(7);
  });
});

describe(generateTurnOnTrace.name, () => {
  it('labels the threshold on the floor side of the steepest point, for rising and reversed sweeps', () => {
    for (const seed of tuningSeeds(200)) {
      for (const rising of [true, false]) {
        const t = generateTurnOnTrace(seed, { kind: 'turn-on', rising });
        expect(t.thresholdIndex).not.toBeNull();
        expect(rising ? t.thresholdIndex! <= t.centre! + 1 : t.thresholdIndex! >= t.centre! - 1).toBe(true);
        expect(t.thresholdIndex!).toBeGreaterThanOrEqual(5);
        expect(t.thresholdIndex!).toBeLessThanOrEqual(94);
      }
    }
  });
});

describe(generateCoulombBlockadeTrace.name, () => {
  it('gives positives ≥ 2 strong peaks and single-peak negatives exactly one', () => {
    for (const seed of tuningSeeds(200)) {
      const t = generateCoulombBlockadeTrace(seed);
      if (t.kind === 'blockade') expect(t.isBlockade && t.strongPeakCount >= 2).toBe(true);
      if (t.kind === 'single-peak') expect([t.isBlockade, t.peakIndices.length, t.strongPeakCount]).toEqual([false, 1, 1]);
      expect([100, 128]).toContain(t.trace.length);
    }
    expect(BLOCKADE_PEAK_SNR).toBe(5);
  });
});
