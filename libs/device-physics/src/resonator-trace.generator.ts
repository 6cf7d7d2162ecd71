// Synthetic resonator spectroscopy traces as real instruments record them, with exact ground truth (issue #16).
// Each resonance (frequency fr, loaded Ql, coupling Ql/|Qc| = d, impedance-mismatch angle φ) multiplies the
// environment a·e^{iα}·e^{−2πifτ} by
//   notch / hanger (S21): 1 − d e^{iφ} / (1 + 2i Ql (f − fr)/fr)      — S. Probst et al., Rev. Sci. Instrum. 86,
//   reflection (S11):     1 − 2d e^{iφ} / (1 + 2i Ql (f − fr)/fr)       024706 (2015), Eqs. (1), (3); e^{iφ} is the
//                                                                        Khalil et al. (J. Appl. Phys. 111, 054510
//                                                                        (2012)) complex-Qc asymmetry.
// At high drive power a Kerr (kinetic-inductance) resonator shifts with its own photon number: with y = 2Ql(f/fr − 1)
// and a = n/n₀ the normalised photon number, a[1 + (y − ξa)²] = 1 (Duffing response; Swenson et al., J. Appl. Phys.
// 113, 104501 (2013)); the notch is evaluated at the pulled detuning y − ξa. For |ξ| > 4/√27·2 ≈ 1.54 the response is
// bistable; a sweep in index order follows the branch continuous from index 0 (largest root for ξ > 0, smallest for
// ξ < 0), giving the "shark-fin" dip with an abrupt edge.
//
// Physical variations (all sampled per seed; fractions below are for the default options):
// - mode: notch (70 %) or reflection (30 %); magnitude written linear or in dB (20 log10, 50 / 50);
// - internal vs coupling Q: Qi/Qc log-uniform in [0.1, 10] (under- to over-coupled), so d = Ql/Qc ∈ [0.09, 0.91];
// - Fano angle φ ∈ [−0.5, 0.5] rad (impedance mismatch of the feedline / asymmetric ground);
// - span: 30 % "zoomed" sweeps whose first dip has a FWHM of 10–80 % of the span (what a user measures after
//   centring on a known resonance); otherwise κ = fr/Ql log-uniform in [1.5, 0.1·L] samples (survey sweeps);
// - 0–4 resonances per sweep (multiplexed readout feedlines), ≥ 6 widths apart; 8 % of traces have none;
// - SNR = (shallowest dip depth in |S| units) / (noise std per quadrature), log-uniform in [5, 1e5] (5σ dips at
//   low power / short averaging up to VNA-clean traces at high power);
// - Kerr bistability (12 % of traces, |ξ| ∈ [0.5, 4]): high readout power on kinetic-inductance resonators;
// - standing-wave ripple (70 %): complex factor 1 + r e^{2πi f/P} from an impedance mismatch along the cables,
//   r ≤ 5 %, period ≥ 8 dip widths and ≥ L/8 (cable lengths ≫ resonator linewidth in frequency);
// - gain tilt ±30 % and curvature ±10 % across the span (amplifier and cable frequency response);
// - baseline steps (15 %, 1–2 steps of 1–6 %): segmented VNA sweeps and receiver/attenuator range switching; kept
//   ≥ 1.5 widths from every dip so that labels stay unambiguous;
// - cable delay τ ∈ [20, 80] ns (phase only; returned in the complex trace);
// - frequency grid: 20 % coarse sweeps of 50–120 points, else log-uniform 120–20 000 points; 15 % of grids are
//   uneven (±30 % jittered steps, or a dense segment around a resonance as adaptive sweeps do) and 5 % repeat a
//   few frequency points (segment boundaries of stitched sweeps).
// Labels per resonance: `index` = sample at the bottom of the noiseless dip (|S| minimum: fr for a symmetric
// notch, off fr for a Fano or Kerr dip), `centre` = fr as a fractional index, `linewidth` = fr/Ql in samples at fr,
// `width` = FWHM of the noiseless dip (in 1 − |S|²/baseline) in samples — the matching tolerance is ½ width.
import { createSeededRandom, deriveSeed, type SeededRandom } from './seeded-random.js';
import type { MagnitudeFormat } from './resonator-notch-trace.generator.js';

