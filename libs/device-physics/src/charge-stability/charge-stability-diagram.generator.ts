// Synthetic charge stability diagrams (two plunger gates, x = column gate, y = row gate) with exact labels, from
// the constant-interaction model in constant-interaction.ts (van der Wiel et al., Rev. Mod. Phys. 75, 1 (2003),
// Eqs. 1–3). Two read-outs:
// - charge sensing: a sensor dot next to the double dot, its gate charge shifted by the dots' thermal
//   occupations, n_s = s0 + b·(x, y) − κ1⟨N1⟩ − κ2⟨N2⟩, read on the flank of its Coulomb peaks
//   G ∝ Σ_k cosh⁻²((n_s − k)/w) (Beenakker, Phys. Rev. B 44, 1646 (1991), Eq. 6.3; sensing as in Hanson et al.,
//   Rev. Mod. Phys. 79, 1217 (2007), Sec. III.A). Transitions are steps; the gate cross-talk b is set to partly
//   compensate the dots' charge (as an experimentalist retunes the sensor), leaving the familiar sawtooth.
// - direct transport at small bias: sequential current needs all three charge states of a triple point
//   (van der Wiel Sec. II.A, Fig. 4), I ∝ Var(N1)·Var(N2)·Var(N1+N2) / (2/9)³, plus cotunnelling-visible
//   addition lines ε·4·Var(N1+N2) (lines that change the total charge; the interdot line carries no current).
//
// Nuisances: white, 1/f (along acquisition order) and telegraph noise, sensor drift and charge jumps (telegraph
// shifts of n_s), latching (one dot's transitions lag 1–2 pixels along the fast sweep), background planes,
// random resolution (charge transitions per window) and window position, random axis directions.
//
// Labels (exact, from the T = 0 ground state): occupation per pixel, a 1-pixel transition mask (of each pair of
// neighbouring pixels in different ground states, the one nearer the exact boundary), transition segments (the
// exact boundary line between two charge states, solved from U(N) = U(N′), clipped to where those two states are
// the ground states), region labels (one per charge state, 0 on the mask), and the class: 'double' when
// transitions of both dots are visible in the window (≥ FAMILY_MIN_FRACTION of the window size in crossings),
// 'single' when only one dot's, 'none' otherwise.
import { createSeededRandom, deriveSeed, type SeededRandom } from '../seeded-random.js';
import { pinkNoise, telegraphNoise, whiteNoise } from '../measurement-noise.js';
import { chargeState, gateCharges, newChargeState, type DoubleDotElectrostatics } from './constant-interaction.js';

export type ChargeStabilityClass = 'none' | 'single' | 'double';
export type ChargeStabilityReadout = 'sensor' | 'transport';
/** What a 'none' map shows: only noise on a background, a sensor Coulomb peak crossing the window, or a pinch-off edge. */
export type NoDotScene = 'background' | 'sensor-peak' | 'pinch-off';
export type TransitionKind = 'dot1' | 'dot2' | 'interdot' | 'other';

export interface TransitionSegment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  kind: TransitionKind;
  /** Ground states on either side. */
  from: [number, number];
  to: [number, number];
  /**
   * Signal contrast of this transition in the noise-free read-out (units of `data`), median over points 1 px apart
   * along the segment: sensor, |G(n_s − κ·N_from) − G(n_s − κ·N_to)| at the same gate voltages (the step the charge
   * change makes); transport, the current on the exact line (thermal average at that point). Set by
   * generateChargeStabilityDiagram; 0 from groundStateLabels alone.
   */
  contrast: number;
  /** `contrast` over the white-noise σ of the map (1/f, telegraph, jumps and drift not included). */
  visibility: number;
}

export interface ChargeStabilityOptions {
  rows?: number;
  cols?: number;
  /** Requested class; the label is computed from the ground state and the window is redrawn until it matches. */
  kind?: ChargeStabilityClass;
  readout?: ChargeStabilityReadout;
  /** Charge transitions per window along each axis, drawn uniformly. */
  transitionsAcross?: readonly [number, number];
  /** Typical transition step (sensor) or line height (transport) / noise std, drawn log-uniformly. */
  snrRange?: readonly [number, number];
  /** Probabilities of the nuisances. */
  nuisances?: boolean;
  /** Fixed electrostatics (for device scans); overrides the random draw of the model. */
  electrostatics?: DoubleDotElectrostatics;
}

