// electron-unload-texture-detector-v0: regions of similar local texture in a (plunger × time|barrier) charge-sensor
// map: 'flat' plateaus, 'step' bands (a charge transition crossing the rows) and 'telegraph' bands (the charge
// switching back and forth along axis 1).
// 1. Local features per pixel as z-scores, after removing each column's median (1/f offsets) and scaling by the
//    pixel noise σ (MAD of neighbouring-column differences):
//    step = |mean of STEP_HALF_ROWS rows below − rows above| averaged over ±FEATURE_HALF_COLS columns (a local
//    step filter along the plunger, the local gradient), over its noise;
//    switching = local variance along axis 1 around a straight line (±FEATURE_HALF_COLS columns, mean of ±1 row),
//    as a z-score against the map's median and MAD: telegraph switching goes back and forth, a step that drifts
//    with a barrier is nearly linear over the window.
// 2. Region growing with hysteresis (as in Canny, IEEE PAMI 8, 679 (1986)): step regions seeded at z ≥ 5 and grown
//    over z ≥ max(3, 0.25 × the map's 98th-percentile step strength); telegraph regions seeded at z ≥ 6, grown
//    over z ≥ 3, and taking precedence; a 3×3 majority vote removes isolated pixels; a step region of ≤ 150 pixels
//    touching a telegraph region joins it (same transition, switching not visible everywhere). The rest is flat.
// 3. Clusters = 4-connected components of each kind (≥ MIN_CLUSTER_PIXELS) with label, kind, bbox and pixel
//    count, plus a cluster map. A map with no step or telegraph region is "nothing found" (empty list).
import { MAD_TO_SIGMA, median, medianAbsoluteDeviation, medianInPlace, orderStatistic } from '../signal/order-statistics.js';
import { pixelNoise } from './electron-unload-detector.model.js';

const STEP_HALF_ROWS = 2;
const FEATURE_HALF_COLS = 5;
/** Hysteresis thresholds (z-scores): a region needs one pixel ≥ SEED and grows over pixels ≥ GROW. */
const STEP_SEED_Z = 5;
const STEP_GROW_Z = 3;
/** Step regions also stop below this fraction of the map's strong-step level (quantile below). */
const STEP_RELATIVE_GROW = 0.25;
const STEP_STRENGTH_QUANTILE = 0.98;
const TELEGRAPH_SEED_Z = 6;
const TELEGRAPH_GROW_Z = 3;
const MIN_CLUSTER_PIXELS = 6;
/** Step regions up to this size (about 3 rows × 51 columns) that touch a telegraph region become telegraph. */
const MERGE_MAX_PIXELS = 150;

export const TEXTURE_KIND_NAMES = ['flat', 'step', 'telegraph'] as const;
export type TextureKindName = (typeof TEXTURE_KIND_NAMES)[number];

export interface TextureCluster {
  label: number;
  kind: TextureKindName;
  /** [x_min, y_min, x_max, y_max] inclusive, x = column (axis 1), y = row (axis 0). */
  bbox: [number, number, number, number];
  pixel_count: number;
}

export interface TextureDetection {
  texture_clusters: TextureCluster[];
  /** Cluster label per pixel (rows of ints, 0 = none); empty when nothing was found. */
  cluster_map: number[][];
}

