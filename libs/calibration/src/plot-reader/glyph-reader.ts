// Reads text in plots by glyph template matching (nearest neighbour on a normalised darkness grid plus aspect
// ratio; the classic template-matching OCR of S. Mori, C. Y. Suen, K. Yamamoto, Proc. IEEE 80, 1029 (1992)).
// Templates are the characters of DejaVu Sans (matplotlib's default font) rendered at several sizes by
// scripts/calibration/render-glyph-templates.py, reduced with the same grid as here.
import { GLYPH_TEMPLATES } from './glyph-templates.data.js';
import { connectedComponents, darkness, type Box, type Component, type PixelPlanes } from './pixel-masks.js';

const { gridW: GRID_W, gridH: GRID_H, threshold: THRESHOLD } = GLYPH_TEMPLATES;

interface Template {
  c: string;
  aspect: number;
  grid: Float32Array;
}

const TEMPLATES: Template[] = GLYPH_TEMPLATES.templates.map((t) => ({
  c: t.c === '\u2212' ? '-' : t.c === '\u03bc' ? 'µ' : t.c,
  aspect: Math.log(t.w / t.h),
  grid: Float32Array.from(t.g, (d) => Number(d) / 9),
}));

/** Characters of numbers on axes. */
export const NUMBER_CHARS = new Set('0123456789.-+e×'.split(''));

/** A glyph: the union of the ink components that overlap horizontally (i, j, :, =, % have several). */
export interface Glyph extends Box {
  components: Component[];
}

/** Darkness grid of a box, cropped to pixels darker than the template threshold, area-resampled to GRID_W × GRID_H. */
function gridOf(planes: PixelPlanes, box: Box, transposed: boolean): { grid: Float32Array; aspect: number } | null {
  const W = transposed ? box.y1 - box.y0 : box.x1 - box.x0;
  const H = transposed ? box.x1 - box.x0 : box.y1 - box.y0;
  const at = (u: number, v: number): number => {
    // (u, v) in the (possibly rotated) glyph frame; rotation by 90° clockwise reads bottom-to-top text.
    const x = transposed ? box.x0 + v : box.x0 + u;
    const y = transposed ? box.y1 - 1 - u : box.y0 + v;
    return darkness(planes, y * planes.width + x);
  };
  let u0 = W;
  let u1 = -1;
  let v0 = H;
  let v1 = -1;
  for (let v = 0; v < H; v++) {
    for (let u = 0; u < W; u++) {
      if (at(u, v) > THRESHOLD) {
        if (u < u0) u0 = u;
        if (u > u1) u1 = u;
        if (v < v0) v0 = v;
        if (v > v1) v1 = v;
      }
    }
  }
  if (u1 < 0) return null;
  const w = u1 - u0 + 1;
  const h = v1 - v0 + 1;
  const grid = new Float32Array(GRID_W * GRID_H);
  for (let gy = 0; gy < GRID_H; gy++) {
    const ya = (gy * h) / GRID_H;
    const yb = ((gy + 1) * h) / GRID_H;
    for (let gx = 0; gx < GRID_W; gx++) {
      const xa = (gx * w) / GRID_W;
      const xb = ((gx + 1) * w) / GRID_W;
      let total = 0;
      let area = 0;
      for (let py = Math.floor(ya); py < Math.ceil(yb); py++) {
        const oy = Math.min(yb, py + 1) - Math.max(ya, py);
        if (oy <= 0) continue;
        for (let px = Math.floor(xa); px < Math.ceil(xb); px++) {
          const ox = Math.min(xb, px + 1) - Math.max(xa, px);
          if (ox <= 0) continue;
          total += at(u0 + px, v0 + py) * ox * oy;
          area += ox * oy;
        }
      }
      grid[gy * GRID_W + gx] = area ? total / area : 0;
    }
  }
  return { grid, aspect: Math.log(w / h) };
}

