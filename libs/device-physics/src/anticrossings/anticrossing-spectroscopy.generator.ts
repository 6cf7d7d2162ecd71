// Resonator-vs-flux spectroscopy of a flux-tunable transmon coupled to a readout resonator, with exact labels
// of the avoided crossings.
// - Transmon: f_q(Φ) = f_max·sqrt(|cos(πΦ/Φ0)|) (Koch et al., Phys. Rev. A 76, 042319 (2007), Eq. 2.18 for a
//   symmetric SQUID), periodic in flux with Φ0 ↔ `periodColumns` columns.
// - Coupling: the 2×2 Jaynes–Cummings block in the one-excitation manifold gives dressed modes
//   f± = (f_r + f_q)/2 ± sqrt(g² + (f_r − f_q)²/4) with photon weights cos²θ, sin²θ, tan 2θ = 2g/(f_q − f_r)
//   (Blais et al., Phys. Rev. A 69, 062320 (2004)); splitting 2g at resonance.
// - Transmission: each dressed mode is a notch (Probst et al., Rev. Sci. Instrum. 86, 024706 (2015), Eq. 1) with
//   external coupling w·κ_c and total linewidth w·κ + (1 − w)·γ, so the qubit-like branch fades away from the
//   crossing. Spurious flux-independent lines (uncoupled modes), baseline slope and ripple, electrical delay,
//   per-column gain/phase drift (1/f along the flux sweep) and complex Gaussian noise are added to S21.
// All frequencies are in rows (frequency samples) of the (801,) frequency axis; flux in columns of (127,).
import { createSeededRandom, deriveSeed, type SeededRandom } from '../seeded-random.js';
import { pinkNoise } from '../measurement-noise.js';

export const ANTICROSSING_FREQUENCY_ROWS = 801;
export const ANTICROSSING_FLUX_COLUMNS = 127;
/** Crossings centred closer than this to the first/last flux column are "don't care" (half a crossing visible). */
export const ANTICROSSING_EDGE_COLUMNS = 2;
/** Coupling g range, rows (splitting 2g: 12–60 rows). */
export const COUPLING_ROWS = [6, 30] as const;
/** Resonator linewidth κ range, rows. */
export const RESONATOR_LINEWIDTH_ROWS = [2, 6] as const;
/** Notch depth / noise std per quadrature (of the bare resonator). */
export const ANTICROSSING_SNR = [4, 60] as const;

export type AnticrossingSceneKind = 'crossings' | 'dispersive' | 'no-qubit' | 'noise';

export interface AnticrossingLabel {
  /** Flux column of exact resonance f_q = f_r (fractional). */
  x: number;
  /** Frequency row of the crossing centre (the bare resonator, = (f_r + f_q)/2 at resonance), fractional. */
  y: number;
  /** 2g in rows. */
  splittingPx: number;
}

export interface AnticrossingSpectroscopyOptions {
  kind?: AnticrossingSceneKind;
  snr?: number;
  /** Range of g, rows (default COUPLING_ROWS); e.g. [30, 45] for large splittings of 60–90 rows. */
  couplingRows?: readonly [number, number];
  /**
   * Sweet spot f_max − f_r of crossing maps in units of g (default: max(4g, 40 rows) … 400 rows). A sweet spot close
   * above the resonator (e.g. [1.5, 3]) keeps the qubit near it over most of the flux period, so the resonator is
   * dispersively pulled by g²/Δ in most columns and the flux-median line is not the bare resonator.
   */
  sweetSpotOverG?: readonly [number, number];
}

export interface AnticrossingSpectroscopy {
  /** (2, 801, 127) C order: channel 0 = |S21| (linear), channel 1 = arg S21 (rad, wrapped). */
  data: Float64Array;
  shape: [2, number, number];
  kind: AnticrossingSceneKind;
  /** Crossings inside the flux window, ascending x (edge ones excluded, see `ignored`). */
  crossings: AnticrossingLabel[];
  /** Crossings within ANTICROSSING_EDGE_COLUMNS of the window edge: neither required nor penalised. */
  ignored: AnticrossingLabel[];
  resonatorRow: number;
  couplingRows: number;
  /** |df_q/dcolumn| at the crossings, rows per column. */
  qubitSlope: number;
  spuriousRows: number[];
  snr: number;
}

interface Mode {
  centre: number;
  weight: number;
  linewidth: number;
}

function qubitRow(column: number, q: { fMax: number; offset: number; c0: number; period: number }): number {
  return q.fMax * Math.sqrt(Math.abs(Math.cos((Math.PI * (column - q.c0)) / q.period))) - q.offset;
}

