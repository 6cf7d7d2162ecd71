// Labelled traces for Coulomb-blockade classification. Positives reuse the Coulomb-peak generator
// (cosh⁻² thermally broadened peaks, Beenakker, Phys. Rev. B 44, 1646 (1991); white/1/f/telegraph noise,
// sloped and curved background): a trace shows blockade oscillations when it holds ≥ 2 well-separated peaks
// (the peak generator keeps peaks ≥ 2 FWHM apart) of amplitude ≥ BLOCKADE_PEAK_SNR × noise std.
// Negatives: 'single-peak' (one isolated peak: a sensor dot or a resonance, not oscillations), 'pinch-off'
// (a tanh pinch-off sweep), 'open-channel' (a conducting plateau, no modulation), 'step' (one smooth step),
// 'noise' (noise on a sloped/curved background).
// Borderline draws are redrawn, not labelled: positives need ≥ 2 peaks ≥ 5σ; a single-peak negative has exactly
// one labelled peak (≥ 5σ) and no other peak above 3σ or near the window ends.
import { generateCoulombPeakTrace } from '../coulomb-peak-trace.generator.js';
import { createSeededRandom, deriveSeed } from '../seeded-random.js';
import type { NoiseMix } from '../measurement-noise.js';
import { generatePinchOffTrace } from './pinch-off-trace.generator.js';

export const BLOCKADE_TRACE_LENGTHS = [100, 128] as const;
/** Amplitude / noise std that makes a peak count for the blockade label. */
export const BLOCKADE_PEAK_SNR = 5;
const MAX_REDRAWS = 50;

export type CoulombBlockadeTraceKind = 'blockade' | 'single-peak' | 'pinch-off' | 'open-channel' | 'step' | 'noise';
export const BLOCKADE_NEGATIVE_KINDS: readonly CoulombBlockadeTraceKind[] = ['single-peak', 'pinch-off', 'open-channel', 'step', 'noise'];

export interface CoulombBlockadeTraceOptions {
  length?: number;
  kind?: CoulombBlockadeTraceKind;
  snrRange?: readonly [number, number];
}

export interface CoulombBlockadeTrace {
  trace: Float64Array;
  kind: CoulombBlockadeTraceKind;
  isBlockade: boolean;
  /** Labelled peak maxima (≥ 3σ) of peak-bearing kinds, ascending; empty otherwise. */
  peakIndices: number[];
  /** Peaks ≥ BLOCKADE_PEAK_SNR σ. */
  strongPeakCount: number;
  noiseStd: number;
  noiseMix: NoiseMix | null;
}

export function generateCoulombBlockadeTrace(seed: number, options: CoulombBlockadeTraceOptions = {}): CoulombBlockadeTrace {
  const random = createSeededRandom(deriveSeed(seed, 'coulomb-blockade-trace'));
  const length = options.length ?? BLOCKADE_TRACE_LENGTHS[random.integer(0, BLOCKADE_TRACE_LENGTHS.length - 1)]!;
  const kind = options.kind ?? (random.chance(0.5) ? 'blockade' : BLOCKADE_NEGATIVE_KINDS[random.integer(0, BLOCKADE_NEGATIVE_KINDS.length - 1)]!);
  const inner = random.integer(0, 2 ** 31);
  const snrRange = options.snrRange ? { snrRange: options.snrRange } : {};
  if (kind === 'pinch-off' || kind === 'open-channel') {
    const t = generatePinchOffTrace(inner, { length, kind: kind === 'pinch-off' ? 'pinch-off' : 'flat-open', ...snrRange });
    return { trace: t.trace, kind, isBlockade: false, peakIndices: [], strongPeakCount: 0, noiseStd: t.noiseStd, noiseMix: t.noiseMix };
  }
  if (kind === 'step' || kind === 'noise') {
    const t = generateCoulombPeakTrace(inner, { length, kind, ...snrRange });
    return { trace: t.trace, kind, isBlockade: false, peakIndices: [], strongPeakCount: 0, noiseStd: t.noiseStd, noiseMix: t.noiseMix };
  }
  for (let attempt = 0; ; attempt++) {
    const peakCount = kind === 'blockade' ? random.integer(2, 12) : 1;
    const t = generateCoulombPeakTrace(deriveSeed(inner, `attempt-${attempt}`), { length, kind: 'peaks', peakCount, ...snrRange });
    const strong = t.peakAmplitudes.filter((a) => a >= BLOCKADE_PEAK_SNR * t.noiseStd).length;
    const ok = kind === 'blockade' ? strong >= 2 : t.peakIndices.length === 1 && strong === 1 && t.ignoredPeakIndices.length === 0;
    if (ok || attempt >= MAX_REDRAWS) {
      return {
        trace: t.trace,
        kind,
        isBlockade: kind === 'blockade' && ok,
        peakIndices: t.peakIndices,
        strongPeakCount: strong,
        noiseStd: t.noiseStd,
        noiseMix: t.noiseMix,
      };
    }
  }
}
