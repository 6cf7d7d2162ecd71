// End-of-window lineshape fit of coulomb-blockade-peak-detector-v2: a cosh⁻² (Beenakker, Phys. Rev. B 44, 1646
// (1991)) plus a constant, least squares over the samples nearest one end, centre and width scanned, so that a peak
// cut by the window is kept only if its fitted centre lies inside (v1: signal/edge-peak-centre.ts).
import { FWHM_PER_COSH_SCALE } from '../signal/thermal-peak-kernel.js';

/** cosh⁻²(u) tabulated for the end-of-window fit (1/64 steps up to |u| = 16, linear interpolation). */
const LUT_STEPS_PER_UNIT = 64;
const LUT_LIMIT = 16 * LUT_STEPS_PER_UNIT;
const COSH2_LUT = new Float64Array(LUT_LIMIT + 2);
for (let i = 0; i < COSH2_LUT.length; i++) {
  const c = Math.cosh(i / LUT_STEPS_PER_UNIT);
  COSH2_LUT[i] = 1 / (c * c);
}
function cosh2(u: number): number {
  const x = (u < 0 ? -u : u) * LUT_STEPS_PER_UNIT;
  if (x >= LUT_LIMIT) return 0;
  const i = x | 0;
  return COSH2_LUT[i]! + (x - i) * (COSH2_LUT[i + 1]! - COSH2_LUT[i]!);
}

const EDGE_WIDTH_FACTORS = [0.7, 1, 1.3];
const EDGE_COARSE_STEP = 0.5;
/** Best fit so far: centre (trace index once fitEnd returns), amplitude, squared error. Reused, not reallocated. */
export interface EndFit {
  centre: number;
  amplitude: number;
  error: number;
}

/** Least squares of a cosh⁻² (centre c, given FWHM) plus a constant over the `count` samples nearest one end. */
function fitEndAt(x: Float64Array, n: number, fromStart: boolean, count: number, inverseScale: number, c: number, sy: number, syy: number, fit: EndFit): void {
  let sp = 0;
  let spp = 0;
  let spy = 0;
  for (let j = 0; j < count; j++) {
    const p = cosh2((j - c) * inverseScale);
    sp += p;
    spp += p * p;
    spy += p * x[fromStart ? j : n - 1 - j]!;
  }
  const det = count * spp - sp * sp;
  if (!(det > 1e-12 * count * spp)) return;
  const a = (count * spy - sp * sy) / det;
  if (!(a > 0)) return;
  const error = syy - a * spy - ((sy - a * sp) / count) * sy;
  if (error < fit.error) {
    fit.error = error;
    fit.centre = c;
    fit.amplitude = a;
  }
}

/**
 * As signal/edge-peak-centre.ts (cosh⁻² + constant, centre and width scanned; c < 0 is outside the window),
 * with a tabulated cosh⁻² and a coarse-to-fine centre scan. Result in `fit` (centre as a trace index).
 */
export function fitEnd(x: Float64Array, n: number, fromStart: boolean, nominalFwhm: number, span: number, maxCentre: number, fit: EndFit): boolean {
  const count = Math.min(n, Math.max(3, Math.round(span)));
  let sy = 0;
  let syy = 0;
  for (let j = 0; j < count; j++) {
    const y = x[fromStart ? j : n - 1 - j]!;
    sy += y;
    syy += y * y;
  }
  fit.error = Infinity;
  let bestFactor = -1;
  for (let f = 0; f < EDGE_WIDTH_FACTORS.length; f++) {
    const fwhm = EDGE_WIDTH_FACTORS[f]! * nominalFwhm;
    const before = fit.error;
    for (let c = -fwhm - 2; c <= maxCentre; c += EDGE_COARSE_STEP) fitEndAt(x, n, fromStart, count, FWHM_PER_COSH_SCALE / fwhm, c, sy, syy, fit);
    if (fit.error < before) bestFactor = f;
  }
  if (bestFactor < 0) return false;
  const inverseScale = FWHM_PER_COSH_SCALE / (EDGE_WIDTH_FACTORS[bestFactor]! * nominalFwhm);
  const coarse = fit.centre;
  fitEndAt(x, n, fromStart, count, inverseScale, coarse - EDGE_COARSE_STEP / 2, sy, syy, fit);
  fitEndAt(x, n, fromStart, count, inverseScale, coarse + EDGE_COARSE_STEP / 2, sy, syy, fit);
  if (!fromStart) fit.centre = n - 1 - fit.centre;
  return true;
}
