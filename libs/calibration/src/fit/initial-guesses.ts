// Starting points for the fits, as in qiskit-experiments' curve_analysis.guess (frequency from the FFT peak,
// exponential rate from a log-linear fit, Lorentzian centre/width from the extremum and its half-height points).
// The frequency search is a periodogram on a zero-padded frequency grid (a DFT evaluated directly, so it also
// works for unevenly spaced x); N. R. Lomb, Astrophys. Space Sci. 39, 447 (1976) for the unevenly spaced case.

export function mean(y: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += y[i]!;
  return s / Math.max(1, y.length);
}

export function median(values: ArrayLike<number>): number {
  const sorted = Array.from(values).sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}

/** Median spacing of sorted x, ignoring repeated x values (points read from a plot can share a column). */
export function typicalStep(x: ArrayLike<number>): number {
  const span = Math.abs(x[x.length - 1]! - x[0]!);
  const d: number[] = [];
  for (let i = 1; i < x.length; i++) {
    const step = Math.abs(x[i]! - x[i - 1]!);
    if (step > span * 1e-6) d.push(step);
  }
  return d.length ? median(d) : span > 0 ? span / Math.max(1, x.length - 1) : 1;
}

/** Most frequencies a periodogram is evaluated at (the grid is coarsened beyond it). */
const MAX_FREQUENCY_GRID = 4096;

/** Periodogram power of (y − mean) at frequency f (cycles per x unit), normalised by Σ(y − mean)². */
export function periodogramPower(x: ArrayLike<number>, y: ArrayLike<number>, f: number): number {
  const m = mean(y);
  let c = 0;
  let s = 0;
  let total = 0;
  for (let i = 0; i < x.length; i++) {
    const v = y[i]! - m;
    const w = 2 * Math.PI * f * x[i]!;
    c += v * Math.cos(w);
    s += v * Math.sin(w);
    total += v * v;
  }
  return total > 0 ? (2 * (c * c + s * s)) / (x.length * total) : 0;
}

/**
 * Candidate oscillation frequencies, strongest first: local maxima of the periodogram between a quarter cycle
 * over the scan and the Nyquist frequency of the median step, 8× zero-padded.
 */
export function candidateFrequencies(x: ArrayLike<number>, y: ArrayLike<number>, count = 3): number[] {
  const span = Math.abs(x[x.length - 1]! - x[0]!) || 1;
  const nyquist = 0.5 / typicalStep(x);
  const fMin = 0.25 / span;
  const df = Math.max(1 / (8 * span), (nyquist - fMin) / MAX_FREQUENCY_GRID);
  const grid: number[] = [];
  for (let f = fMin; f <= nyquist; f += df) grid.push(f);
  const power = grid.map((f) => periodogramPower(x, y, f));
  const peaks: { f: number; p: number }[] = [];
  for (let i = 0; i < grid.length; i++) {
    const left = i > 0 ? power[i - 1]! : -1;
    const right = i < grid.length - 1 ? power[i + 1]! : -1;
    if (power[i]! >= left && power[i]! >= right) peaks.push({ f: grid[i]!, p: power[i]! });
  }
  return peaks
    .sort((a, b) => b.p - a.p)
    .slice(0, count)
    .map((peak) => peak.f);
}

/** Linear least squares of y on the given basis functions (small normal equations). */
export function linearLeastSquares(basis: ((x: number) => number)[], x: ArrayLike<number>, y: ArrayLike<number>): number[] | null {
  const k = basis.length;
  const a = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const b = new Array<number>(k).fill(0);
  for (let i = 0; i < x.length; i++) {
    const row = basis.map((f) => f(x[i]!));
    for (let p = 0; p < k; p++) {
      b[p]! += row[p]! * y[i]!;
      for (let q = 0; q < k; q++) a[p]![q]! += row[p]! * row[q]!;
    }
  }
  for (let p = 0; p < k; p++) a[p]![p]! *= 1 + 1e-12;
  // Local elimination (kept here so this module does not depend on the LM solver).
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < k; c++) {
    let pivot = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    if (!(Math.abs(m[pivot]![c]!) > 1e-300)) return null;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < k; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let q = c; q <= k; q++) m[r]![q]! -= f * m[c]![q]!;
    }
  }
  return m.map((row, i) => row[k]! / row[i]!);
}

/** Decay-time guess for y ≈ A e^{−x/T} + B: the time at which |y − B| falls to 1/e of its first value. */
export function decayTimeGuess(x: ArrayLike<number>, y: ArrayLike<number>, baseline: number): number {
  const first = y[0]! - baseline;
  const target = Math.abs(first) / Math.E;
  for (let i = 1; i < x.length; i++) {
    if (Math.abs(y[i]! - baseline) <= target) return Math.max(x[i]! - x[0]!, typicalStep(x));
  }
  return Math.abs(x[x.length - 1]! - x[0]!);
}

/** Moving average over 2h + 1 samples (edges shrink the window). */
export function smooth(y: ArrayLike<number>, h: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < y.length; i++) {
    let s = 0;
    let n = 0;
    for (let j = Math.max(0, i - h); j <= Math.min(y.length - 1, i + h); j++) {
      s += y[j]!;
      n++;
    }
    out.push(s / n);
  }
  return out;
}
