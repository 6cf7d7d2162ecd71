// Charge-sensor maps of a quantum dot being emptied, with exact labels: axis 0 = plunger (101 rows), axis 1 =
// time or a barrier gate (51 columns), C order (row-major), each column one plunger sweep.
// - Occupation: the k-th electron leaves as the plunger goes down through r_k; its mean occupation is a Fermi
//   function of width w (thermal broadening of the dot level, Beenakker 1991). With a barrier on axis 1, the
//   cross-capacitance shifts r_k linearly across the columns (a few rows at most).
// - Sensor: a nearby sensing dot on the flank of its Coulomb peak, linearised: a sloped, slightly curved background
//   in the plunger (cross-capacitance to the sensor) plus a step of height h_k per electron (Elzerman et al.,
//   Nature 430, 431 (2004); Field et al., PRL 70, 1311 (1993)).
// - Telegraph switching near a transition: when tunnelling is slow compared with the sampling, the occupation
//   near r_k switches randomly in time: a two-state Markov chain along axis 1 with the Fermi probability as its
//   stationary occupation (band half-width b_k rows) — random telegraph signal (Kirton & Uren 1989).
// - Noise: white plus 1/f along the acquisition order (column after column), scaled to a step-height SNR.
// Texture labels per pixel: 'telegraph' inside a switching band, 'step' within the thermal step, 'flat' elsewhere.
import { createSeededRandom, deriveSeed } from '../seeded-random.js';
import { pinkNoise, whiteNoise } from '../measurement-noise.js';

export const UNLOAD_PLUNGER_ROWS = 101;
export const UNLOAD_AXIS1_COLUMNS = 51;
export const UNLOAD_MAX_TRANSITIONS = 5;
/** Closest two transitions may come, rows (addition energy). */
export const UNLOAD_MIN_SEPARATION_ROWS = 10;
/** Transitions keep this far from the first/last row. */
export const UNLOAD_EDGE_ROWS = 4;
/** Step height / total noise std per pixel. */
export const UNLOAD_SNR = [1.5, 30] as const;
/** Half-width of a 'step' texture band beyond the thermal width: |row − r_k| ≤ STEP_BAND_ROWS + 2w. */
export const STEP_BAND_ROWS = 1;

export const TEXTURE_KINDS = ['flat', 'step', 'telegraph'] as const;
export type TextureKind = (typeof TEXTURE_KINDS)[number];

export interface UnloadTransition {
  /** Row of the transition at the middle column (fractional). */
  row: number;
  /** Rows shifted from the first to the last column (0 in time mode). */
  shift: number;
  width: number;
  height: number;
  /** Half-width of the telegraph band, rows (0 = no switching). */
  telegraphRows: number;
}

export interface ElectronUnloadingOptions {
  axis1?: 'time' | 'barrier';
  transitions?: number;
  snr?: number;
}

export interface ElectronUnloadingMap {
  data: Float64Array;
  shape: [number, number];
  axis1: 'time' | 'barrier';
  transitions: UnloadTransition[];
  /** Labels: round(transition row at the middle column), ascending. */
  unloadIndices: number[];
  /** Per pixel index into TEXTURE_KINDS (C order). */
  texture: Uint8Array;
  snr: number;
}

export function transitionRowAt(t: UnloadTransition, column: number, columns: number): number {
  return t.row + t.shift * (column / (columns - 1) - 0.5);
}

export function generateElectronUnloadingMap(seed: number, options: ElectronUnloadingOptions = {}): ElectronUnloadingMap {
  const random = createSeededRandom(deriveSeed(seed, 'electron-unloading-map'));
  const rows = UNLOAD_PLUNGER_ROWS;
  const cols = UNLOAD_AXIS1_COLUMNS;
  const axis1 = options.axis1 ?? (random.chance(0.5) ? 'time' : 'barrier');
  const count = options.transitions ?? (random.chance(0.1) ? 0 : random.integer(1, UNLOAD_MAX_TRANSITIONS));
  const snr = options.snr ?? random.logBetween(UNLOAD_SNR[0], UNLOAD_SNR[1]);
  const height = random.logBetween(1e-3, 10) * (random.chance(0.5) ? 1 : -1);

  const transitions: UnloadTransition[] = [];
  for (let attempt = 0; transitions.length < count && attempt < 500; attempt++) {
    const row = random.between(UNLOAD_EDGE_ROWS, rows - 1 - UNLOAD_EDGE_ROWS);
    if (transitions.some((t) => Math.abs(t.row - row) < UNLOAD_MIN_SEPARATION_ROWS)) continue;
    const shift = axis1 === 'barrier' ? random.between(-4, 4) : 0;
    const edge = Math.min(row - Math.abs(shift) / 2, rows - 1 - row - Math.abs(shift) / 2);
    if (edge < UNLOAD_EDGE_ROWS - 1) continue;
    transitions.push({
      row,
      shift,
      width: random.between(0.3, 1.5),
      height: height * random.between(0.7, 1.3),
      telegraphRows: random.chance(axis1 === 'time' ? 0.5 : 0.2) ? random.between(1.5, 3.5) : 0,
    });
  }
  transitions.sort((a, b) => a.row - b.row);

  const slope = height * random.between(-3, 3);
  const curvature = height * random.between(-1.5, 1.5);
  const data = new Float64Array(rows * cols);
  const texture = new Uint8Array(rows * cols);
  // Telegraph: per band row, a Markov chain along the columns, mean dwell 1.5–8 columns.
  const dwell = random.between(1.5, 8);
  for (const t of transitions) {
    const band = t.telegraphRows;
    for (let r = 0; r < rows; r++) {
      let state = -1;
      for (let c = 0; c < cols; c++) {
        const centre = transitionRowAt(t, c, cols);
        const distance = r - centre;
        let occupation: number;
        if (band > 0 && Math.abs(distance) <= band) {
          const p = 1 / (1 + Math.exp(-distance / (band / 2)));
          // Two-state chain with stationary occupation p and mean dwell `dwell` (in the rarer state).
          if (state < 0) state = random.chance(p) ? 1 : 0;
          const leave = state === 1 ? (1 - p) / (dwell * Math.max(p, 1 - p)) : p / (dwell * Math.max(p, 1 - p));
          if (random.chance(Math.min(1, leave))) state = 1 - state;
          occupation = state;
          texture[r * cols + c] = 2;
        } else {
          occupation = 1 / (1 + Math.exp(-distance / t.width));
          if (Math.abs(distance) <= STEP_BAND_ROWS + 2 * t.width && texture[r * cols + c] !== 2) texture[r * cols + c] = 1;
        }
        data[r * cols + c] += t.height * occupation;
      }
    }
  }
  const noiseStd = Math.abs(height) / snr;
  const pinkFraction = random.between(0, 0.5);
  // Acquisition order: column after column (each column one plunger sweep).
  const white = whiteNoise(random, rows * cols);
  const pink = pinkNoise(random, rows * cols);
  const offset = random.between(-5, 5) * Math.abs(height);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) {
      const u = r / (rows - 1) - 0.5;
      const k = c * rows + r;
      const noise = noiseStd * (Math.sqrt(1 - pinkFraction) * white[k]! + Math.sqrt(pinkFraction) * pink[k]!);
      data[r * cols + c] += offset + slope * u + curvature * u * u + noise;
    }
  }
  const unloadIndices = transitions.map((t) => Math.round(t.row));
  return { data, shape: [rows, cols], axis1, transitions, unloadIndices, texture, snr };
}
