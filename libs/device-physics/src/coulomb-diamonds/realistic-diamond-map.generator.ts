// Harder ("realistic") Coulomb-diamond maps with exact labels: what measured bias × gate maps from other labs look
// like, beyond the orthodox constant-interaction simulator (coulomb-diamond-map.generator.ts). Same axes and labels
// (rows = bias, columns = gate; per diamond [left, top, right, bottom] vertices, blockade mask of the T = 0
// sequential-tunnelling diamonds). Physics: sequential tunnelling master equation (Beenakker, Phys. Rev. B 44, 1646
// (1991)) with, per map, a random subset of these variations (each with its physical reason):
// - power-law rise of the current outside the diamonds (energy-dependent tunnel rates: the bias lowers the barriers,
//   Γ ∝ (1 + |V_b|/V_0)^p; together with the dense excitation spectrum of small dots the current keeps rising far
//   from the edge), so the current at the far rows is 10³–10⁵ × the first step at the degeneracy points;
// - lifetime (Lorentzian) broadening of the lead occupations, f(E) = ½ − atan(E/γ)/π (tunnel coupling comparable to
//   kT: soft, non-orthodox onsets and a finite zero-bias conductance near the degeneracy points);
// - elastic cotunnelling inside the diamonds, I ∝ Γ_S Γ_D (1/δ_N + 1/δ_{N+1}) V_b (Averin & Nazarov, PRL 65, 2446
//   (1990)), and inelastic cotunnelling steps at |V_b| = Δ (De Franceschi et al., PRL 86, 878 (2001));
// - asymmetric slopes (C_s ≠ C_d: edge-slope ratio up to 4) and a charging energy, lever arm and source fraction that
//   drift along the gate (the dot shrinks as it empties: addition energies change 30–50 % across the window, so
//   every diamond has its own slopes and height);
// - an amplifier offset of up to ±20 first steps, the sign of the current inverted (inverting amplifier or reversed
//   bias convention), amplifier saturation (values clipped at a rail: the highest-bias rows flat);
// - a gate jump (a charge trap switching once during the map: the gate axis shifts for all later columns; diamonds
//   that straddle the jump are "don't care");
// - current or differential conductance, white + 1/f noise along the acquisition order, any grid (rows ≠ cols; the
//   pixel slopes scale with the aspect ratio, as an experimenter's axis choice does).
// Issue 29 options (off by default, so the default draws are unchanged):
// - slopeRatioMax: edge-slope ratio (1 − α)/α log-uniform in [1/R, R] up to R = 10 (strongly asymmetric source/drain
//   capacitance, C_s ≫ C_d or C_s ≪ C_d: the diamonds lean, one edge nearly vertical);
// - diamonds: number of diamonds across the gate window (wide maps, e.g. 100 bias × 700 gate points with 4–8
//   diamonds; the pixel slopes follow from the count and the bias window, not from the aspect ratio);
// - kTOverEc: kT as a fraction of the charging energy (warm maps, 1.5–4 K on a few-meV dot: kT/E_C 0.02–0.08, so the
//   narrow tips of the diamonds fill with thermally activated current and the visible blockade ends ≈ 2–4 kT before
//   the T = 0 vertex — labelled visibleTop/visibleBottom);
// - logCurrent: the map is log10|I| (how many groups plot and store transport data), no amplifier offset.
// Noise: the first step (current at the diamond edge near the degeneracy points, before the power-law growth) / noise
// std is drawn log-uniformly in snrRange. Diamond k is between transitions k and k+1: μ_k(g, b) = A_k − λ_k g − α_k b,
// blockade where μ_k < min(0, −b) and μ_{k+1} > max(0, −b); vertices are the intersections of those lines.
import { createSeededRandom, deriveSeed, type SeededRandom } from '../seeded-random.js';
import { pinkNoise, whiteNoise } from '../measurement-noise.js';
import type { CoulombDiamondLabel, CoulombDiamondMap, DiamondReadout, DiamondVertex } from './coulomb-diamond-map.generator.js';

