// Working grid of the raw-map Coulomb-diamond models: maps of any size ≥ 32 × 32 are resampled per axis to the
// nominal 128 × 128 (area average when an axis shrinks — no aliasing of noise — linear interpolation when it grows),
// the model runs there, and positions are mapped back to the caller's pixel centres: x = (u + ½)·n/128 − ½.
// Non-square grids (e.g. 500 bias × 70 gate points) thereby get the edge slopes (rows per column) the models were
// tuned on, whatever axis steps the experimenter chose.
export const WORKING_SIZE = 128;

function resampleAxis(src: Float64Array, outer: number, n: number, stride: number, inner: number, m: number): Float64Array {
  // src laid out as [outer][n][inner] (stride = n·inner) → [outer][m][inner].
  const out = new Float64Array(outer * m * inner);
  const scale = n / m;
  for (let o = 0; o < outer; o++) {
    for (let u = 0; u < m; u++) {
      const dst = o * m * inner + u * inner;
      if (scale >= 1) {
        const a = u * scale;
        const b = (u + 1) * scale;
        for (let i = Math.floor(a); i < Math.min(n, Math.ceil(b)); i++) {
          const w = Math.min(b, i + 1) - Math.max(a, i);
          if (w <= 0) continue;
          const row = o * stride + i * inner;
          for (let k = 0; k < inner; k++) out[dst + k]! += (w / scale) * src[row + k]!;
        }
      } else {
        const c = Math.max(0, Math.min(n - 1, (u + 0.5) * scale - 0.5));
        const i0 = Math.floor(c);
        const i1 = Math.min(n - 1, i0 + 1);
        const t = c - i0;
        for (let k = 0; k < inner; k++) out[dst + k] = (1 - t) * src[o * stride + i0 * inner + k]! + t * src[o * stride + i1 * inner + k]!;
      }
    }
  }
  return out;
}

/** The rows × cols map resampled to size × size (returned as is when already that shape). */
export function toWorkingGrid(data: Float64Array, rows: number, cols: number, size = WORKING_SIZE): Float64Array {
  if (rows === size && cols === size) return data;
  const byRows = rows === size ? data : resampleAxis(data, 1, rows, rows * cols, cols, size);
  return cols === size ? byRows : resampleAxis(byRows, size, cols, cols, 1, size);
}

/** Working-grid position → caller position along an axis of n pixels. */
export const toCaller = (u: number, n: number, size = WORKING_SIZE): number => ((u + 0.5) * n) / size - 0.5;
