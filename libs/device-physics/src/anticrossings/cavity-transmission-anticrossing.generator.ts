// Resonator-vs-flux maps from the linear-response transmission of a notch-coupled cavity with a flux-tunable
// transmon (issue #29: an independent generator, written apart from anticrossing-spectroscopy.generator.ts).
// - Transmission (input–output theory, Gardiner & Collett, Phys. Rev. A 31, 3761 (1985); weak drive, single
//   excitation, the qubit as a damped oscillator coupled with strength g):
//     S21(f) = 1 − (κ_c/2) / (κ/2 − i(f − f_r) + g² / (γ/2 − i(f − f_q)))
//   whose poles are the Jaynes–Cummings dressed modes E± = ½(f_r + f_q) ± ½√((f_r − f_q)² + (2g)²) (Blais et al.,
//   Phys. Rev. A 69, 062320 (2004)): splitting 2g at f_q = f_r. Nothing here sums Lorentzian notches per branch.
// - Qubit: asymmetric-SQUID transmon f_q(Φ) = f_max·(cos²(πΦ/Φ0) + d²·sin²(πΦ/Φ0))^¼ (Koch et al., Phys. Rev. A 76,
//   042319 (2007), Eq. 2.18), asymmetry d ∈ [0, 0.6]. The map is built from the crossing: its column and the qubit
//   slope there fix the flux period.
// Cases (why each one exists on a real chip):
// - `crossings`: g 4–30 rows; `large`: g 30–40 rows (2g = 60–80 of 801 rows: strongly coupled readout resonators
//   of fast-readout designs, g/2π ≈ 100–200 MHz on wide windows);
// - `edge`: one crossing 3–8 columns from the first or last flux column (the flux window is chosen around the sweet
//   spot, so the crossings often fall at its ends);
// - negatives: `no-qubit` (a bare resonator: a qubit-less test structure), `above` (the SQUID asymmetry keeps the
//   qubit's minimum √d·f_max ≥ 3g above f_r: the resonator moves with flux by g²/Δ but is never crossed), `below`
//   (f_max ≥ 3g below f_r), `empty` (no resonator in the window: background, standing waves and noise only).
// Nuisances, not the tuning generator's: a cable standing wave (two cosines), magnitude in dB for 40 % of maps,
// frequency axis descending for half of them (row 0 = highest frequency), per-column gain steps (amplifier
// range switching), a second uncoupled resonator for 30 % of maps, complex Gaussian noise with SNR = bare notch
// depth / noise σ per quadrature, log-uniform 5–50.
// Labels: x = column where f_q = f_r, y = row of f_r, splittingPx = 2g; crossings within 1 column of the window edge
// are `ignored` (neither required nor penalised).
import { createSeededRandom, deriveSeed } from '../seeded-random.js';
import { ANTICROSSING_FLUX_COLUMNS, ANTICROSSING_FREQUENCY_ROWS, type AnticrossingLabel } from './anticrossing-spectroscopy.generator.js';

export type CavityAnticrossingKind = 'crossings' | 'large' | 'edge' | 'no-qubit' | 'above' | 'below' | 'empty';

export const CAVITY_ANTICROSSING_KINDS: readonly CavityAnticrossingKind[] = ['crossings', 'large', 'edge', 'no-qubit', 'above', 'below', 'empty'];
/** Crossings centred closer than this to the first/last column are "don't care". */
export const CAVITY_ANTICROSSING_EDGE_COLUMNS = 1;
export const CAVITY_ANTICROSSING_SNR = [4, 50] as const;

export interface CavityAnticrossingMap {
  /** (2, 801, 127) C order: channel 0 = |S21| (linear or dB), channel 1 = arg S21 (rad). */
  data: Float64Array;
  shape: [2, number, number];
  kind: CavityAnticrossingKind;
  crossings: AnticrossingLabel[];
  ignored: AnticrossingLabel[];
  /** Row of the bare resonator (as stored: after any axis reversal); NaN for `empty`. */
  resonatorRow: number;
  couplingRows: number;
  snr: number;
  decibels: boolean;
  descending: boolean;
}

export interface CavityAnticrossingOptions {
  kind?: CavityAnticrossingKind;
  snr?: number;
}

const G_ROWS: Record<'crossings' | 'large' | 'edge', readonly [number, number]> = { crossings: [4, 30], large: [30, 40], edge: [6, 40] };

