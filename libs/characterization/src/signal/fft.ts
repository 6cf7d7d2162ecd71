// Radix-2 complex FFT (Cooley & Tukey, Math. Comput. 19, 297 (1965)), iterative and in place, and the 2-D transform
// of a square array built from it (rows, then columns).

/** In-place iterative radix-2 complex FFT of length re.length (a power of 2; cos/sin tables of that length); inverse without the 1/n factor. */
export function fft1(re: Float64Array, im: Float64Array, cos: Float64Array, sin: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
  const sign = inverse ? 1 : -1;
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const cr = cos[k * step]!;
        const ci = sign * sin[k * step]!;
        const a = i + k;
        const b = a + half;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] = re[a]! + tr;
        im[a] = im[a]! + ti;
      }
    }
  }
}

/** 2-D FFT of a size × size array; only rows in `rowsIn` are transformed first (the others are zero) and only rows in `rowsOut` are transformed last. */
export function fft2(
  re: Float64Array,
  im: Float64Array,
  size: number,
  inverse: boolean,
  rowsIn: (y: number) => boolean,
  rowsOut: (y: number) => boolean,
): void {
  const cos = new Float64Array(size);
  const sin = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    cos[k] = Math.cos((2 * Math.PI * k) / size);
    sin[k] = Math.sin((2 * Math.PI * k) / size);
  }
  const r = new Float64Array(size);
  const i = new Float64Array(size);
  const rowPass = (keep: (y: number) => boolean): void => {
    for (let y = 0; y < size; y++) {
      if (!keep(y)) continue;
      r.set(re.subarray(y * size, (y + 1) * size));
      i.set(im.subarray(y * size, (y + 1) * size));
      fft1(r, i, cos, sin, inverse);
      re.set(r, y * size);
      im.set(i, y * size);
    }
  };
  if (!inverse) rowPass(rowsIn);
  for (let x = 0; x < size; x++) {
    for (let y = 0; y < size; y++) {
      r[y] = re[y * size + x]!;
      i[y] = im[y * size + x]!;
    }
    fft1(r, i, cos, sin, inverse);
    for (let y = 0; y < size; y++) {
      re[y * size + x] = r[y]!;
      im[y * size + x] = i[y]!;
    }
  }
  if (inverse) rowPass(rowsOut);
}