/** Nearest template among `allowed` characters (all when omitted). */
function nearestTemplate(planes: PixelPlanes, box: Box, allowed: Set<string> | undefined, transposed: boolean): { c: string; d: number } {
  const features = gridOf(planes, box, transposed);
  if (!features) return { c: '', d: Infinity };
  let best = '';
  let bestDistance = Infinity;
  for (const t of TEMPLATES) {
    if (allowed && !allowed.has(t.c)) continue;
    // Aspect ratios that differ by more than a factor e cannot match (and would cost 6 in distance anyway).
    if (Math.abs(t.aspect - features.aspect) > 1) continue;
    let d = 0;
    for (let k = 0; k < t.grid.length; k++) d += (t.grid[k]! - features.grid[k]!) ** 2;
    d += 6 * (t.aspect - features.aspect) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = t.c;
    }
  }
  return { c: best, d: bestDistance };
}

/**
 * Kerned letters touch ("Ra", "AG") and arrive as one glyph. A glyph wider than 0.7 × the line height is also
 * tried as two, cut at each column of its middle 25–75 %; the cut is taken when both halves match templates
 * clearly better than the whole (segmentation by recognition, Casey & Lecolinet, IEEE PAMI 18, 690 (1996)).
 */
/** Template distance below which a glyph is taken as read (a clean single character scores well below). */
const GOOD_MATCH = 1.5;

function readWide(planes: PixelPlanes, g: Box, lineHeight: number, allowed: Set<string> | undefined, transposed: boolean, depth = 0): string {
  const whole = nearestTemplate(planes, g, allowed, transposed);
  const length = transposed ? g.y1 - g.y0 : g.x1 - g.x0;
  const height = transposed ? g.x1 - g.x0 : g.y1 - g.y0;
  if (depth > 1 || length < 0.7 * lineHeight || height < 0.6 * lineHeight || whole.d < GOOD_MATCH) return whole.c;
  let best: { score: number; a: Box; b: Box } | null = null;
  for (let cut = Math.ceil(length * 0.25); cut <= Math.floor(length * 0.75); cut++) {
    const a: Box = transposed ? { ...g, y0: g.y1 - cut } : { ...g, x1: g.x0 + cut };
    const b: Box = transposed ? { ...g, y1: g.y1 - cut } : { ...g, x0: g.x0 + cut };
    const score = (nearestTemplate(planes, a, allowed, transposed).d + nearestTemplate(planes, b, allowed, transposed).d) / 2;
    if (!best || score < best.score) best = { score, a, b };
  }
  if (!best || best.score > 0.6 * whole.d) return whole.c;
  return readWide(planes, best.a, lineHeight, allowed, transposed, depth + 1) + readWide(planes, best.b, lineHeight, allowed, transposed, depth + 1);
}

const ink = (planes: PixelPlanes) => (i: number) => darkness(planes, i) > THRESHOLD && planes.sat[i]! < 0.4;

/** Merges components whose extents overlap along the reading direction into glyphs, in reading order. */
export function glyphsOf(components: Component[], transposed = false): Glyph[] {
  const lo = (c: Box) => (transposed ? -c.y1 : c.x0);
  const hi = (c: Box) => (transposed ? -c.y0 : c.x1);
  const sorted = [...components].sort((a, b) => lo(a) - lo(b));
  const glyphs: Glyph[] = [];
  for (const c of sorted) {
    const last = glyphs.at(-1);
    const overlap = last ? Math.min(hi(last), hi(c)) - Math.max(lo(last), lo(c)) : -1;
    if (last && overlap >= 0.5 * Math.min(hi(c) - lo(c), hi(last) - lo(last))) {
      last.components.push(c);
      last.x0 = Math.min(last.x0, c.x0);
      last.x1 = Math.max(last.x1, c.x1);
      last.y0 = Math.min(last.y0, c.y0);
      last.y1 = Math.max(last.y1, c.y1);
    } else {
      glyphs.push({ x0: c.x0, x1: c.x1, y0: c.y0, y1: c.y1, components: [c] });
    }
  }
  return glyphs;
}