export interface RealisticDiamondOptions {
  rows?: number;
  cols?: number;
  readout?: DiamondReadout;
  /** First step / noise std, log-uniform. */
  snrRange?: readonly [number, number];
  /** Force variations on (true) or off (false); default: drawn per map. */
  powerLaw?: boolean;
  broadening?: boolean;
  cotunnelling?: boolean;
  saturation?: boolean;
  gateJump?: boolean;
  /** Relative change of the addition energy across the window (signed), default drawn in ±[0.3, 0.5] for 60 % of maps. */
  heightDrift?: number;
  /** Edge-slope ratio range [1/R, R] (log-uniform), R ≤ 10; default: source fraction α uniform in [0.2, 0.8]. */
  slopeRatioMax?: number;
  /** Diamonds across the gate window, uniform in this range; default 2.2–4 with the slopes clamped by the aspect ratio. */
  diamonds?: readonly [number, number];
  /** kT / charging energy, uniform in this range; default kT 0.25–1.2 bias rows (cold). */
  kTOverEc?: readonly [number, number];
  /** The map is log10 of |current| (current read-out, no offset). */
  logCurrent?: boolean;
}

/** The blockade is visible where the noise-free current stays below this fraction of the first step. */
export const VISIBLE_FRACTION = 0.5;

export interface RealisticDiamondMap extends CoulombDiamondMap {
  /** Which variations this map carries. */
  variations: string[];
  /** Largest |clean signal| / first step (dynamic range). */
  dynamicRange: number;
}

export const REALISTIC_DIAMOND_SNR_RANGE = [5, 50] as const;

interface Level {
  a: number;
  lever: number;
  alpha: number;
  gammaS: number;
  gammaD: number;
  excited: { energy: number; weight: number }[];
}

function occupation(e: number, kT: number, gamma: number): number {
  if (gamma > 0) {
    const thermal = 1 / (1 + Math.exp(Math.max(-40, Math.min(40, e / kT))));
    const lorentz = 0.5 - Math.atan(e / gamma) / Math.PI;
    // Both broadenings: the Lorentzian tail dominates far from the level, the Fermi edge near it.
    return Math.abs(e) < kT ? 0.5 * (thermal + lorentz) : lorentz;
  }
  const u = e / kT;
  return u > 40 ? 0 : u < -40 ? 1 : 1 / (1 + Math.exp(u));
}

