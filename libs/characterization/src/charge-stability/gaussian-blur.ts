// Separable Gaussian smoothing of a row-major image with edge replication (kernel truncated at 3σ, normalised).
// Shared by the transition-line detector and the region segmenter.

export function gaussianKernel(sigma: number): Float64Array {
  const half = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float64Array(2 * half + 1);
  let sum = 0;
  for (let i = -half; i <= half; i++) sum += k[i + half] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  return k;
}

export function gaussianBlur(src: Float64Array, rows: number, cols: number, sigma: number): Float64Array {
  const k = gaussianKernel(sigma);
  const half = (k.length - 1) / 2;
  const tmp = new Float64Array(rows * cols);
  const out = new Float64Array(rows * cols);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let s = 0;
      for (let j = -half; j <= half; j++) s += k[j + half]! * src[y * cols + Math.min(cols - 1, Math.max(0, x + j))]!;
      tmp[y * cols + x] = s;
    }
  }
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      let s = 0;
      for (let j = -half; j <= half; j++) s += k[j + half]! * tmp[Math.min(rows - 1, Math.max(0, y + j)) * cols + x]!;
      out[y * cols + x] = s;
    }
  }
  return out;
}