export interface ChargeStabilityDiagram {
  rows: number;
  cols: number;
  /** rows × cols measured signal, C order (row = slow gate, column = fast gate). */
  data: Float64Array;
  /** The same without noise, drift, jumps or background (the clean read-out). */
  clean: Float64Array;
  label: ChargeStabilityClass;
  readout: ChargeStabilityReadout;
  scene: NoDotScene | null;
  /** Ground-state occupations per pixel. */
  occupation1: Int16Array;
  occupation2: Int16Array;
  /** 1 on transition pixels (1 pixel wide), else 0. */
  transitionMask: Uint8Array;
  /** Family per mask pixel: 1 dot1, 2 dot2, 3 interdot, 4 other, 0 none. */
  transitionFamily: Uint8Array;
  segments: TransitionSegment[];
  /** Region label per pixel: one label (1, 2, …) per charge state, 0 on the transition mask. */
  regions: Int32Array;
  /** Crossings (neighbour pairs in different ground states) per family. */
  familyCrossings: { dot1: number; dot2: number; interdot: number };
  snr: number;
  noiseStd: number;
  model: DoubleDotElectrostatics | null;
  nuisance: { pink: boolean; telegraph: boolean; jumps: boolean; drift: boolean; latching: number; plane: boolean };
}

/** A family counts as visible with at least this many crossings per pixel of the window's smaller side. */
export const FAMILY_MIN_FRACTION = 0.25;
export const CSD_SNR_RANGE = [4, 40] as const;
/** Mean dwell of the sensor charge-jump fluctuator, measured points. */
export const JUMP_DWELL_SAMPLES = [500, 5000] as const;

function defaultTransitions(size: number): readonly [number, number] {
  if (size <= 24) return [0.8, 2.5];
  if (size <= 64) return [1.5, 4.5];
  return [2.5, 7];
}

/** Lines of two families must differ by at least this angle (pixel space) to count as "different slopes". */
export const MIN_FAMILY_ANGLE_DEGREES = 20;

/** Acute angle, degrees, between the dot-1 and dot-2 addition lines of `model` in pixel space. */
export function familyAngleDegrees(model: DoubleDotElectrostatics): number {
  // ∇ of U(N + e_j) − U(N) with respect to (x, y) is −Aᵀ E_C e_j (E_C = [[1, ecm], [ecm, ec2]]).
  const g1x = model.a11 * 1 + model.a21 * model.ecm;
  const g1y = model.a12 * 1 + model.a22 * model.ecm;
  const g2x = model.a11 * model.ecm + model.a21 * model.ec2;
  const g2y = model.a12 * model.ecm + model.a22 * model.ec2;
  const cos = Math.abs(g1x * g2x + g1y * g2y) / (Math.hypot(g1x, g1y) * Math.hypot(g2x, g2y) || 1);
  return (Math.acos(Math.min(1, cos)) * 180) / Math.PI;
}

/**
 * Random double/single-dot electrostatics for a rows × cols window with `across` transitions per axis. Double
 * dots are redrawn until their two line families differ by ≥ MIN_FAMILY_ANGLE_DEGREES.
 */
export function randomElectrostatics(
  random: SeededRandom,
  rows: number,
  cols: number,
  across: readonly [number, number],
  singleDot: boolean,
): DoubleDotElectrostatics {
  for (;;) {
    const model = drawElectrostatics(random, rows, cols, across, singleDot);
    if (singleDot || familyAngleDegrees(model) >= MIN_FAMILY_ANGLE_DEGREES) return model;
  }
}