export const REALISTIC_RESONATOR_SNR_MIN = 5;
export const REALISTIC_RESONATOR_SNR_MAX = 1e5;
export const REALISTIC_RESONATOR_MIN_LENGTH = 50;
export const REALISTIC_RESONATOR_MAX_LENGTH = 20_000;
export const REALISTIC_MAX_DIPS = 4;
export const REALISTIC_MIN_LINEWIDTH_SAMPLES = 1.5;
export const REALISTIC_MAX_FANO_RAD = 0.5;
/** Closest two resonances may come, in widths of the wider one. */
export const REALISTIC_MIN_DIP_SEPARATION_WIDTHS = 6;

export type ResonatorMode = 'notch' | 'reflection';
export type FrequencyGrid = 'uniform' | 'jittered' | 'segmented' | 'duplicated';

export interface RealisticResonatorTraceOptions {
  /** Samples, ≥ 8; default: 20 % in [50, 120], else log-uniform in [120, 20 000]. */
  length?: number;
  /** Resonances (0 … 4). */
  dipCount?: number;
  format?: MagnitudeFormat;
  mode?: ResonatorMode;
  snrRange?: readonly [number, number];
  /** Force (true) or forbid (false) a zoomed sweep; `fill` sets its FWHM / span. */
  zoomed?: boolean;
  fill?: number;
  /** Force (true) or forbid (false) Kerr bistability; `kerr` sets ξ of every dip when a number. */
  kerr?: boolean | number;
  /** Fano angle of every dip, rad. */
  phi?: number;
  /** Force (true) or forbid (false) ripple, steps. */
  ripple?: boolean;
  steps?: boolean;
  grid?: FrequencyGrid;
  /** Qi/Qc of every dip. */
  qiOverQc?: number;
}

export interface RealisticResonatorDip {
  /** Sample at the bottom of the noiseless dip. */
  index: number;
  /** fr as a fractional index. */
  centre: number;
  /** fr/Ql in samples (local step at fr). */
  linewidth: number;
  /** FWHM of the noiseless dip in samples (1 − |S|²/baseline); ≥ linewidth for Kerr dips. */
  width: number;
  /** 1 − min |S| / baseline. */
  depth: number;
  /** Ql/|Qc|. */
  couplingRatio: number;
  qiOverQc: number;
  phi: number;
  /** Kerr parameter ξ (0: linear resonator). */
  kerr: number;
}

export interface RealisticResonatorTrace {
  trace: Float64Array;
  frequencyHz: Float64Array;
  /** Complex S (Re, Im) before taking the magnitude: includes cable delay and environment phase. */
  real: Float64Array;
  imag: Float64Array;
  format: MagnitudeFormat;
  mode: ResonatorMode;
  grid: FrequencyGrid;
  zoomed: boolean;
  dips: RealisticResonatorDip[];
  noiseStd: number;
  snr: number;
  rippleAmplitude: number;
  steps: number;
}

/** Real roots in (0, 1.0001] of ξ² a³ − 2yξ a² + (1 + y²) a − 1 = 0, ascending. */
function duffingRoots(y: number, xi: number): number[] {
  if (xi === 0) return [1 / (1 + y * y)];
  // Monic: a³ + p2 a² + p1 a + p0.
  const p2 = (-2 * y) / xi;
  const p1 = (1 + y * y) / (xi * xi);
  const p0 = -1 / (xi * xi);
  const q = (3 * p1 - p2 * p2) / 9;
  const r = (9 * p2 * p1 - 27 * p0 - 2 * p2 * p2 * p2) / 54;
  const disc = q * q * q + r * r;
  const roots: number[] = [];
  if (disc > 0) {
    const s = Math.cbrt(r + Math.sqrt(disc));
    const t = Math.cbrt(r - Math.sqrt(disc));
    roots.push(s + t - p2 / 3);
  } else {
    const theta = Math.acos(Math.max(-1, Math.min(1, r / Math.sqrt(-q * q * q))));
    const m = 2 * Math.sqrt(-q);
    for (let k = 0; k < 3; k++) roots.push(m * Math.cos((theta + 2 * Math.PI * k) / 3) - p2 / 3);
  }
  return roots.filter((a) => a > 0 && a <= 1.0001).sort((x, z) => x - z);
}

