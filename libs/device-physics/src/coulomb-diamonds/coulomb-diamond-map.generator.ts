// Synthetic Coulomb-diamond maps of one quantum dot (axis 0 = rows = bias, axis 1 = columns = gate) with exact
// labels, in the constant-interaction model with sequential tunnelling (Beenakker, Phys. Rev. B 44, 1646 (1991);
// Kouwenhoven et al., "Electron transport in quantum dots", NATO ASI E 345 (1997), Sec. 2.3, Eqs. 2.3–2.6).
//
// Energies are in bias pixels (one row = one unit of e·V_b), the gate in gate pixels. The electrochemical potential
// of the N-th electron is μ_N(g, b) = A_N − λ·g − α_s·b with A_{N+1} − A_N = E_add(N) (charging energy plus level
// spacing, ±12 % around E_C), λ = the lever arm in bias pixels per gate pixel (α_g times the axis scale) and
// α_s = C_s/C_Σ; source at μ_S = −b, drain at μ_D = 0. The diamond of N electrons (blockade) is
// μ_N < min(μ_S, μ_D) and μ_{N+1} > max(μ_S, μ_D): a parallelogram with edges of slopes −λ/α_s (−C_g/C_s) and
// λ/(1 − α_s) (C_g/(C_g + C_d)), vertices at zero bias (degeneracy points) and at |b| = E_add(N).
// Current: stationary birth–death master equation over N (Beenakker Eq. 3.x), rates Γ_l f((μ − μ_l)/kT) in and
// Γ_l (1 − f) out per lead l; excited states of the (N+1)-electron dot add entry channels at μ_{N+1} + ε_k (fast
// relaxation), which draws the excited-state lines parallel to the diamond edges outside the blockade.
// Read-outs: current I, or differential conductance dI/dV_b (numerical derivative, half-row step).
// Nuisances: random capacitances (asymmetric diamonds), per-transition tunnel rates, temperature, offset, a linear
// background conductance (elastic cotunnelling / leakage, ≤ LEAK_FRACTION of the typical signal per charging energy,
// half the maps), white and 1/f noise along the acquisition order (bias or gate fast), random axis directions.
//
// Labels (exact, T = 0): blockade mask (pixel centre inside a diamond), and per diamond its four vertices as
// [x, y] in pixels (x = column, y = row; left/right = the zero-bias vertices by x, top/bottom by y), charging
// energy (bias half-height, rows) and lever arm (charging energy / gate width, rows per column). A diamond is
// `complete` when its four vertices lie inside [0, cols − 1] × [0, rows − 1]; cut diamonds are "don't care".
import { createSeededRandom, deriveSeed, type SeededRandom } from '../seeded-random.js';
import { pinkNoise, whiteNoise } from '../measurement-noise.js';

export type DiamondReadout = 'current' | 'conductance';
export type DiamondVertex = [number, number];

export interface CoulombDiamondLabel {
  /** Electrons held in this blockade region (relative numbering). */
  electrons: number;
  left: DiamondVertex;
  top: DiamondVertex;
  right: DiamondVertex;
  bottom: DiamondVertex;
  /** Bias half-height of the diamond, rows (the addition energy in units of e·V_b per row). */
  chargingEnergy: number;
  /** Charging energy / gate width of the diamond, rows per column (the gate lever arm in pixel units). */
  leverArm: number;
  /** All four vertices inside the window (only these are ground truth; the rest are don't-care). */
  complete: boolean;
  /**
   * Realistic generator, current maps only: where the blockade visibly ends at the top / bottom (the outermost row of the diamond's
   * T = 0 region whose noise-free current is below VISIBLE_FRACTION (½, the half-rise that defines the edges) of the first step; x = mean column of that row's
   * visible pixels). Thermal and lifetime broadening fill the narrow tip, so on warm maps this lies inside the T = 0
   * vertex (by ≈ 2–4 kT in bias rows).
   */
  visibleTop?: DiamondVertex;
  visibleBottom?: DiamondVertex;
}