/** Dressed modes of a resonator at `fr` and a qubit at `fq` (rows) with coupling g; resonator-like first. */
export function dressedModes(fr: number, fq: number, g: number): { resonatorLike: number; qubitLike: number; resonatorWeight: number } {
  const delta = fq - fr;
  const root = Math.sqrt(g * g + (delta * delta) / 4);
  const mean = (fr + fq) / 2;
  const cos2Theta = root > 0 ? Math.abs(delta) / (2 * root) : 1;
  const resonatorWeight = (1 + cos2Theta) / 2;
  return delta >= 0
    ? { resonatorLike: mean - root, qubitLike: mean + root, resonatorWeight }
    : { resonatorLike: mean + root, qubitLike: mean - root, resonatorWeight };
}

function drawKind(random: SeededRandom): AnticrossingSceneKind {
  const u = random.uniform();
  return u < 0.75 ? 'crossings' : u < 0.88 ? 'dispersive' : u < 0.95 ? 'no-qubit' : 'noise';
}

export function generateAnticrossingSpectroscopy(seed: number, options: AnticrossingSpectroscopyOptions = {}): AnticrossingSpectroscopy {
  const random = createSeededRandom(deriveSeed(seed, 'anticrossing-spectroscopy'));
  const rows = ANTICROSSING_FREQUENCY_ROWS;
  const cols = ANTICROSSING_FLUX_COLUMNS;
  const kind = options.kind ?? drawKind(random);
  const snr = options.snr ?? random.logBetween(ANTICROSSING_SNR[0], ANTICROSSING_SNR[1]);

  const resonatorRow = random.between(180, rows - 180);
  const kappa = random.between(RESONATOR_LINEWIDTH_ROWS[0], RESONATOR_LINEWIDTH_ROWS[1]);
  const couplingRatio = random.between(0.5, 0.9); // κ_c/κ: notch depth of the bare resonator
  const gamma = kappa * random.between(0.2, 1);
  const couplingRange = options.couplingRows ?? COUPLING_ROWS;
  const g = random.between(couplingRange[0], couplingRange[1]);
  const period = random.between(60, 220);
  const c0 = random.between(-period / 2, cols + period / 2);

  // Qubit: slope at the crossing s (rows/column) fixes f_max given the detuning δ = f_max − f_r of the sweet spot:
  // near the top, s ≈ sqrt(f_max·δ)·π/P. s ≤ 3g keeps the crossing ≥ 1.3 columns wide (visible on the grid).
  let qubit: { fMax: number; offset: number; c0: number; period: number } | null = null;
  let slope = 0;
  if (kind === 'crossings' || kind === 'dispersive') {
    for (let attempt = 0; attempt < 100 && !qubit; attempt++) {
      slope = random.between(0.3 * g, 3 * g);
      const delta =
        kind === 'crossings'
          ? options.sweetSpotOverG
            ? random.between(options.sweetSpotOverG[0] * g, options.sweetSpotOverG[1] * g)
            : random.between(Math.max(4 * g, 40), 400)
          : -random.between(4 * g, 200);
      const fMax = (slope * period) / Math.PI;
      const fMaxRows = (fMax * fMax) / Math.abs(delta);
      if (fMaxRows < 3 * Math.abs(delta) + rows) continue;
      // f_max in rows above the window origin: resonator row + δ.
      const candidate = { fMax: fMaxRows, offset: fMaxRows - (resonatorRow + delta), c0, period };
      if (kind === 'crossings') {
        const half = (period / Math.PI) * Math.acos(((fMaxRows - delta) / fMaxRows) ** 2);
        if (2 * half < 10) continue;
      }
      qubit = candidate;
    }
  }

  const crossings: AnticrossingLabel[] = [];
  const ignored: AnticrossingLabel[] = [];
  if (qubit && kind === 'crossings') {
    const delta = qubit.fMax - qubit.offset - resonatorRow;
    const half = (qubit.period / Math.PI) * Math.acos(((qubit.fMax - delta) / qubit.fMax) ** 2);
    for (let k = -3; k <= 3; k++) {
      for (const x of [qubit.c0 + k * qubit.period - half, qubit.c0 + k * qubit.period + half]) {
        if (x < -0.5 || x > cols - 0.5) continue;
        const label = { x, y: resonatorRow, splittingPx: 2 * g };
        if (x < ANTICROSSING_EDGE_COLUMNS || x > cols - 1 - ANTICROSSING_EDGE_COLUMNS) ignored.push(label);
        else crossings.push(label);
      }
    }
    crossings.sort((a, b) => a.x - b.x);
  }

  // Spurious flux-independent lines (uncoupled modes), ≥ 70 rows from the resonator.
  const spuriousRows: number[] = [];
  const spurious: { row: number; depth: number; linewidth: number }[] = [];
  const spuriousCount = kind === 'noise' ? 0 : random.integer(0, 2);
  for (let attempt = 0; spurious.length < spuriousCount && attempt < 50; attempt++) {
    const row = random.between(20, rows - 20);
    if (Math.abs(row - resonatorRow) < 70 || spurious.some((s) => Math.abs(s.row - row) < 30)) continue;
    spurious.push({ row, depth: random.between(0.1, 0.6), linewidth: random.between(1.5, 10) });
    spuriousRows.push(row);
  }

  // Environment: slope, ripple, electrical delay (phase slope over the window), per-column drifts.
  const amplitude = random.logBetween(1e-3, 10);
  const tilt = random.between(-0.3, 0.3);
  const rippleAmplitude = random.between(0, 0.08);
  const ripplePeriod = random.between(150, 1200);
  const ripplePhase = random.between(0, 2 * Math.PI);
  const delayTurns = random.between(-3, 3); // phase turns across the frequency window
  const alpha = random.between(-Math.PI, Math.PI);
  const phi = random.between(-0.5, 0.5);
  const gainDrift = pinkNoise(random, cols);
  const phaseDrift = pinkNoise(random, cols);
  const gainDriftStd = random.between(0, 0.02);
  const phaseDriftStd = random.between(0, 0.05);
  const depth = couplingRatio;
  const noiseStd = kind === 'noise' ? amplitude * 0.05 : (amplitude * depth) / snr;

  const data = new Float64Array(2 * rows * cols);
  const cosPhi = Math.cos(phi);
  const sinPhi = Math.sin(phi);
  // Per-row environment (tilt × ripple, delay phase) and per-column drift, combined by angle addition.
  const rowGain = Float64Array.from(
    { length: rows },
    (_, r) => (1 + tilt * (r / (rows - 1) - 0.5)) * (1 + rippleAmplitude * Math.cos((2 * Math.PI * r) / ripplePeriod + ripplePhase)),
  );
  const rowCos = Float64Array.from({ length: rows }, (_, r) => Math.cos(-2 * Math.PI * delayTurns * (r / (rows - 1))));
  const rowSin = Float64Array.from({ length: rows }, (_, r) => Math.sin(-2 * Math.PI * delayTurns * (r / (rows - 1))));
  const modes: Mode[] = [];
  for (let c = 0; c < cols; c++) {
    modes.length = 0;
    if (kind !== 'noise') {
      if (qubit) {
        const fq = qubitRow(c, qubit);
        const m = dressedModes(resonatorRow, fq, g);
        modes.push({ centre: m.resonatorLike, weight: m.resonatorWeight, linewidth: m.resonatorWeight * kappa + (1 - m.resonatorWeight) * gamma });
        modes.push({ centre: m.qubitLike, weight: 1 - m.resonatorWeight, linewidth: (1 - m.resonatorWeight) * kappa + m.resonatorWeight * gamma });
      } else {
        modes.push({ centre: resonatorRow, weight: 1, linewidth: kappa });
      }
    }
    const columnGain = amplitude * (1 + gainDriftStd * gainDrift[c]!);
    const columnPhase = alpha + phaseDriftStd * phaseDrift[c]!;
    const colCos = Math.cos(columnPhase);
    const colSin = Math.sin(columnPhase);
    // Notch factor 1 − Σ_k d_k e^{iφ} / (1 + 2i(f − f_k)/κ_k), d_k = w_k κ_c / κ_k for the dressed modes.
    const lines = [
      ...modes.map((m) => ({ centre: m.centre, d: (couplingRatio * kappa * m.weight) / m.linewidth, lw: m.linewidth })),
      ...spurious.map((sp) => ({ centre: sp.row, d: sp.depth, lw: sp.linewidth })),
    ];
    for (let r = 0; r < rows; r++) {
      const env = columnGain * rowGain[r]!;
      const envCos = colCos * rowCos[r]! - colSin * rowSin[r]!;
      const envSin = colSin * rowCos[r]! + colCos * rowSin[r]!;
      let nRe = 1;
      let nIm = 0;
      for (const line of lines) {
        const u = (2 * (r - line.centre)) / line.lw;
        const den = 1 + u * u;
        nRe -= (line.d * (cosPhi + u * sinPhi)) / den;
        nIm -= (line.d * (sinPhi - u * cosPhi)) / den;
      }
      const re = env * (nRe * envCos - nIm * envSin) + noiseStd * random.normal();
      const im = env * (nRe * envSin + nIm * envCos) + noiseStd * random.normal();
      data[r * cols + c] = Math.hypot(re, im);
      data[rows * cols + r * cols + c] = Math.atan2(im, re);
    }
  }
  return {
    data,
    shape: [2, rows, cols],
    kind,
    crossings,
    ignored,
    resonatorRow,
    couplingRows: g,
    qubitSlope: slope,
    spuriousRows,
    snr,
  };
}