/** Detuning seen by the resonator at normalised drive detuning y (sweep in increasing index order). */
export function kerrPulledDetuning(y: number, xi: number): number {
  if (xi === 0) return y;
  const roots = duffingRoots(y, xi);
  if (roots.length === 0) return y;
  const a = xi > 0 ? roots.at(-1)! : roots[0]!;
  return y - xi * a;
}

/** Complex resonance factor at normalised detuning y. */
export function resonanceFactor(y: number, dip: { couplingRatio: number; phi: number; kerr: number }, mode: ResonatorMode): [number, number] {
  const u = kerrPulledDetuning(y, dip.kerr);
  const strength = (mode === 'reflection' ? 2 : 1) * dip.couplingRatio;
  const denominator = 1 + u * u;
  const re = 1 - (strength * (Math.cos(dip.phi) + u * Math.sin(dip.phi))) / denominator;
  const im = -(strength * (Math.sin(dip.phi) - u * Math.cos(dip.phi))) / denominator;
  return [re, im];
}

/** Depth (1 − min |F|) and FWHM (in y units, on 1 − |F|²) of a noiseless resonance factor, and y at its minimum. */
function dipShape(dip: { couplingRatio: number; phi: number; kerr: number }, mode: ResonatorMode): { depth: number; widthY: number; yMin: number } {
  const span = 12 + 2 * Math.abs(dip.kerr);
  const steps = 6000;
  const power = new Float64Array(steps + 1);
  let best = 0;
  for (let k = 0; k <= steps; k++) {
    const [re, im] = resonanceFactor(-span + (2 * span * k) / steps, dip, mode);
    power[k] = re * re + im * im;
    if (power[k]! < power[best]!) best = k;
  }
  const half = (1 + power[best]!) / 2;
  let left = best;
  while (left > 0 && power[left]! < half) left--;
  let right = best;
  while (right < steps && power[right]! < half) right++;
  return { depth: 1 - Math.sqrt(power[best]!), widthY: ((right - left) * 2 * span) / steps, yMin: -span + (2 * span * best) / steps };
}

function chooseLength(random: SeededRandom): number {
  if (random.chance(0.2)) return random.integer(REALISTIC_RESONATOR_MIN_LENGTH, 120);
  return Math.round(random.logBetween(120, REALISTIC_RESONATOR_MAX_LENGTH));
}

/** Index positions of each frequency step (cumulative), for the chosen grid kind. */
function frequencyGrid(random: SeededRandom, length: number, kind: FrequencyGrid, dense: number): Float64Array {
  const position = new Float64Array(length);
  for (let i = 1; i < length; i++) {
    let step = 1;
    if (kind === 'jittered') step = random.between(0.7, 1.3);
    if (kind === 'segmented') step = Math.abs(i - dense) < 0.15 * length ? 0.5 : 1.25;
    if (kind === 'duplicated' && random.chance(Math.min(0.2, 4 / length))) step = 0;
    position[i] = position[i - 1]! + step;
  }
  // Rescale to span [0, length − 1] in "nominal index" units.
  const last = position[length - 1]! || 1;
  for (let i = 0; i < length; i++) position[i] = (position[i]! * (length - 1)) / last;
  return position;
}