function drawElectrostatics(random: SeededRandom, rows: number, cols: number, across: readonly [number, number], singleDot: boolean): DoubleDotElectrostatics {
  const p1 = cols / random.between(across[0], across[1]);
  const p2 = rows / random.between(across[0], across[1]);
  const r1 = random.between(0.08, 0.6);
  const r2 = random.between(0.08, 0.6);
  // Capacitances (arbitrary units): C1, C2 and the interdot Cm with Cm / √(C1C2) ∈ [0.05, 0.5].
  const c1 = 1;
  const c2 = random.between(0.7, 1.4);
  const cm = random.between(0.05, 0.5) * Math.sqrt(c1 * c2);
  let a11 = 1 / p1;
  let a12 = r1 / p2;
  let a21 = r2 / p1;
  let a22 = 1 / p2;
  if (singleDot) {
    // One dot coupled to both gates with arbitrary ratio: lines of one random slope.
    const angle = random.between(0.1, 1.47);
    const p = Math.min(rows, cols) / random.between(across[0], across[1]);
    a11 = Math.cos(angle) / p;
    a12 = Math.sin(angle) / p;
    a21 = 0;
    a22 = 0;
  }
  const ec = { ec2: c1 / c2, ecm: cm / c2 };
  return {
    ...ec,
    a11,
    a12,
    a21,
    a22,
    n01: random.between(-0.6, 3),
    n02: random.between(-0.6, 3),
    kT: random.between(0.008, 0.04),
    singleDot,
  };
}

function familyOf(d1: number, d2: number): TransitionKind {
  if (d2 === 0 && Math.abs(d1) === 1) return 'dot1';
  if (d1 === 0 && Math.abs(d2) === 1) return 'dot2';
  if (d1 === -d2 && Math.abs(d1) === 1) return 'interdot';
  return 'other';
}
const FAMILY_CODE: Record<TransitionKind, number> = { dot1: 1, dot2: 2, interdot: 3, other: 4 };

interface GroundStateLabels {
  occupation1: Int16Array;
  occupation2: Int16Array;
  transitionMask: Uint8Array;
  transitionFamily: Uint8Array;
  segments: TransitionSegment[];
  regions: Int32Array;
  familyCrossings: { dot1: number; dot2: number; interdot: number };
}