/** Per-pixel features: [step, switching] in noise σ units, each (rows × cols). */
export function textureFeatures(data: Float64Array, rows: number, cols: number): { step: Float64Array; switching: Float64Array; sigma: number } {
  let min = Infinity;
  let max = -Infinity;
  for (const v of data) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  // A noise-free map still gets a finite σ (a tiny fraction of its range); a constant map has none.
  const sigma = Math.max(pixelNoise(data, rows, cols), 1e-6 * (max - min));
  const scale = sigma > 0 ? 1 / sigma : 0;
  const centred = new Float64Array(rows * cols);
  const column = new Float64Array(rows);
  for (let c = 0; c < cols; c++) {
    for (let r = 0; r < rows; r++) column[r] = data[r * cols + c]!;
    const med = medianInPlace(column, rows);
    for (let r = 0; r < rows; r++) centred[r * cols + c] = (data[r * cols + c]! - med) * scale;
  }
  const localStep = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let below = 0;
      let above = 0;
      let nb = 0;
      let na = 0;
      for (let k = 1; k <= STEP_HALF_ROWS; k++) {
        if (r + k < rows) {
          below += centred[(r + k) * cols + c]!;
          nb++;
        }
        if (r - k >= 0) {
          above += centred[(r - k) * cols + c]!;
          na++;
        }
      }
      localStep[r * cols + c] = nb && na ? below / nb - above / na : 0;
    }
  }
  const step = new Float64Array(rows * cols);
  const switching = new Float64Array(rows * cols);
  const rowVariance = new Float64Array(rows * cols);
  // Variance along axis 1 around a local straight line (a drifting step is nearly linear over the window;
  // telegraph switching is not), per row, window ±FEATURE_HALF_COLS columns.
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const lo = Math.max(0, c - FEATURE_HALF_COLS);
      const hi = Math.min(cols - 1, c + FEATURE_HALF_COLS);
      const n = hi - lo + 1;
      let sx = 0;
      let sy = 0;
      let sxx = 0;
      let sxy = 0;
      for (let cc = lo; cc <= hi; cc++) {
        const y = centred[r * cols + cc]!;
        sx += cc;
        sy += y;
        sxx += cc * cc;
        sxy += cc * y;
      }
      const det = n * sxx - sx * sx;
      const b = det > 0 ? (n * sxy - sx * sy) / det : 0;
      const a = (sy - b * sx) / n;
      let ss = 0;
      for (let cc = lo; cc <= hi; cc++) ss += (centred[r * cols + cc]! - a - b * cc) ** 2;
      rowVariance[r * cols + c] = ss / Math.max(1, n - 2);
    }
  }
  // Step filter noise: difference of two means of STEP_HALF_ROWS samples, averaged over 2·FEATURE_HALF_COLS + 1 columns.
  const stepNoise = Math.sqrt(2 / STEP_HALF_ROWS / (2 * FEATURE_HALF_COLS + 1));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      let s = 0;
      let ns = 0;
      for (let cc = Math.max(0, c - FEATURE_HALF_COLS); cc <= Math.min(cols - 1, c + FEATURE_HALF_COLS); cc++) {
        s += localStep[r * cols + cc]!;
        ns++;
      }
      step[r * cols + c] = Math.abs(s / ns) / stepNoise;
      let v = 0;
      let nv = 0;
      for (let rr = Math.max(0, r - 1); rr <= Math.min(rows - 1, r + 1); rr++) {
        v += rowVariance[rr * cols + c]!;
        nv++;
      }
      switching[r * cols + c] = v / nv;
    }
  }
  // Switching as a z-score against the map's own plateau level (median) and spread (MAD).
  const level = median(switching);
  const spread = MAD_TO_SIGMA * medianAbsoluteDeviation(switching) || 1;
  for (let i = 0; i < rows * cols; i++) switching[i] = (switching[i]! - level) / spread;
  return { step, switching, sigma };
}

/** Hysteresis region growing: 4-connected regions of `feature ≥ grow` that contain a pixel ≥ seed. */
function growRegions(feature: Float64Array, rows: number, cols: number, seed: number, grow: number, mark: (i: number) => void): void {
  const visited = new Uint8Array(rows * cols);
  const stack: number[] = [];
  for (let start = 0; start < rows * cols; start++) {
    if (visited[start] || feature[start]! < seed) continue;
    visited[start] = 1;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      mark(i);
      const r = Math.floor(i / cols);
      const c = i % cols;
      for (const [nr, nc] of [
        [r - 1, c],
        [r + 1, c],
        [r, c - 1],
        [r, c + 1],
      ] as const) {
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
        const j = nr * cols + nc;
        if (!visited[j] && feature[j]! >= grow) {
          visited[j] = 1;
          stack.push(j);
        }
      }
    }
  }
}