/** Ink components of a region (text is dark and unsaturated). */
export function inkComponents(planes: PixelPlanes, box: Box): Component[] {
  const clipped = { x0: Math.max(0, box.x0), y0: Math.max(0, box.y0), x1: Math.min(planes.width, box.x1), y1: Math.min(planes.height, box.y1) };
  return connectedComponents(planes.width, clipped, ink(planes));
}

/** Reads glyphs as a string, with spaces where the gap exceeds a third of the line height. */
export function readGlyphs(planes: PixelPlanes, glyphs: Glyph[], allowed?: Set<string>, transposed = false): string {
  if (!glyphs.length) return '';
  const size = (g: Box) => (transposed ? g.x1 - g.x0 : g.y1 - g.y0);
  const lineHeight = Math.max(...glyphs.map(size));
  const lineTop = Math.min(...glyphs.map((g) => (transposed ? g.x0 : g.y0)));
  let text = '';
  for (let i = 0; i < glyphs.length; i++) {
    const g = glyphs[i]!;
    if (i > 0) {
      const prev = glyphs[i - 1]!;
      const gap = transposed ? prev.y0 - g.y1 : g.x0 - prev.x1;
      if (allowed?.has('.') && !transposed && gap >= 0.2 * lineHeight && faintPeriod(planes, prev.x1, g.x0, lineTop + lineHeight)) text += '.';
      else if (gap > lineHeight / 3) text += ' ';
    }
    // Small marks are told apart by where they sit (a grid of a 3-pixel dot says little): on the baseline a
    // period, at mid-height a minus sign (hyphen or U+2212).
    if (size(g) < 0.35 * lineHeight && (!allowed || (allowed.has('.') && allowed.has('-')))) {
      const centre = (transposed ? (g.x0 + g.x1) / 2 : (g.y0 + g.y1) / 2) - lineTop;
      const width = transposed ? g.y1 - g.y0 : g.x1 - g.x0;
      if (centre > 0.7 * lineHeight && width < 0.4 * lineHeight) {
        text += '.';
        continue;
      }
      if (centre > 0.3 * lineHeight && centre < 0.75 * lineHeight && width >= 1.5 * size(g)) {
        text += '-';
        continue;
      }
    }
    text += readWide(planes, g, lineHeight, allowed, transposed);
  }
  return text;
}

/**
 * At low resolution a period is a pale pixel or two that the ink threshold misses: look for any mark in the
 * bottom third of the gap between two glyphs of a number.
 */
function faintPeriod(planes: PixelPlanes, x0: number, x1: number, lineBottom: number): boolean {
  // One pixel of each glyph's anti-aliased edge is left out.
  for (let y = Math.round(lineBottom) - 3; y < Math.round(lineBottom); y++) {
    for (let x = x0 + 1; x < x1 - 1; x++) {
      const i = y * planes.width + x;
      if (i >= 0 && i < planes.lum.length && darkness(planes, i) > 0.15) return true;
    }
  }
  return false;
}

/** Splits components into text lines by overlap across the reading direction. */
export function textLines(components: Component[], transposed = false): Component[][] {
  const lo = (c: Box) => (transposed ? c.x0 : c.y0);
  const hi = (c: Box) => (transposed ? c.x1 : c.y1);
  const sorted = [...components].sort((a, b) => (transposed ? b.x1 - a.x1 : lo(a) - lo(b)));
  const lines: { lo: number; hi: number; items: Component[] }[] = [];
  for (const c of sorted) {
    const line = lines.find((l) => Math.min(l.hi, hi(c)) - Math.max(l.lo, lo(c)) > 0.3 * Math.min(hi(c) - lo(c), l.hi - l.lo));
    if (line) {
      line.items.push(c);
      line.lo = Math.min(line.lo, lo(c));
      line.hi = Math.max(line.hi, hi(c));
    } else {
      lines.push({ lo: lo(c), hi: hi(c), items: [c] });
    }
  }
  return lines.map((l) => l.items);
}

/** Parses a tick label ("−0.25", "1e−6", "2.5e3"); null when it is not a number. */
export function parseNumber(text: string): number | null {
  const t = text.replace(/\s+/g, '').replace(/×10/, 'e');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}