export interface CoulombDiamondOptions {
  rows?: number;
  cols?: number;
  readout?: DiamondReadout;
  /** Typical first current step (or conductance line height) / noise std, drawn log-uniformly. */
  snrRange?: readonly [number, number];
  /** Diamonds across the gate window, drawn uniformly. */
  diamondsAcross?: readonly [number, number];
  /** Window bias half-span / charging energy, drawn uniformly (> 1: most diamonds complete). */
  biasSpan?: readonly [number, number];
}

export interface CoulombDiamondMap {
  rows: number;
  cols: number;
  readout: DiamondReadout;
  /** rows × cols measured signal, C order (row = bias, column = gate). */
  data: Float64Array;
  /** The same without noise or offset. */
  clean: Float64Array;
  /** 1 where the T = 0 dot is in Coulomb blockade (pixel centre inside a diamond). */
  blockade: Uint8Array;
  diamonds: CoulombDiamondLabel[];
  /** Row of zero bias (sub-pixel). */
  zeroBiasRow: number;
  /** Typical charging energy, rows; lever arm, rows per column; α_s = C_s/C_Σ; kT, rows. */
  chargingEnergy: number;
  leverArm: number;
  sourceFraction: number;
  kT: number;
  snr: number;
  noiseStd: number;
}

export const DIAMOND_SNR_RANGE = [5, 50] as const;
/** Largest background (cotunnelling / leakage) current at |bias| = E_C, as a fraction of the typical signal. */
export const LEAK_FRACTION = 0.04;
/** Edge slopes (rows per column) are kept within this range, as an experimenter scales the axes. */
export const DIAMOND_SLOPE_RANGE = [0.35, 4] as const;

interface Transition {
  /** A_{N+1}: the (N+1)-th electron's potential at g = b = 0. */
  level: number;
  gammaS: number;
  gammaD: number;
  excited: { energy: number; weight: number }[];
}

const fermi = (e: number, kT: number): number => {
  const u = e / kT;
  return u > 40 ? 0 : u < -40 ? 1 : 1 / (1 + Math.exp(u));
};

/** Transitions farther than this many kT (plus the largest excitation) from both leads are frozen: skipped. */
const FROZEN_KT = 36;

/** Net electron flow drain → dot → source (the sign of the bias) at gate g and bias b. */
function sequentialCurrent(
  transitions: Transition[],
  lever: number,
  alphaS: number,
  kT: number,
  g: number,
  b: number,
  p: Float64Array,
  maxExcitation: number,
): number {
  const muS = -b;
  const shift = -lever * g - alphaS * b;
  const low = Math.min(0, muS) - FROZEN_KT * kT - maxExcitation;
  const high = Math.max(0, muS) + FROZEN_KT * kT;
  // Levels increase with k: only the transitions near the bias window take part in transport.
  let first = 0;
  while (first < transitions.length && transitions[first]!.level + shift < low) first++;
  let last = first;
  while (last < transitions.length && transitions[last]!.level + shift <= high) last++;
  const n = last - first;
  if (n === 0) return 0;
  // Birth–death chain: P_{k+1}/P_k = Γ_in(k)/Γ_out(k); solved in logs from the lowest state.
  let logP = 0;
  let maxLog = 0;
  p[0] = 0;
  const inD = new Float64Array(n);
  const outD = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const t = transitions[first + k]!;
    const mu = t.level + shift;
    const fS = fermi(mu - muS, kT);
    const fD = fermi(mu, kT);
    let entS = fS;
    let entD = fD;
    for (const ex of t.excited) {
      entS += ex.weight * fermi(mu + ex.energy - muS, kT);
      entD += ex.weight * fermi(mu + ex.energy, kT);
    }
    const rateIn = t.gammaS * entS + t.gammaD * entD + 1e-300;
    const rateOut = t.gammaS * (1 - fS) + t.gammaD * (1 - fD) + 1e-300;
    inD[k] = t.gammaD * entD;
    outD[k] = t.gammaD * (1 - fD);
    logP += Math.log(rateIn) - Math.log(rateOut);
    p[k + 1] = logP;
    if (logP > maxLog) maxLog = logP;
  }
  let total = 0;
  for (let k = 0; k <= n; k++) {
    p[k] = Math.exp(p[k]! - maxLog);
    total += p[k]!;
  }
  let current = 0;
  for (let k = 0; k < n; k++) current += (p[k]! * inD[k]! - p[k + 1]! * outD[k]!) / total;
  return current;
}