/** (cos²φ + d² sin²φ)^¼ and its derivative in φ. */
function squidFactor(phi: number, d: number): { value: number; slope: number } {
  const c = Math.cos(phi);
  const s = Math.sin(phi);
  const inner = c * c + d * d * s * s;
  const value = inner ** 0.25;
  return { value, slope: (-(1 - d * d) * 2 * s * c) / (4 * inner ** 0.75) };
}

export function generateCavityAnticrossingMap(seed: number, options: CavityAnticrossingOptions = {}): CavityAnticrossingMap {
  const random = createSeededRandom(deriveSeed(seed, 'cavity-transmission-anticrossing'));
  const rows = ANTICROSSING_FREQUENCY_ROWS;
  const cols = ANTICROSSING_FLUX_COLUMNS;
  const kind = options.kind ?? CAVITY_ANTICROSSING_KINDS[random.integer(0, CAVITY_ANTICROSSING_KINDS.length - 1)]!;
  const snr = options.snr ?? random.logBetween(CAVITY_ANTICROSSING_SNR[0], CAVITY_ANTICROSSING_SNR[1]);

  // Frequency axis in GHz: row r (ascending) ↔ f0 + r·step.
  const f0 = random.between(4.5, 7.5);
  const step = random.between(0.08, 0.4) * 1e-3; // GHz per row
  const fr = f0 + random.between(150, rows - 150) * step;
  const kappa = random.logBetween(0.8, 12) * step;
  const kappaC = kappa * random.between(0.35, 0.9);
  const gamma = random.between(0.3, 4) * step;
  const crossingKind = kind === 'crossings' || kind === 'large' || kind === 'edge';
  const gRows = crossingKind ? random.between(G_ROWS[kind][0], G_ROWS[kind][1]) : random.between(4, 40);
  const g = gRows * step;

  // Qubit (GHz as a function of column), or null.
  let qubit: ((column: number) => number) | null = null;
  const crossingColumns: number[] = [];
  if (crossingKind) {
    for (let attempt = 0; attempt < 200 && !qubit; attempt++) {
      const d = random.between(0, 0.6);
      // Sweet spot f_max ≥ f_r + 2g; f_r/f_max = F(φ_c) ≥ d.
      // Half the qubits are parked 2–6 g above the resonator (the resonator is pulled by g²/Δ over most of the flux
      // period, so the flux-median line is not the bare resonator), half anywhere up to 700 rows above.
      const fMax = fr + (random.chance(0.5) ? random.between(2 * gRows, 6 * gRows) : random.between(Math.max(2 * gRows, 30), 700)) * step;
      const u = fr / fMax;
      if (u * u * u * u <= d * d) continue;
      const phiC = Math.acos(Math.sqrt((u ** 4 - d * d) / (1 - d * d)));
      const slopeRows = random.logBetween(0.15 * gRows, 8 * gRows); // |df_q/dcolumn| at the crossing, rows
      const period = (fMax * Math.abs(squidFactor(phiC, d).slope) * Math.PI) / (slopeRows * step); // columns per Φ0
      if (period < 30 || period > 2000 || (2 * phiC * period) / Math.PI < 12) continue;
      const first = kind === 'edge' ? (random.chance(0.5) ? random.between(3, 8) : cols - 1 - random.between(3, 8)) : random.between(8, cols - 9);
      const rising = random.chance(0.5); // the labelled crossing on the rising or the falling side of a lobe
      const c0 = first + ((rising ? 1 : -1) * phiC * period) / Math.PI;
      qubit = (column) => fMax * squidFactor((Math.PI * (column - c0)) / period, d).value;
      for (let k = -40; k <= 40; k++) {
        for (const x of [c0 + k * period - (phiC * period) / Math.PI, c0 + k * period + (phiC * period) / Math.PI]) {
          if (x > -0.5 && x < cols - 0.5) crossingColumns.push(x);
        }
      }
    }
  } else if (kind === 'above' || kind === 'below') {
    const d = kind === 'above' ? random.between(0.3, 0.7) : random.between(0, 0.6);
    const distance = random.between(3 * gRows, 3 * gRows + 300) * step;
    const fMax = kind === 'above' ? (fr + distance) / Math.sqrt(d) : fr - distance;
    const period = random.between(50, 300);
    const c0 = random.between(0, period);
    qubit = (column) => fMax * squidFactor((Math.PI * (column - c0)) / period, d).value;
  }

  const descending = random.chance(0.5);
  const decibels = random.chance(0.4);
  const toRow = (f: number): number => {
    const r = (f - f0) / step;
    return descending ? rows - 1 - r : r;
  };
  const crossings: AnticrossingLabel[] = [];
  const ignored: AnticrossingLabel[] = [];
  for (const x of crossingColumns.sort((a, b) => a - b)) {
    const label = { x, y: toRow(fr), splittingPx: 2 * gRows };
    (x < CAVITY_ANTICROSSING_EDGE_COLUMNS || x > cols - 1 - CAVITY_ANTICROSSING_EDGE_COLUMNS ? ignored : crossings).push(label);
  }

  // A second resonator (uncoupled to the qubit) ≥ 90 rows away, inside the window.
  let other: { f: number; kappa: number; kappaC: number } | null = null;
  if (kind !== 'empty' && random.chance(0.3)) {
    const row = random.between(20, rows - 20);
    if (Math.abs(row - (fr - f0) / step) >= 90) {
      const k = random.between(1.5, 8) * step;
      other = { f: f0 + row * step, kappa: k, kappaC: k * random.between(0.2, 0.8) };
    }
  }

  // Background: cable standing wave, electrical delay, per-column gain steps.
  const level = random.logBetween(1e-4, 1);
  const wave = [0, 1].map(() => ({ amplitude: random.between(0, 0.06), period: random.between(80, 900), phase: random.between(0, 2 * Math.PI) }));
  const delay = random.between(-40, 40); // ns: phase −2π f τ
  const steps = new Float64Array(cols).fill(1);
  const stepCount = random.integer(0, 2);
  for (let k = 0; k < stepCount; k++) {
    const at = random.integer(1, cols - 1);
    const factor = 1 + random.between(-0.08, 0.08);
    for (let c = at; c < cols; c++) steps[c] = steps[c]! * factor;
  }
  const noise = (level * (kappaC / kappa)) / snr;

  const data = new Float64Array(2 * rows * cols);
  for (let c = 0; c < cols; c++) {
    const fq = qubit ? qubit(c) : NaN;
    for (let r = 0; r < rows; r++) {
      const f = f0 + r * step;
      // Resonator response with the qubit's self-energy g²/(γ/2 − i(f − f_q)).
      let re = 1;
      let im = 0;
      if (kind !== 'empty') {
        let dRe = kappa / 2;
        let dIm = -(f - fr);
        if (qubit) {
          const qRe = gamma / 2;
          const qIm = -(f - fq);
          const q2 = qRe * qRe + qIm * qIm;
          dRe += (g * g * qRe) / q2;
          dIm -= (g * g * qIm) / q2;
        }
        const d2 = dRe * dRe + dIm * dIm;
        re -= ((kappaC / 2) * dRe) / d2;
        im += ((kappaC / 2) * dIm) / d2;
      }
      if (other) {
        const dRe = other.kappa / 2;
        const dIm = -(f - other.f);
        const d2 = dRe * dRe + dIm * dIm;
        const reBefore = re;
        // Multiply by the second notch 1 − (κ_c/2)/(κ/2 − i(f − f_o)).
        const nRe = 1 - ((other.kappaC / 2) * dRe) / d2;
        const nIm = ((other.kappaC / 2) * dIm) / d2;
        re = reBefore * nRe - im * nIm;
        im = reBefore * nIm + im * nRe;
      }
      let gain = level * steps[c]!;
      for (const w of wave) gain *= 1 + w.amplitude * Math.cos((2 * Math.PI * r) / w.period + w.phase);
      const phase = -2 * Math.PI * f * delay;
      const cp = Math.cos(phase);
      const sp = Math.sin(phase);
      const sRe = gain * (re * cp - im * sp) + noise * random.normal();
      const sIm = gain * (re * sp + im * cp) + noise * random.normal();
      const row = descending ? rows - 1 - r : r;
      const magnitude = Math.hypot(sRe, sIm);
      data[row * cols + c] = decibels ? 20 * Math.log10(Math.max(magnitude, 1e-12)) : magnitude;
      data[rows * cols + row * cols + c] = Math.atan2(sIm, sRe);
    }
  }
  return {
    data,
    shape: [2, rows, cols],
    kind,
    crossings,
    ignored,
    resonatorRow: kind === 'empty' ? NaN : toRow(fr),
    couplingRows: crossingKind ? gRows : 0,
    snr,
    decibels,
    descending,
  };
}
