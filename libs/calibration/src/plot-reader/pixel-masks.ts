import type { RasterImage } from './raster-image.js';

/** Per-pixel luminance (0–255, Rec. 601) and saturation (0–1) of an RGB raster. */
export interface PixelPlanes {
  width: number;
  height: number;
  lum: Float32Array;
  sat: Float32Array;
  hue: Float32Array;
}

export function pixelPlanes(image: RasterImage): PixelPlanes {
  const n = image.width * image.height;
  const lum = new Float32Array(n);
  const sat = new Float32Array(n);
  const hue = new Float32Array(n);
  const { rgb } = image;
  for (let i = 0; i < n; i++) {
    const r = rgb[3 * i]!;
    const g = rgb[3 * i + 1]!;
    const b = rgb[3 * i + 2]!;
    lum[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    sat[i] = max > 0 ? (max - min) / max : 0;
    let h = 0;
    if (max > min) {
      if (max === r) h = ((g - b) / (max - min)) % 6;
      else if (max === g) h = (b - r) / (max - min) + 2;
      else h = (r - g) / (max - min) + 4;
      h *= 60;
      if (h < 0) h += 360;
    }
    hue[i] = h;
  }
  return { width: image.width, height: image.height, lum, sat, hue };
}

/** Darkness 0–1 (1 = black), the quantity glyph features are computed on. */
export const darkness = (planes: PixelPlanes, i: number): number => 1 - planes.lum[i]! / 255;

/** Black or dark grey ink (axes, ticks, text). */
export const isInk = (planes: PixelPlanes, i: number): boolean => planes.lum[i]! < 110 && planes.sat[i]! < 0.35;

export interface Box {
  x0: number;
  y0: number;
  /** Exclusive. */
  x1: number;
  y1: number;
}

export interface Component extends Box {
  area: number;
  /** Centroid. */
  cx: number;
  cy: number;
  pixels: number[];
}

/** 8-connected components of `mask` inside `box`. */
export function connectedComponents(width: number, box: Box, mask: (i: number) => boolean, keepPixels = false): Component[] {
  const w = box.x1 - box.x0;
  const h = box.y1 - box.y0;
  if (w <= 0 || h <= 0) return [];
  const seen = new Uint8Array(w * h);
  const out: Component[] = [];
  const stack: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const local = y * w + x;
      if (seen[local] || !mask((y + box.y0) * width + x + box.x0)) continue;
      seen[local] = 1;
      stack.push(local);
      const c: Component = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity, area: 0, cx: 0, cy: 0, pixels: [] };
      while (stack.length) {
        const p = stack.pop()!;
        const px = p % w;
        const py = (p - px) / w;
        c.area++;
        c.cx += px;
        c.cy += py;
        if (px < c.x0) c.x0 = px;
        if (px >= c.x1) c.x1 = px + 1;
        if (py < c.y0) c.y0 = py;
        if (py >= c.y1) c.y1 = py + 1;
        if (keepPixels) c.pixels.push((py + box.y0) * width + px + box.x0);
        for (let dy = -1; dy <= 1; dy++) {
          const ny = py + dy;
          if (ny < 0 || ny >= h) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const nx = px + dx;
            if (nx < 0 || nx >= w) continue;
            const q = ny * w + nx;
            if (seen[q] || !mask((ny + box.y0) * width + nx + box.x0)) continue;
            seen[q] = 1;
            stack.push(q);
          }
        }
      }
      c.cx = c.cx / c.area + box.x0 + 0.5;
      c.cy = c.cy / c.area + box.y0 + 0.5;
      c.x0 += box.x0;
      c.x1 += box.x0;
      c.y0 += box.y0;
      c.y1 += box.y0;
      out.push(c);
    }
  }
  return out;
}
