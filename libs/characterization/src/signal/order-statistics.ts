// Order statistics without sorting: Hoare's selection ("quickselect", C. A. R. Hoare, Commun. ACM 4, 321 (1961))
// with median-of-three pivots; expected O(n), in place.

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
