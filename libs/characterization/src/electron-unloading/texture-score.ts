// Scoring of the texture detector against the simulator's per-pixel texture kinds (libs/device-physics
// electron-unloading maps): per-kind intersection over union pooled over maps (Everingham et al., IJCV 88, 303
// (2010), Sec. 4.3), their mean over the three kinds, and pixel accuracy.
import { TEXTURE_KIND_NAMES, type TextureDetection } from './electron-unload-texture.model.js';

/** Kind per pixel implied by a detection (pixels outside every cluster count as flat). */
export function kindMapOf(detection: TextureDetection, rows: number, cols: number): Uint8Array {
  const map = new Uint8Array(rows * cols);
  if (!detection.cluster_map.length) return map;
  const kindOf = new Map(detection.texture_clusters.map((c) => [c.label, TEXTURE_KIND_NAMES.indexOf(c.kind)]));
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) map[r * cols + c] = kindOf.get(detection.cluster_map[r]![c]!) ?? 0;
  return map;
}

/** Pooled per-kind intersection and union counts, for mean IoU over the three kinds. */
export interface TextureIouCounts {
  intersection: [number, number, number];
  union: [number, number, number];
  correct: number;
  pixels: number;
}

export function emptyTextureIouCounts(): TextureIouCounts {
  return { intersection: [0, 0, 0], union: [0, 0, 0], correct: 0, pixels: 0 };
}

export function addTextureIou(predicted: Uint8Array, truth: Uint8Array, into = emptyTextureIouCounts()): TextureIouCounts {
  for (let i = 0; i < truth.length; i++) {
    const p = predicted[i]!;
    const t = truth[i]!;
    if (p === t) {
      into.intersection[t]!++;
      into.union[t]!++;
      into.correct++;
    } else {
      into.union[t]!++;
      into.union[p]!++;
    }
    into.pixels++;
  }
  return into;
}

export function textureIouScore(c: TextureIouCounts): { iou: [number, number, number]; meanIou: number; pixelAccuracy: number } {
  const iou = c.intersection.map((v, k) => (c.union[k]! ? v / c.union[k]! : 1)) as [number, number, number];
  return { iou, meanIou: (iou[0] + iou[1] + iou[2]) / 3, pixelAccuracy: c.correct / Math.max(1, c.pixels) };
}