/** Exact labels of the T = 0 ground state of `model` on the pixel grid, x = column, y = row. */
export function groundStateLabels(model: DoubleDotElectrostatics, rows: number, cols: number): GroundStateLabels {
  const n = rows * cols;
  const occupation1 = new Int16Array(n);
  const occupation2 = new Int16Array(n);
  const state = newChargeState();
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const [n1, n2] = gateCharges(model, x, y);
      chargeState(model, n1, n2, state);
      occupation1[y * cols + x] = state.N1;
      occupation2[y * cols + x] = state.N2;
    }
  }
  const transitionMask = new Uint8Array(n);
  const transitionFamily = new Uint8Array(n);
  const familyCrossings = { dot1: 0, dot2: 0, interdot: 0 };
  // Crossing points on the exact boundary, grouped by the pair of states.
  const groups = new Map<string, { from: [number, number]; to: [number, number]; xs: number[]; ys: number[] }>();
  const energy = (x: number, y: number, N1: number, N2: number): number => {
    const [n1, n2] = gateCharges(model, x, y);
    const d1 = N1 - n1;
    const d2 = model.singleDot ? 0 : N2 - n2;
    return 0.5 * d1 * d1 + 0.5 * model.ec2 * d2 * d2 + model.ecm * d1 * d2;
  };
  const visit = (a: number, b: number, xa: number, ya: number, xb: number, yb: number): void => {
    const A1 = occupation1[a]!;
    const A2 = occupation2[a]!;
    const B1 = occupation1[b]!;
    const B2 = occupation2[b]!;
    if (A1 === B1 && A2 === B2) return;
    // ΔE = U(A) − U(B) is linear in (x, y): < 0 at a, > 0 at b; its zero on the edge is the exact crossing.
    const da = energy(xa, ya, A1, A2) - energy(xa, ya, B1, B2);
    const db = energy(xb, yb, A1, A2) - energy(xb, yb, B1, B2);
    const t = da === db ? 0.5 : Math.min(1, Math.max(0, da / (da - db)));
    const xc = xa + t * (xb - xa);
    const yc = ya + t * (yb - ya);
    const kind = familyOf(B1 - A1, B2 - A2);
    const nearer = t <= 0.5 ? a : b;
    transitionMask[nearer] = 1;
    transitionFamily[nearer] = Math.max(transitionFamily[nearer]!, FAMILY_CODE[kind]) === 4 ? 4 : FAMILY_CODE[kind];
    if (kind !== 'other') familyCrossings[kind]++;
    const swap = A1 * 1000 + A2 > B1 * 1000 + B2;
    const from: [number, number] = swap ? [B1, B2] : [A1, A2];
    const to: [number, number] = swap ? [A1, A2] : [B1, B2];
    const key = `${from[0]},${from[1]}|${to[0]},${to[1]}`;
    let group = groups.get(key);
    if (!group) {
      group = { from, to, xs: [], ys: [] };
      groups.set(key, group);
    }
    group.xs.push(xc);
    group.ys.push(yc);
  };
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      if (x + 1 < cols) visit(i, i + 1, x, y, x + 1, y);
      if (y + 1 < rows) visit(i, i + cols, x, y, x, y + 1);
    }
  }
  const segments: TransitionSegment[] = [];
  for (const group of groups.values()) {
    const [F1, F2] = group.from;
    const [T1, T2] = group.to;
    // Line direction ⟂ ∇ΔE (ΔE is linear, so the gradient is exact from unit steps).
    const gx = energy(1, 0, F1, F2) - energy(1, 0, T1, T2) - (energy(0, 0, F1, F2) - energy(0, 0, T1, T2));
    const gy = energy(0, 1, F1, F2) - energy(0, 1, T1, T2) - (energy(0, 0, F1, F2) - energy(0, 0, T1, T2));
    const norm = Math.hypot(gx, gy) || 1;
    const tx = -gy / norm;
    const ty = gx / norm;
    let mx = 0;
    let my = 0;
    for (let k = 0; k < group.xs.length; k++) {
      mx += group.xs[k]!;
      my += group.ys[k]!;
    }
    mx /= group.xs.length;
    my /= group.xs.length;
    let lo = Infinity;
    let hi = -Infinity;
    for (let k = 0; k < group.xs.length; k++) {
      const s = (group.xs[k]! - mx) * tx + (group.ys[k]! - my) * ty;
      lo = Math.min(lo, s);
      hi = Math.max(hi, s);
    }
    segments.push({
      x1: mx + lo * tx,
      y1: my + lo * ty,
      x2: mx + hi * tx,
      y2: my + hi * ty,
      kind: familyOf(T1 - F1, T2 - F2),
      from: group.from,
      to: group.to,
      contrast: 0,
      visibility: 0,
    });
  }
  const regions = new Int32Array(n);
  const ids = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (transitionMask[i]) continue;
    const key = occupation1[i]! * 4096 + occupation2[i]!;
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size + 1;
      ids.set(key, id);
    }
    regions[i] = id;
  }
  return { occupation1, occupation2, transitionMask, transitionFamily, segments, regions, familyCrossings };
}

export function classFromCrossings(crossings: { dot1: number; dot2: number }, rows: number, cols: number, singleDot: boolean): ChargeStabilityClass {
  const min = Math.max(3, FAMILY_MIN_FRACTION * Math.min(rows, cols));
  const v1 = crossings.dot1 >= min;
  const v2 = !singleDot && crossings.dot2 >= min;
  return v1 && v2 ? 'double' : v1 || v2 ? 'single' : 'none';
}