function drawAlphaS(random: SeededRandom, slopeScale: number): number {
  // Slopes λ/(1 − α_s) and λ/α_s with λ = slopeScale·(1 − α_g)… kept in DIAMOND_SLOPE_RANGE.
  for (let i = 0; i < 200; i++) {
    const alphaS = random.between(0.15, 0.75);
    const s1 = slopeScale / (1 - alphaS);
    const s2 = slopeScale / alphaS;
    if (s1 >= DIAMOND_SLOPE_RANGE[0] && s2 <= DIAMOND_SLOPE_RANGE[1] && s1 <= DIAMOND_SLOPE_RANGE[1] && s2 >= DIAMOND_SLOPE_RANGE[0]) return alphaS;
  }
  return 0.5;
}

export function generateCoulombDiamondMap(seed: number, options: CoulombDiamondOptions = {}): CoulombDiamondMap {
  const random = createSeededRandom(deriveSeed(seed, 'coulomb-diamond-map'));
  const rows = options.rows ?? 128;
  const cols = options.cols ?? 128;
  const readout: DiamondReadout = options.readout ?? (random.chance(0.7) ? 'current' : 'conductance');
  const across = options.diamondsAcross ?? [2.2, 4];
  const span = options.biasSpan ?? [1.25, 1.9];
  const snrRange = options.snrRange ?? DIAMOND_SNR_RANGE;

  // Geometry in pixels: gate width W of a diamond, charging energy E_C (bias half-height), lever arm λ = E_C / W.
  let width = cols / random.between(across[0], across[1]);
  const zeroBiasRow = rows / 2 + random.between(-0.06, 0.06) * rows;
  const chargingEnergy = rows / 2 / random.between(span[0], span[1]);
  // Keep λ/α_s achievable inside the slope range: λ ≤ 1.5 rows per column (W widened if needed).
  if (chargingEnergy / width > 1.5) width = chargingEnergy / 1.5;
  if (chargingEnergy / width < 0.35) width = chargingEnergy / 0.35;
  const lever = chargingEnergy / width;
  const alphaS = drawAlphaS(random, lever);
  const kT = random.between(0.25, 1.2) * Math.max(1, rows / 128);

  // Charge transitions covering the window, gate coordinate g = x − x0 (or flipped) with A_N in bias units.
  const gateSign = random.chance(0.5) ? 1 : -1;
  const biasSign = random.chance(0.5) ? 1 : -1;
  const gammaRatio = random.logBetween(0.25, 4);
  const transitions: Transition[] = [];
  const gRange = cols + 2 * width;
  let level = -lever * width * random.between(1, 2);
  while (level < lever * gRange) {
    const eAdd = chargingEnergy * random.between(0.88, 1.12);
    const excited: { energy: number; weight: number }[] = [];
    const nExcited = random.integer(0, 2);
    for (let k = 0; k < nExcited; k++) excited.push({ energy: chargingEnergy * random.between(0.2, 0.7), weight: random.between(0.3, 1.2) });
    const scale = random.logBetween(0.5, 2);
    transitions.push({ level, gammaS: scale * Math.sqrt(gammaRatio), gammaD: scale / Math.sqrt(gammaRatio), excited });
    level += eAdd;
  }
  // Pixel ↔ (g, b): g = gateSign·(x − xRef), b = biasSign·(y − y0). xRef places the window over the ladder.
  const xRef = gateSign > 0 ? -width : cols - 1 + width;
  const gOf = (x: number): number => gateSign * (x - xRef);
  const bOf = (y: number): number => biasSign * (y - zeroBiasRow);
  const xOfG = (g: number): number => xRef + gateSign * g;
  const yOfB = (b: number): number => zeroBiasRow + biasSign * b;

  // Signal.
  const n = rows * cols;
  const clean = new Float64Array(n);
  const p = new Float64Array(transitions.length + 1);
  const maxExcitation = Math.max(0, ...transitions.flatMap((t) => t.excited.map((e) => e.energy)));
  const currentAt = (x: number, y: number): number => sequentialCurrent(transitions, lever, alphaS, kT, gOf(x), bOf(y), p, maxExcitation);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      clean[y * cols + x] = readout === 'current' ? currentAt(x, y) : biasSign * (currentAt(x, y + 0.5) - currentAt(x, y - 0.5));
    }
  }
  // Typical signal: the 95th percentile of |clean| (plateau current or line height).
  const sorted = Float64Array.from(clean, Math.abs).sort();
  const typical = sorted[Math.floor(0.95 * (n - 1))]! || 1;
  const snr = random.logBetween(snrRange[0], snrRange[1]);
  const noiseStd = typical / snr;
  const pinkFraction = random.between(0, 0.5);
  const biasFast = random.chance(0.5);
  const white = whiteNoise(random, n);
  const pink = pinkNoise(random, n);
  const offset = random.between(-0.5, 0.5) * typical;
  // Background conductance: I_bg = G·b (current) or G (conductance), G ≤ LEAK_FRACTION · typical / E_C.
  const leak = random.chance(0.5) ? (random.between(0, LEAK_FRACTION) * typical) / chargingEnergy : 0;
  const gain = random.logBetween(0.1, 100);
  const data = new Float64Array(n);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      const order = biasFast ? x * rows + y : i;
      const noise = Math.sqrt(1 - pinkFraction) * white[i]! + Math.sqrt(pinkFraction) * pink[order]!;
      const background = readout === 'current' ? leak * bOf(y) : leak;
      data[i] = gain * (clean[i]! + background + offset + noiseStd * noise);
      clean[i] = gain * clean[i]!;
    }
  }

  // Labels.
  const blockade = new Uint8Array(n);
  const diamonds: CoulombDiamondLabel[] = [];
  for (let k = 0; k + 1 < transitions.length; k++) {
    const aN = transitions[k]!.level;
    const aN1 = transitions[k + 1]!.level;
    const eAdd = aN1 - aN;
    const zero = [xOfG(aN / lever), xOfG(aN1 / lever)].sort((u, v) => u - v) as [number, number];
    // Vertices at b = −E_add (g = (A_N + α_s E)/λ) and b = +E_add (g = (A_{N+1} − α_s E)/λ).
    const v1: DiamondVertex = [xOfG((aN + alphaS * eAdd) / lever), yOfB(-eAdd)];
    const v2: DiamondVertex = [xOfG((aN1 - alphaS * eAdd) / lever), yOfB(eAdd)];
    const [top, bottom] = v1[1] < v2[1] ? [v1, v2] : [v2, v1];
    if (zero[1] < -0.5 || zero[0] > cols - 0.5) continue;
    const left: DiamondVertex = [zero[0], zeroBiasRow];
    const right: DiamondVertex = [zero[1], zeroBiasRow];
    const inside = (v: DiamondVertex): boolean => v[0] >= 0 && v[0] <= cols - 1 && v[1] >= 0 && v[1] <= rows - 1;
    diamonds.push({
      electrons: k + 1,
      left,
      top,
      right,
      bottom,
      chargingEnergy: eAdd,
      leverArm: eAdd / Math.abs(zero[1] - zero[0]),
      complete: inside(left) && inside(top) && inside(right) && inside(bottom),
    });
    for (let y = 0; y < rows; y++) {
      const b = bOf(y);
      for (let x = Math.max(0, Math.floor(zero[0])); x <= Math.min(cols - 1, Math.ceil(zero[1])); x++) {
        const g = gOf(x);
        const muN = aN - lever * g - alphaS * b;
        const muN1 = aN1 - lever * g - alphaS * b;
        if (muN < Math.min(0, -b) && muN1 > Math.max(0, -b)) blockade[y * cols + x] = 1;
      }
    }
  }
  return {
    rows,
    cols,
    readout,
    data,
    clean,
    blockade,
    diamonds,
    zeroBiasRow,
    chargingEnergy,
    leverArm: lever,
    sourceFraction: alphaS,
    kT,
    snr,
    noiseStd: gain * noiseStd,
  };
}