/** Kind per pixel (index into TEXTURE_KIND_NAMES) before splitting into connected clusters. */
export function textureKinds(data: Float64Array, rows: number, cols: number): Uint8Array {
  const count = rows * cols;
  const kinds = new Uint8Array(count);
  const { step, switching, sigma } = textureFeatures(data, rows, cols);
  if (!(sigma > 0)) return kinds;
  // Step bands: grow down to a fraction of the strongest steps (the filter's tails reach past the thermal step).
  const stepGrow = Math.max(
    STEP_GROW_Z,
    STEP_RELATIVE_GROW * orderStatistic(step, Math.min(step.length - 1, Math.floor(STEP_STRENGTH_QUANTILE * step.length))),
  );
  growRegions(step, rows, cols, Math.max(STEP_SEED_Z, stepGrow), stepGrow, (i) => (kinds[i] = 1));
  growRegions(switching, rows, cols, TELEGRAPH_SEED_Z, TELEGRAPH_GROW_Z, (i) => (kinds[i] = 2));
  // 3×3 majority vote against isolated pixels.
  const voted = new Uint8Array(count);
  const votes = [0, 0, 0];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      votes[0] = votes[1] = votes[2] = 0;
      for (let rr = Math.max(0, r - 1); rr <= Math.min(rows - 1, r + 1); rr++)
        for (let cc = Math.max(0, c - 1); cc <= Math.min(cols - 1, c + 1); cc++) votes[kinds[rr * cols + cc]!]!++;
      const own = kinds[r * cols + c]!;
      let best = own;
      for (let k = 0; k < 3; k++) if (votes[k]! > votes[best]!) best = k;
      voted[r * cols + c] = best;
    }
  }
  // A small step region touching a telegraph region is part of the same transition whose switching is too slow or
  // faint to see everywhere: it takes the telegraph kind.
  {
    const seen = new Uint8Array(count);
    for (let start = 0; start < count; start++) {
      if (seen[start] || voted[start] !== 1) continue;
      const members: number[] = [];
      const stack = [start];
      seen[start] = 1;
      let touches = false;
      while (stack.length) {
        const i = stack.pop()!;
        members.push(i);
        const r = Math.floor(i / cols);
        const c = i % cols;
        for (const [nr, nc] of [
          [r - 1, c],
          [r + 1, c],
          [r, c - 1],
          [r, c + 1],
        ] as const) {
          if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
          const j = nr * cols + nc;
          if (voted[j] === 2) touches = true;
          if (!seen[j] && voted[j] === 1) {
            seen[j] = 1;
            stack.push(j);
          }
        }
      }
      if (touches && members.length <= MERGE_MAX_PIXELS) for (const i of members) voted[i] = 2;
    }
  }
  return voted;
}

export function detectTextureClusters(data: Float64Array, rows: number, cols: number): TextureDetection {
  const kinds = textureKinds(data, rows, cols);
  if (!kinds.some((k) => k > 0)) return { texture_clusters: [], cluster_map: [] };
  const labels = new Int32Array(rows * cols);
  const clusters: TextureCluster[] = [];
  const stack: number[] = [];
  for (let start = 0; start < rows * cols; start++) {
    if (labels[start]) continue;
    const kind = kinds[start]!;
    const label = clusters.length + 1;
    labels[start] = label;
    stack.push(start);
    const members: number[] = [];
    while (stack.length) {
      const i = stack.pop()!;
      members.push(i);
      const r = Math.floor(i / cols);
      const c = i % cols;
      for (const [nr, nc] of [
        [r - 1, c],
        [r + 1, c],
        [r, c - 1],
        [r, c + 1],
      ] as const) {
        if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
        const j = nr * cols + nc;
        if (!labels[j] && kinds[j] === kind) {
          labels[j] = label;
          stack.push(j);
        }
      }
    }
    let x0 = cols;
    let y0 = rows;
    let x1 = -1;
    let y1 = -1;
    for (const i of members) {
      const r = Math.floor(i / cols);
      const c = i % cols;
      x0 = Math.min(x0, c);
      x1 = Math.max(x1, c);
      y0 = Math.min(y0, r);
      y1 = Math.max(y1, r);
    }
    clusters.push({ label, kind: TEXTURE_KIND_NAMES[kind]!, bbox: [x0, y0, x1, y1], pixel_count: members.length });
  }
  // Drop tiny components (their pixels get label 0), renumber the rest 1…n.
  const renumber = new Int32Array(clusters.length + 1);
  const kept: TextureCluster[] = [];
  for (const cluster of clusters) {
    if (cluster.pixel_count < MIN_CLUSTER_PIXELS) continue;
    renumber[cluster.label] = kept.length + 1;
    kept.push({ ...cluster, label: kept.length + 1 });
  }
  if (!kept.some((c) => c.kind !== 'flat')) return { texture_clusters: [], cluster_map: [] };
  const clusterMap: number[][] = [];
  for (let r = 0; r < rows; r++) clusterMap.push(Array.from({ length: cols }, (_, c) => renumber[labels[r * cols + c]!]!));
  return { texture_clusters: kept, cluster_map: clusterMap };
}