const median = (values: number[]): number => {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/** Sensor Coulomb-peak series Σ_k cosh⁻²((n_s − k)/w), k = nearest two peaks. */
function sensorConductance(ns: number, w: number): number {
  const k = Math.floor(ns);
  const a = 1 / Math.cosh((ns - k) / w);
  const b = 1 / Math.cosh((ns - k - 1) / w);
  return a * a + b * b;
}

export function generateChargeStabilityDiagram(seed: number, options: ChargeStabilityOptions = {}): ChargeStabilityDiagram {
  const random = createSeededRandom(deriveSeed(seed, 'charge-stability-diagram'));
  const rows = options.rows ?? 128;
  const cols = options.cols ?? rows;
  const n = rows * cols;
  const kind: ChargeStabilityClass = options.kind ?? (['double', 'double', 'single', 'none'] as const)[random.integer(0, 3)]!;
  const readout: ChargeStabilityReadout = options.readout ?? (random.chance(0.7) ? 'sensor' : 'transport');
  const across = options.transitionsAcross ?? defaultTransitions(Math.min(rows, cols));
  const snrRange = options.snrRange ?? CSD_SNR_RANGE;
  const nuisances = options.nuisances ?? true;
  const snr = random.logBetween(snrRange[0], snrRange[1]);
  const scene: NoDotScene | null =
    kind === 'none' && !options.electrostatics ? (['background', 'sensor-peak', 'pinch-off'] as const)[random.integer(0, 2)]! : null;

  // Electrostatics, redrawn (window position and scale) until the labelled class is the requested one.
  let model: DoubleDotElectrostatics | null = null;
  let labels: GroundStateLabels;
  let label: ChargeStabilityClass = 'none';
  if (options.electrostatics) {
    model = options.electrostatics;
    labels = groundStateLabels(model, rows, cols);
    label = classFromCrossings(labels.familyCrossings, rows, cols, model.singleDot);
  } else if (kind === 'none') {
    labels = emptyLabels(n);
  } else {
    for (let attempt = 0; ; attempt++) {
      model = randomElectrostatics(random, rows, cols, across, kind === 'single');
      labels = groundStateLabels(model, rows, cols);
      label = classFromCrossings(labels.familyCrossings, rows, cols, model.singleDot);
      if (label === kind || attempt >= 30) break;
    }
  }
  // Random axis directions: flipping the grid flips the labels with it.
  const flipX = random.chance(0.5);
  const flipY = random.chance(0.5);
  if (model && !options.electrostatics && (flipX || flipY)) {
    model = flipModel(model, rows, cols, flipX, flipY);
    labels = groundStateLabels(model, rows, cols);
  }

  // Clean read-out.
  const clean = new Float64Array(n);
  const latching = nuisances && model && random.chance(0.15) ? random.integer(1, 2) : 0;
  const latchDot = random.chance(0.5) ? 1 : 2;
  const sweepSign = random.chance(0.5) ? 1 : -1;
  const state = newChargeState();
  const lagged = newChargeState();
  const mean1 = new Float64Array(n);
  const mean2 = new Float64Array(n);
  const var1 = new Float64Array(n);
  const var2 = new Float64Array(n);
  const varT = new Float64Array(n);
  let transportModel: DoubleDotElectrostatics | null = null;
  if (model) {
    transportModel = readout === 'transport' ? { ...model, kT: model.kT * random.between(1.5, 3) } : model;
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        const i = y * cols + x;
        const [n1, n2] = gateCharges(transportModel, x, y);
        chargeState(transportModel, n1, n2, state);
        mean1[i] = state.mean1;
        mean2[i] = state.mean2;
        var1[i] = state.var1;
        var2[i] = state.var2;
        varT[i] = state.varTotal;
        if (latching) {
          // The slow dot's charge follows the fast sweep `latching` pixels late.
          const [l1, l2] = gateCharges(transportModel, x - sweepSign * latching, y);
          chargeState(transportModel, l1, l2, lagged);
          if (latchDot === 1) mean1[i] = lagged.mean1;
          else mean2[i] = lagged.mean2;
        }
      }
    }
  }

  // Sensor parameters (also used by the 'none' scenes).
  const width = random.between(0.1, 0.25);
  const kappa1 = random.between(0.06, 0.2);
  const kappa2 = kappa1 * random.between(0.5, 1.5);
  const compensation = random.between(0.5, 1.1);
  const onFlank = random.between(0.45, 0.95) * width * (random.chance(0.5) ? 1 : -1);
  let bx = 0;
  let by = 0;
  if (model) {
    bx = compensation * (kappa1 * model.a11 + (model.singleDot ? 0 : kappa2 * model.a21));
    by = compensation * (kappa1 * model.a12 + (model.singleDot ? 0 : kappa2 * model.a22));
  }
  let s0 = onFlank;
  if (model) {
    // Start so that the sensor sits on its flank at the window centre.
    const c = ((rows >> 1) * cols + (cols >> 1)) | 0;
    s0 = onFlank - bx * (cols >> 1) - by * (rows >> 1) + kappa1 * mean1[c]! + kappa2 * mean2[c]!;
  }
  if (scene === 'sensor-peak') {
    const angle = random.between(0, Math.PI);
    const rate = random.between(0.6, 2) / Math.max(rows, cols);
    bx = rate * Math.cos(angle);
    by = rate * Math.sin(angle);
    s0 = random.uniform();
  }
  const epsilon = model?.singleDot ? 1 : random.between(0.15, 0.6);
  const pinch = scene === 'pinch-off' ? { angle: random.between(0, 2 * Math.PI), offset: random.between(-0.3, 0.3), width: random.between(0.03, 0.2) } : null;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      if (readout === 'transport') {
        const triple = model && !model.singleDot ? Math.min(1, (var1[i]! * var2[i]! * varT[i]!) / (2 / 9) ** 3) : 0;
        clean[i] = triple + epsilon * Math.min(1, 4 * varT[i]!);
      } else {
        clean[i] = sensorConductance(s0 + bx * x + by * y - kappa1 * mean1[i]! - kappa2 * mean2[i]!, width);
      }
      if (pinch) {
        const u = ((x / cols - 0.5) * Math.cos(pinch.angle) + (y / rows - 0.5) * Math.sin(pinch.angle) - pinch.offset) / pinch.width;
        clean[i] = (readout === 'transport' ? 0 : clean[i]!) + 0.5 * (1 + Math.tanh(u)) * (readout === 'transport' ? 1 : 0.3);
      }
    }
  }

  // Typical visible contrast: the step across each crossing (sensor) or the line height (transport).
  const contrasts: number[] = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      if (!labels.transitionMask[i] || labels.transitionFamily[i] === 3) continue;
      if (readout === 'transport') contrasts.push(clean[i]!);
      else {
        let step = 0;
        for (const j of [i - 1, i + 1, i - cols, i + cols]) {
          if (j < 0 || j >= n || (Math.abs(j - i) === 1 && Math.floor(j / cols) !== y)) continue;
          step = Math.max(step, Math.abs(clean[j]! - clean[i]!));
        }
        contrasts.push(step);
      }
    }
  }
  let contrast = median(contrasts);
  if (!(contrast > 0)) {
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < n; i++) {
      lo = Math.min(lo, clean[i]!);
      hi = Math.max(hi, clean[i]!);
    }
    contrast = hi > lo ? (hi - lo) / 3 : readout === 'transport' ? 0.3 : 0.05;
  }
  const noiseStd = contrast / snr;

  // Measured signal: sensor drift and charge jumps act on n_s (sensor read-out only), then noise and a plane.
  const data = new Float64Array(n);
  const nuisance = { pink: false, telegraph: false, jumps: false, drift: false, latching, plane: false };
  const white = whiteNoise(random, n);
  let pink: Float64Array | null = null;
  let telegraph: Float64Array | null = null;
  let jumps: Float64Array | null = null;
  if (nuisances) {
    nuisance.pink = random.chance(0.6);
    nuisance.telegraph = random.chance(0.25);
    nuisance.jumps = readout === 'sensor' && random.chance(0.25);
    nuisance.drift = readout === 'sensor' && random.chance(0.3);
    nuisance.plane = random.chance(0.5);
    if (nuisance.pink) pink = pinkNoise(random, n);
    if (nuisance.telegraph) telegraph = telegraphNoise(random, n, random.between(cols / 4, 4 * cols));
    // A charge trap near the sensor switches at a physical rate: mean dwell in measured points, independent of
    // the window size (a 16×16 patch sees a jump far less often than a 128×128 map).
    if (nuisance.jumps) jumps = telegraphNoise(random, n, random.logBetween(JUMP_DWELL_SAMPLES[0], JUMP_DWELL_SAMPLES[1]));
  }
  const pinkShare = pink ? random.between(0.2, 0.6) : 0;
  const telegraphShare = telegraph ? random.between(0.1, 0.3) : 0;
  const whiteShare = 1 - pinkShare - telegraphShare;
  const jumpSize = random.between(0.02, 0.06);
  const drift = nuisance.drift ? random.between(-0.08, 0.08) : 0;
  const planeX = nuisance.plane ? random.between(-1.5, 1.5) * contrast : 0;
  const planeY = nuisance.plane ? random.between(-1.5, 1.5) * contrast : 0;
  const scale = random.logBetween(0.01, 100);
  const offset = random.between(-1, 1) * scale;
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      let value = clean[i]!;
      if (readout === 'sensor' && (jumps || drift) && model) {
        const ns = s0 + bx * x + by * y - kappa1 * mean1[i]! - kappa2 * mean2[i]! + (jumps ? jumpSize * jumps[i]! : 0) + (drift * i) / n;
        value = sensorConductance(ns, width);
      } else if (readout === 'sensor' && (jumps || drift)) {
        const ns = s0 + bx * x + by * y + (jumps ? jumpSize * jumps[i]! : 0) + (drift * i) / n;
        value = sensorConductance(ns, width) + (pinch ? clean[i]! - sensorConductance(s0 + bx * x + by * y, width) : 0);
      }
      const noise =
        Math.sqrt(whiteShare) * white[i]! + (pink ? Math.sqrt(pinkShare) * pink[i]! : 0) + (telegraph ? Math.sqrt(telegraphShare) * telegraph[i]! : 0);
      value += noiseStd * noise + planeX * (x / cols - 0.5) + planeY * (y / rows - 0.5);
      data[i] = offset + scale * value;
    }
  }
  for (let i = 0; i < n; i++) clean[i] = offset + scale * clean[i]!;
  if (transportModel) {
    const whiteStd = noiseStd * Math.sqrt(whiteShare);
    const sensor = (x: number, y: number, N: [number, number]): number => sensorConductance(s0 + bx * x + by * y - kappa1 * N[0] - kappa2 * N[1], width);
    for (const segment of labels.segments) {
      const steps: number[] = [];
      const length = Math.hypot(segment.x2 - segment.x1, segment.y2 - segment.y1);
      const count = Math.max(1, Math.round(length));
      for (let k = 0; k <= count; k++) {
        const x = segment.x1 + ((segment.x2 - segment.x1) * k) / count;
        const y = segment.y1 + ((segment.y2 - segment.y1) * k) / count;
        if (readout === 'sensor') steps.push(Math.abs(sensor(x, y, segment.from) - sensor(x, y, segment.to)));
        else {
          const [g1, g2] = gateCharges(transportModel, x, y);
          chargeState(transportModel, g1, g2, state);
          const triple = transportModel.singleDot ? 0 : Math.min(1, (state.var1 * state.var2 * state.varTotal) / (2 / 9) ** 3);
          steps.push(triple + epsilon * Math.min(1, 4 * state.varTotal));
        }
      }
      const step = median(steps);
      segment.contrast = scale * step;
      segment.visibility = whiteStd > 0 ? step / whiteStd : Infinity;
    }
  }

  return {
    rows,
    cols,
    data,
    clean,
    label: model ? classFromCrossings(labels.familyCrossings, rows, cols, model.singleDot) : 'none',
    readout,
    scene,
    ...labels,
    snr,
    noiseStd: noiseStd * scale,
    model,
    nuisance,
  };
}

function emptyLabels(n: number): GroundStateLabels {
  const regions = new Int32Array(n).fill(1);
  return {
    occupation1: new Int16Array(n),
    occupation2: new Int16Array(n),
    transitionMask: new Uint8Array(n),
    transitionFamily: new Uint8Array(n),
    segments: [],
    regions,
    familyCrossings: { dot1: 0, dot2: 0, interdot: 0 },
  };
}

/** The same device seen with reversed gate axes: x → cols − 1 − x and/or y → rows − 1 − y. */
function flipModel(model: DoubleDotElectrostatics, rows: number, cols: number, flipX: boolean, flipY: boolean): DoubleDotElectrostatics {
  const m = { ...model };
  if (flipX) {
    m.n01 += m.a11 * (cols - 1);
    m.n02 += m.a21 * (cols - 1);
    m.a11 = -m.a11;
    m.a21 = -m.a21;
  }
  if (flipY) {
    m.n01 += m.a12 * (rows - 1);
    m.n02 += m.a22 * (rows - 1);
    m.a12 = -m.a12;
    m.a22 = -m.a22;
  }
  return m;
}