export function generateRealisticResonatorTrace(seed: number, options: RealisticResonatorTraceOptions = {}): RealisticResonatorTrace {
  const random = createSeededRandom(deriveSeed(seed, 'realistic-resonator-trace'));
  const length = options.length ?? chooseLength(random);
  if (!Number.isInteger(length) || length < 8) throw new RangeError(`expected an integer length ≥ 8; got ${length}`);
  const format: MagnitudeFormat = options.format ?? (random.chance(0.5) ? 'linear' : 'dB');
  const mode: ResonatorMode = options.mode ?? (random.chance(0.3) ? 'reflection' : 'notch');
  const zoomed = options.zoomed ?? random.chance(0.3);
  const fill = options.fill ?? random.between(0.1, 0.8);
  const requested =
    options.dipCount ?? (zoomed ? (fill < 0.3 && random.chance(0.25) ? 2 : 1) : random.chance(0.08) ? 0 : random.integer(1, REALISTIC_MAX_DIPS));
  const [snrLow, snrHigh] = options.snrRange ?? [REALISTIC_RESONATOR_SNR_MIN, REALISTIC_RESONATOR_SNR_MAX];
  const snr = random.logBetween(snrLow, snrHigh);
  const kerrTrace = typeof options.kerr === 'number' ? options.kerr !== 0 : (options.kerr ?? random.chance(0.12));
  const gridRoll = random.uniform();
  const grid: FrequencyGrid = options.grid ?? (gridRoll < 0.05 ? 'duplicated' : gridRoll < 0.125 ? 'jittered' : gridRoll < 0.2 ? 'segmented' : 'uniform');

  // Environment a e^{iα} e^{−2πifτ}; nominal frequency step (Hz per index unit).
  const a = random.logBetween(1e-3, 30);
  const alpha = random.between(-Math.PI, Math.PI);
  const tau = random.between(20e-9, 80e-9);
  const fStart = random.between(4e9, 8e9);
  const step = random.logBetween(1e3, 1e5);

  // Resonances, in nominal index units (κ and positions); widths via the noiseless shape.
  type Planned = Omit<RealisticResonatorDip, 'index' | 'linewidth' | 'width' | 'depth'> & { kappa: number; widthY: number; yMin: number; depth: number };
  const planned: Planned[] = [];
  const maxKappa = Math.max(REALISTIC_MIN_LINEWIDTH_SAMPLES, 0.1 * length);
  for (let attempt = 0; planned.length < requested && attempt < 300; attempt++) {
    const qiOverQc = options.qiOverQc ?? random.logBetween(0.1, 10);
    const couplingRatio = qiOverQc / (1 + qiOverQc);
    const phi = options.phi ?? random.between(-REALISTIC_MAX_FANO_RAD, REALISTIC_MAX_FANO_RAD);
    const kerr = typeof options.kerr === 'number' ? options.kerr : kerrTrace ? (random.chance(0.5) ? 1 : -1) * random.between(0.5, 4) : 0;
    const shape = dipShape({ couplingRatio, phi, kerr }, mode);
    let kappa: number;
    if (zoomed && planned.length === 0) kappa = (fill * (length - 1)) / (shape.widthY / 2);
    else kappa = random.logBetween(REALISTIC_MIN_LINEWIDTH_SAMPLES, maxKappa);
    const width = (shape.widthY / 2) * kappa;
    const bottomOffset = (shape.yMin / 2) * kappa;
    // Keep the dip bottom ≥ max(2, ½ width) from both ends (zoomed: the bottom in the middle 40 %).
    const margin = Math.max(2, 0.5 * width);
    const low = zoomed && planned.length === 0 ? 0.3 * (length - 1) : margin;
    const high = zoomed && planned.length === 0 ? 0.7 * (length - 1) : length - 1 - margin;
    if (!(high > low)) continue;
    const bottom = random.between(low, high);
    const centre = bottom - bottomOffset;
    const clash = planned.some(
      (p) => Math.abs(p.centre + (p.yMin / 2) * p.kappa - bottom) < REALISTIC_MIN_DIP_SEPARATION_WIDTHS * Math.max((p.widthY / 2) * p.kappa, width),
    );
    if (clash) continue;
    planned.push({ centre, kappa, couplingRatio, qiOverQc, phi, kerr, widthY: shape.widthY, yMin: shape.yMin, depth: shape.depth });
  }
  planned.sort((p, q) => p.centre - q.centre);

  const denseAt = planned.length > 0 ? planned[0]!.centre : length / 2;
  const position = frequencyGrid(random, length, grid, denseAt);
  const frequencyHz = position.map((p) => fStart + p * step);
  const widest = Math.max(1, ...planned.map((p) => (p.widthY / 2) * p.kappa));

  // Environment nuisances.
  const rippleOn = options.ripple ?? random.chance(0.7);
  const rippleAmplitude = rippleOn ? random.between(0.003, 0.05) : 0;
  const ripplePeriod = random.logBetween(Math.max(8 * widest, length / 8), Math.max(8 * widest, length / 8) * 20);
  const ripplePhase = random.between(0, 2 * Math.PI);
  const tilt = random.between(-0.3, 0.3);
  const curvature = random.between(-0.1, 0.1);
  const stepsOn = options.steps ?? random.chance(0.15);
  const stepPositions: { at: number; factor: number }[] = [];
  if (stepsOn) {
    const count = random.integer(1, 2);
    for (let attempt = 0; stepPositions.length < count && attempt < 50; attempt++) {
      const at = random.between(0.05 * length, 0.95 * length);
      const clear = planned.every((p) => Math.abs(p.centre + (p.yMin / 2) * p.kappa - at) > 1.5 * Math.max(2, (p.widthY / 2) * p.kappa) + 2);
      if (clear) stepPositions.push({ at, factor: 1 + (random.chance(0.5) ? 1 : -1) * random.between(0.01, 0.06) });
    }
  }

  const shallowest = planned.length > 0 ? Math.min(...planned.map((p) => p.depth)) : 0.3;
  const noiseStd = (a * shallowest) / snr;
  const trace = new Float64Array(length);
  const real = new Float64Array(length);
  const imag = new Float64Array(length);
  // Noiseless factor per dip, for labels.
  const isolated = planned.map(() => new Float64Array(length));
  for (let i = 0; i < length; i++) {
    const x = position[i]!;
    const f = frequencyHz[i]!;
    const s = x / Math.max(1, length - 1) - 0.5;
    let gain = a * (1 + tilt * s + curvature * (s * s - 1 / 12));
    for (const st of stepPositions) if (x >= st.at) gain *= st.factor;
    const envPhase = alpha - 2 * Math.PI * ((f * tau) % 1);
    let re = gain * Math.cos(envPhase);
    let im = gain * Math.sin(envPhase);
    if (rippleAmplitude > 0) {
      const w = (2 * Math.PI * x) / ripplePeriod + ripplePhase;
      const rRe = 1 + rippleAmplitude * Math.cos(w);
      const rIm = rippleAmplitude * Math.sin(w);
      [re, im] = [re * rRe - im * rIm, re * rIm + im * rRe];
    }
    planned.forEach((p, k) => {
      const [fRe, fIm] = resonanceFactor((2 * (x - p.centre)) / p.kappa, p, mode);
      isolated[k]![i] = Math.hypot(fRe, fIm);
      [re, im] = [re * fRe - im * fIm, re * fIm + im * fRe];
    });
    re += noiseStd * random.normal();
    im += noiseStd * random.normal();
    real[i] = re;
    imag[i] = im;
    const magnitude = Math.hypot(re, im);
    trace[i] = format === 'linear' ? magnitude : 20 * Math.log10(Math.max(magnitude, 1e-300));
  }

  const dips: RealisticResonatorDip[] = planned.map((p, k) => {
    // Local samples per nominal index unit at fr (uneven grids).
    let j = 0;
    while (j < length - 2 && position[j + 1]! < p.centre) j++;
    const localStep = Math.max(1e-9, position[Math.min(length - 1, j + 1)]! - position[j]!);
    const samplesPerUnit = 1 / localStep;
    const profile = isolated[k]!;
    let index = 0;
    for (let i = 1; i < length; i++) if (profile[i]! < profile[index]!) index = i;
    // Fractional centre: interpolate fr on the grid.
    const centre = j + (p.centre - position[j]!) * samplesPerUnit;
    return {
      index,
      centre,
      linewidth: p.kappa * samplesPerUnit,
      width: (p.widthY / 2) * p.kappa * samplesPerUnit,
      depth: p.depth,
      couplingRatio: p.couplingRatio,
      qiOverQc: p.qiOverQc,
      phi: p.phi,
      kerr: p.kerr,
    };
  });
  return { trace, frequencyHz, real, imag, format, mode, grid, zoomed, dips, noiseStd, snr, rippleAmplitude, steps: stepPositions.length };
}
