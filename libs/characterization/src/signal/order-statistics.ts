// Order statistics: Hoare's selection ("quickselect", C. A. R. Hoare, Commun. ACM 4, 321 (1961)) with median-of-three
// pivots, expected O(n); and on top of it the robust statistics the models share (median, quantile, MAD, running median).

/** Reorders values[0 … count−1] so that values[k] is the k-th smallest of them, and returns it. */
export function selectInPlace(values: Float64Array, count: number, k: number): number {
  let lo = 0;
  let hi = count - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as pivot; afterwards values[lo] ≤ values[mid] ≤ values[hi].
    let t: number;
    if (values[mid]! < values[lo]!) {
      t = values[mid]!;
      values[mid] = values[lo]!;
      values[lo] = t;
    }
    if (values[hi]! < values[lo]!) {
      t = values[hi]!;
      values[hi] = values[lo]!;
      values[lo] = t;
    }
    if (values[hi]! < values[mid]!) {
      t = values[hi]!;
      values[hi] = values[mid]!;
      values[mid] = t;
    }
    const pivot = values[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return values[k]!;
}

/** Median of values[0 … count−1] (upper median for even counts); reorders them. */
export function medianInPlace(values: Float64Array, count: number): number {
  return selectInPlace(values, count, count >>> 1);
}

/** σ of Gaussian data from its median absolute deviation: 1 / Φ⁻¹(3/4) (Hampel, J. Am. Stat. Assoc. 69, 383 (1974)). */
export const MAD_TO_SIGMA = 1.482602218505602;
/** Median and lower quartile of |N(0, 1)|: Φ⁻¹(3/4) and Φ⁻¹(5/8). */
export const HALF_NORMAL_MEDIAN = 0.6744897501960817;
export const HALF_NORMAL_LOWER_QUARTILE = 0.31863936396437514;

/** The k-th smallest (k = 0 … n − 1) of `values`, which are left untouched; NaN when empty. */
export function orderStatistic(values: ArrayLike<number>, k: number): number {
  if (values.length === 0) return Number.NaN;
  const copy = Float64Array.from(values);
  return selectInPlace(copy, copy.length, k);
}

/** Upper median (rank ⌊n/2⌋ in ascending order) of `values`, which are left untouched; NaN when empty. */
export function median(values: ArrayLike<number>): number {
  return orderStatistic(values, values.length >>> 1);
}

/**
 * The q-quantile without interpolation: the element of rank ⌊q·(n − 1)⌋ (numpy's "lower" method), so `quantile(v, 0.5)`
 * is the lower median. `values` are left untouched; NaN when empty.
 */
export function quantile(values: ArrayLike<number>, q: number): number {
  return orderStatistic(values, Math.min(values.length - 1, Math.max(0, Math.floor(q * (values.length - 1)))));
}

/** The q-quantile of an already sorted array by nearest rank (rank round(q·(n − 1))): O(1), for many quantiles of one sort. */
export function sortedQuantile(sorted: ArrayLike<number>, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;
}

/** Median absolute deviation from the (upper) median, unscaled: × MAD_TO_SIGMA gives σ for Gaussian data. NaN when empty. */
export function medianAbsoluteDeviation(values: ArrayLike<number>): number {
  const centre = median(values);
  const deviations = Float64Array.from(values, (v) => Math.abs(v - centre));
  return orderStatistic(deviations, deviations.length >>> 1);
}

/**
 * Running median over ±`halfWidth` samples, the window shrunk at the ends (upper median of what it holds): removes
 * isolated spikes (telegraph noise, narrow lines) and keeps steps.
 */
export function runningMedian(trace: Float64Array, halfWidth: number): Float64Array {
  const n = trace.length;
  const out = new Float64Array(n);
  const window = new Float64Array(2 * halfWidth + 1);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - halfWidth);
    const hi = Math.min(n - 1, i + halfWidth);
    const m = hi - lo + 1;
    for (let j = 0; j < m; j++) window[j] = trace[lo + j]!;
    out[i] = medianInPlace(window, m);
  }
  return out;
}