/** Sequential-tunnelling current (drain → dot → source) at gate g, bias b; levels sorted by μ at this point. */
function sequential(levels: Level[], kT: number, gamma: number, g: number, b: number, p: Float64Array, maxExcitation: number): number {
  const muS = -b;
  const mu = levels.map((l) => l.a - l.lever * g - l.alpha * b);
  const low = Math.min(0, muS) - 40 * Math.max(kT, gamma) - maxExcitation;
  const high = Math.max(0, muS) + 40 * Math.max(kT, gamma);
  let first = 0;
  while (first < levels.length && mu[first]! < low) first++;
  let last = first;
  while (last < levels.length && mu[last]! <= high) last++;
  const n = last - first;
  if (n === 0) return 0;
  let logP = 0;
  let maxLog = 0;
  p[0] = 0;
  const inD = new Float64Array(n);
  const outD = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const t = levels[first + k]!;
    const m = mu[first + k]!;
    const fS = occupation(m - muS, kT, gamma);
    const fD = occupation(m, kT, gamma);
    let entS = fS;
    let entD = fD;
    for (const ex of t.excited) {
      entS += ex.weight * occupation(m + ex.energy - muS, kT, gamma);
      entD += ex.weight * occupation(m + ex.energy, kT, gamma);
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

/** Vertex of diamond (k, k+1) at the bias side `side` (+1: b > 0 where μ_k = −b and μ_{k+1} = 0; −1: μ_k = 0, μ_{k+1} = −b). */
function vertexAt(l0: Level, l1: Level, side: 1 | -1): { g: number; b: number } {
  // Solve a_k − λ_k g − α_k b = −s₊ b, a_{k+1} − λ_{k+1} g − α_{k+1} b = −s₋ b with s₊ = 1 for side +1 on the first.
  const c0 = side > 0 ? l0.alpha - 1 : l0.alpha; // a0 − λ0 g − c0 b = 0
  const c1 = side > 0 ? l1.alpha : l1.alpha - 1;
  const det = l0.lever * c1 - l1.lever * c0;
  const g = (l0.a * c1 - l1.a * c0) / det;
  const b = (l0.lever * l1.a - l1.lever * l0.a) / det;
  return { g, b };
}

export function generateRealisticDiamondMap(seed: number, options: RealisticDiamondOptions = {}): RealisticDiamondMap {
  const random: SeededRandom = createSeededRandom(deriveSeed(seed, 'realistic-coulomb-diamond-map'));
  const rows = options.rows ?? 128;
  const cols = options.cols ?? 128;
  const readout: DiamondReadout = options.logCurrent ? 'current' : (options.readout ?? (random.chance(0.7) ? 'current' : 'conductance'));
  const snrRange = options.snrRange ?? REALISTIC_DIAMOND_SNR_RANGE;
  const aspect = rows / cols;
  const variations: string[] = [];
  const pick = (forced: boolean | undefined, probability: number, name: string): boolean => {
    const on = forced ?? random.chance(probability);
    if (on) variations.push(name);
    return on;
  };
  const powerLaw = pick(options.powerLaw, 0.6, 'power-law');
  const broadening = pick(options.broadening, 0.35, 'lifetime-broadening');
  const cotunnelling = pick(options.cotunnelling, 0.4, 'cotunnelling');
  const saturation = pick(options.saturation, 0.25, 'saturation');
  const gateJump = pick(options.gateJump, 0.25, 'gate-jump');
  const drift = options.heightDrift ?? (random.chance(0.6) ? (random.chance(0.5) ? 1 : -1) * random.between(0.3, 0.5) : 0);
  if (drift !== 0) variations.push(`height drift ${Math.round(drift * 100)} %`);

  // Geometry (bias rows, gate columns): E_C = bias half-height, W = gate width of a diamond at the window centre.
  const across = random.between(2.2, 4);
  const diamondCount = options.diamonds ? options.diamonds[0] + ((across - 2.2) / 1.8) * (options.diamonds[1] - options.diamonds[0]) : across;
  let width = cols / diamondCount;
  const zeroBiasRow = rows / 2 + random.between(-0.08, 0.08) * rows;
  const chargingEnergy = rows / 2 / random.between(1.3, 1.9) / (1 + Math.max(0, drift) / 2);
  const lo = 0.35 * aspect;
  const hi = 1.5 * aspect;
  if (!options.diamonds && chargingEnergy / width > hi) width = chargingEnergy / hi;
  if (!options.diamonds && chargingEnergy / width < lo) width = chargingEnergy / lo;
  const lever = chargingEnergy / width;
  // Source fraction: slope ratio (1 − α)/α up to 4 either way.
  const alphaDraw = random.between(0.2, 0.8);
  // With slopeRatioMax: the same draw mapped to a log-uniform slope ratio (1 − α)/α ∈ [1/R, R].
  const alpha0 = options.slopeRatioMax ? 1 / (1 + options.slopeRatioMax ** (2 * ((alphaDraw - 0.2) / 0.6) - 1)) : alphaDraw;
  const alphaClamp = options.slopeRatioMax ? 1 / (1 + options.slopeRatioMax * 1.05) : 0.15;
  const alphaDrift = random.between(-0.1, 0.1);
  const kTDraw = random.between(0.25, 1.2);
  const kT = options.kTOverEc
    ? chargingEnergy * (options.kTOverEc[0] + ((kTDraw - 0.25) / 0.95) * (options.kTOverEc[1] - options.kTOverEc[0]))
    : kTDraw * Math.max(1, rows / 128);
  const gamma = broadening ? random.between(0.3, 1.5) * Math.max(1, rows / 128) : 0;
  const gateSign = random.chance(0.5) ? 1 : -1;
  const biasSign = random.chance(0.5) ? 1 : -1;
  const gammaRatio = random.logBetween(0.25, 4);

  // Levels along g (g = 0 at the window's low-g side minus one width), E_add drifting linearly with g.
  const gSpan = cols + 2 * width;
  const levels: Level[] = [];
  let a = -lever * width * random.between(1, 2);
  for (let guard = 0; guard < 200; guard++) {
    const gHere = a / lever;
    const frac = Math.max(0, Math.min(1, gHere / gSpan));
    const scaleHere = 1 + drift * (frac - 0.5);
    const alpha = Math.max(alphaClamp, Math.min(1 - alphaClamp, alpha0 + alphaDrift * (frac - 0.5)));
    const excited: { energy: number; weight: number }[] = [];
    const nExcited = random.integer(0, 2);
    for (let k = 0; k < nExcited; k++) excited.push({ energy: chargingEnergy * scaleHere * random.between(0.2, 0.7), weight: random.between(0.3, 1.2) });
    const s = random.logBetween(0.5, 2);
    // The lever arm drifts with the dot size too (smaller dot: smaller gate capacitance, larger E_C).
    const leverHere = lever * (1 + 0.5 * drift * (frac - 0.5));
    levels.push({ a, lever: leverHere, alpha, gammaS: s * Math.sqrt(gammaRatio), gammaD: s / Math.sqrt(gammaRatio), excited });
    if (gHere > gSpan) break;
    a += chargingEnergy * scaleHere * random.between(0.9, 1.1) * (leverHere / lever);
  }
  const xRef = gateSign > 0 ? -width : cols - 1 + width;
  const jump = gateJump
    ? { at: Math.round(random.between(0.25, 0.75) * cols), shift: (random.chance(0.5) ? 1 : -1) * random.between(0.06, 0.2) * width }
    : null;
  const gOf = (x: number): number => gateSign * (x - xRef) + (jump && x >= jump.at ? jump.shift : 0);
  const bOf = (y: number): number => biasSign * (y - zeroBiasRow);
  const yOfB = (b: number): number => zeroBiasRow + biasSign * b;
  /** Pixel x of gate g on the piece of the axis that holds it (NaN when g falls in the jump's gap). */
  const xOfG = (g: number): number => {
    const before = xRef + gateSign * g;
    if (!jump) return before;
    if (before < jump.at) return before;
    const after = xRef + gateSign * (g - jump.shift);
    return after >= jump.at ? after : NaN;
  };
  const bMax = Math.max(zeroBiasRow, rows - 1 - zeroBiasRow);
  const growthP = random.between(1.2, 3);
  const dynamic = powerLaw ? random.logBetween(1e3, 1e5) : 1;
  const b0 = powerLaw ? bMax / (dynamic ** (1 / growthP) - 1) : Infinity;
  const growth = (b: number): number => (powerLaw ? (1 + Math.abs(b) / b0) ** growthP : 1);
  const cotScale = cotunnelling ? random.logBetween(0.01, 0.08) : 0;
  const inelastic = cotunnelling && random.chance(0.5) ? chargingEnergy * random.between(0.3, 0.7) : 0;

  const n = rows * cols;
  const p = new Float64Array(levels.length + 2);
  const maxExcitation = Math.max(0, ...levels.flatMap((l) => l.excited.map((e) => e.energy)));
  const currentAt = (x: number, y: number): number => {
    const g = gOf(x);
    const b = bOf(y);
    let i = sequential(levels, kT, gamma, g, b, p, maxExcitation);
    if (cotunnelling) {
      // Elastic cotunnelling through the nearest levels above and below the Fermi level (caps at the edges).
      let below = Infinity;
      let above = Infinity;
      for (const l of levels) {
        const m = l.a - l.lever * g;
        if (m < 0) below = Math.min(below, -m);
        else above = Math.min(above, m);
      }
      const ec = chargingEnergy;
      const g1 = (cotScale * Math.min(4, ec / Math.max(below, 2 * kT + 1) + ec / Math.max(above, 2 * kT + 1))) / 4;
      const step = inelastic > 0 ? 0.5 * (1 + Math.tanh((Math.abs(b) - inelastic) / kT)) : 0;
      i += (g1 * (1 + step) * b) / ec;
    }
    return i * growth(b);
  };
  const clean = new Float64Array(n);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) clean[y * cols + x] = readout === 'current' ? currentAt(x, y) : biasSign * (currentAt(x, y + 0.5) - currentAt(x, y - 0.5));
  }
  // First step: the sequential signal near the degeneracy points before growth (95th percentile of |clean| / growth
  // over the rows within 0.25 E_C of zero bias).
  const near: number[] = [];
  for (let y = 0; y < rows; y++) {
    const b = bOf(y);
    if (Math.abs(b) > 0.25 * chargingEnergy) continue;
    for (let x = 0; x < cols; x++) near.push(Math.abs(clean[y * cols + x]!) / growth(b));
  }
  near.sort((u, v) => u - v);
  const firstStep = near[Math.floor(0.95 * (near.length - 1))] || 1;
  let maxAbs = 0;
  for (const v of clean) maxAbs = Math.max(maxAbs, Math.abs(v));
  const snr = random.logBetween(snrRange[0], snrRange[1]);
  const noiseStd = firstStep / snr;
  const pinkFraction = random.between(0, 0.5);
  const biasFast = random.chance(0.5);
  const white = whiteNoise(random, n);
  const pink = pinkNoise(random, n);
  const offset = random.between(-1, 1) * (random.chance(0.5) ? 20 : 1) * firstStep * (options.logCurrent ? 0 : 1);
  const inverted = random.chance(0.3);
  if (inverted) variations.push('inverted sign');
  const gain = (inverted ? -1 : 1) * random.logBetween(1e-12, 1e3);
  const data = new Float64Array(n);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      const order = biasFast ? x * rows + y : i;
      const noise = Math.sqrt(1 - pinkFraction) * white[i]! + Math.sqrt(pinkFraction) * pink[order]!;
      data[i] = clean[i]! + offset + noiseStd * noise;
    }
  }
  if (saturation) {
    // Amplifier rail: clip at a level reached by the 3–15 % largest |values| (the highest-bias rows).
    const sorted = Float64Array.from(data, Math.abs).sort();
    const rail = sorted[Math.floor(random.between(0.85, 0.97) * (n - 1))]!;
    for (let i = 0; i < n; i++) data[i] = Math.max(-rail, Math.min(rail, data[i]!));
  }
  for (let i = 0; i < n; i++) {
    data[i] = gain * data[i]!;
    clean[i] = gain * clean[i]!;
  }
  if (options.logCurrent) {
    variations.push('log current');
    const floor = Math.abs(gain) * noiseStd * 1e-3;
    for (let i = 0; i < n; i++) {
      data[i] = Math.log10(Math.abs(data[i]!) + floor);
      clean[i] = Math.log10(Math.abs(clean[i]!) + floor);
    }
  }

  // Labels.
  const blockade = new Uint8Array(n);
  const diamonds: CoulombDiamondLabel[] = [];
  const labelOf = new Map<number, CoulombDiamondLabel>();
  const inside = (v: DiamondVertex): boolean => v[0] >= 0 && v[0] <= cols - 1 && v[1] >= 0 && v[1] <= rows - 1;
  for (let k = 0; k + 1 < levels.length; k++) {
    const l0 = levels[k]!;
    const l1 = levels[k + 1]!;
    const gLeft = l0.a / l0.lever;
    const gRight = l1.a / l1.lever;
    const vPlus = vertexAt(l0, l1, 1);
    const vMinus = vertexAt(l0, l1, -1);
    const xs = [xOfG(gLeft), xOfG(gRight), xOfG(vPlus.g), xOfG(vMinus.g)];
    // Straddling the gate jump (or in its gap): not a measurable diamond in pixel space.
    const straddles = jump !== null && (xs.some((x) => Number.isNaN(x)) || !(xs.every((x) => x < jump.at) || xs.every((x) => x >= jump.at)));
    const plain = xs.map((x, i) => (Number.isNaN(x) ? xRef + gateSign * [gLeft, gRight, vPlus.g, vMinus.g][i]! : x));
    const zero = [plain[0]!, plain[1]!].sort((u, v) => u - v) as [number, number];
    if (zero[1] < -0.5 || zero[0] > cols - 0.5) continue;
    const p1: DiamondVertex = [plain[2]!, yOfB(vPlus.b)];
    const p2: DiamondVertex = [plain[3]!, yOfB(vMinus.b)];
    const [top, bottom] = p1[1] < p2[1] ? [p1, p2] : [p2, p1];
    const left: DiamondVertex = [zero[0], zeroBiasRow];
    const right: DiamondVertex = [zero[1], zeroBiasRow];
    const height = (Math.abs(vPlus.b) + Math.abs(vMinus.b)) / 2;
    const label: CoulombDiamondLabel = {
      electrons: k + 1,
      left,
      top,
      right,
      bottom,
      chargingEnergy: height,
      leverArm: height / Math.abs(zero[1] - zero[0]),
      complete: !straddles && inside(left) && inside(top) && inside(right) && inside(bottom),
    };
    diamonds.push(label);
    labelOf.set(k, label);
  }
  // Visible extent: per diamond, the blockade pixels whose noise-free current (growth removed) is below
  // VISIBLE_FRACTION of the first step; the outermost such rows above / below zero bias are the visible tips. Current
  // maps only: on a conductance map the two edge lines stay visible up to where they meet (labels = the vertices).
  const visible = new Map<number, { top: number; bottom: number; topX: number[]; bottomX: number[] }>();
  for (let y = 0; y < rows; y++) {
    const b = bOf(y);
    for (let x = 0; x < cols; x++) {
      const g = gOf(x);
      for (let k = 0; k + 1 < levels.length; k++) {
        const m0 = levels[k]!.a - levels[k]!.lever * g - levels[k]!.alpha * b;
        const m1 = levels[k + 1]!.a - levels[k + 1]!.lever * g - levels[k + 1]!.alpha * b;
        if (m0 < Math.min(0, -b) && m1 > Math.max(0, -b)) {
          blockade[y * cols + x] = 1;
          if (readout === 'current' && labelOf.has(k) && Math.abs(currentAt(x, y)) / growth(b) < VISIBLE_FRACTION * firstStep) {
            const v = visible.get(k) ?? { top: Infinity, bottom: -Infinity, topX: [], bottomX: [] };
            if (y < v.top) [v.top, v.topX] = [y, [x]];
            else if (y === v.top) v.topX.push(x);
            if (y > v.bottom) [v.bottom, v.bottomX] = [y, [x]];
            else if (y === v.bottom) v.bottomX.push(x);
            visible.set(k, v);
          }
          break;
        }
      }
    }
  }
  const meanOf = (v: number[]): number => v.reduce((u, w) => u + w, 0) / v.length;
  for (const [k, v] of visible) {
    const label = labelOf.get(k)!;
    label.visibleTop = [meanOf(v.topX), v.top];
    label.visibleBottom = [meanOf(v.bottomX), v.bottom];
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
    sourceFraction: alpha0,
    kT,
    snr,
    noiseStd: Math.abs(gain) * noiseStd,
    variations,
    dynamicRange: maxAbs / firstStep,
  };
}
