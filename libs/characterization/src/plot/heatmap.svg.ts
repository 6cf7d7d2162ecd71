// A self-contained SVG figure of a 2-D array (a PNG heatmap inside, viridis colours, row 0 at the top) with
// vector overlays in pixel coordinates [x = column, y = row]: line segments, points, polylines, boxes, and
// optional region labels tinted over the image.
import { encodeRgbPng } from './png.js';
import { svgDataUri } from './line-plot.svg.js';

export interface HeatmapSegment {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface HeatmapPoint {
  x: number;
  y: number;
  label?: string;
}

export interface HeatmapBox {
  x: number;
  y: number;
  width: number;
  height: number;
  label?: string;
}

export interface HeatmapSpec {
  title: string;
  rows: number;
  cols: number;
  /** rows × cols values, C order. */
  values: Float64Array;
  /** Optional region labels (rows × cols, 0 = none), tinted over the image with one colour per label. */
  labels?: ArrayLike<number>;
  segments?: HeatmapSegment[];
  points?: HeatmapPoint[];
  polylines?: { x: number; y: number }[][];
  boxes?: HeatmapBox[];
  legend: string;
  /** Stretch pixels (non-square) so that each side of the image is at least this many px (≤ 560), e.g. for (801, 127). */
  minSidePx?: number;
  xLabel?: string;
  yLabel?: string;
  darkMode: boolean;
}

const SIZE_PX = 560;
const MARGIN = { left: 60, right: 20, top: 40, bottom: 60 } as const;
const THEMES = {
  light: { background: '#ffffff', foreground: '#222222', overlay: '#ff2d2d', point: '#ffffff', box: '#ff9f1c' },
  dark: { background: '#121212', foreground: '#e6e6e6', overlay: '#ff5c5c', point: '#ffffff', box: '#ffb347' },
} as const;

/** Viridis anchor colours at 0, 0.25, 0.5, 0.75, 1 (matplotlib), interpolated linearly. */
const VIRIDIS = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
] as const;
const LABEL_COLOURS = [
  [230, 25, 75],
  [60, 180, 75],
  [255, 225, 25],
  [0, 130, 200],
  [245, 130, 48],
  [145, 30, 180],
  [70, 240, 240],
  [240, 50, 230],
  [210, 245, 60],
  [250, 190, 212],
] as const;

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

const fixed = (v: number): string => (Math.round(v * 100) / 100).toString();

function heatmapRgb(spec: HeatmapSpec): Uint8Array {
  const { rows, cols, values, labels } = spec;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    if (values[i]! < min) min = values[i]!;
    if (values[i]! > max) max = values[i]!;
  }
  const span = max > min ? max - min : 1;
  const rgb = new Uint8Array(rows * cols * 3);
  for (let i = 0; i < rows * cols; i++) {
    const t = ((values[i]! - min) / span) * (VIRIDIS.length - 1);
    const k = Math.min(VIRIDIS.length - 2, Math.floor(t));
    const f = t - k;
    let r = VIRIDIS[k]![0] + f * (VIRIDIS[k + 1]![0] - VIRIDIS[k]![0]);
    let g = VIRIDIS[k]![1] + f * (VIRIDIS[k + 1]![1] - VIRIDIS[k]![1]);
    let b = VIRIDIS[k]![2] + f * (VIRIDIS[k + 1]![2] - VIRIDIS[k]![2]);
    const label = labels ? labels[i]! : 0;
    if (label > 0) {
      const c = LABEL_COLOURS[(label - 1) % LABEL_COLOURS.length]!;
      r = 0.45 * r + 0.55 * c[0];
      g = 0.45 * g + 0.55 * c[1];
      b = 0.45 * b + 0.55 * c[2];
    }
    rgb[3 * i] = Math.round(r);
    rgb[3 * i + 1] = Math.round(g);
    rgb[3 * i + 2] = Math.round(b);
  }
  return rgb;
}

/** The figure as an SVG document string. */
export function renderHeatmapSvgDocument(spec: HeatmapSpec): string {
  const theme = spec.darkMode ? THEMES.dark : THEMES.light;
  const { rows, cols } = spec;
  const square = Math.min(SIZE_PX / Math.max(1, cols), SIZE_PX / Math.max(1, rows));
  // Elongated arrays may ask for non-square pixels so that neither side is squeezed below spec.minSidePx.
  const scaleX = spec.minSidePx ? Math.max(square, Math.min(spec.minSidePx, SIZE_PX) / Math.max(1, cols)) : square;
  const scaleY = spec.minSidePx ? Math.max(square, Math.min(spec.minSidePx, SIZE_PX) / Math.max(1, rows)) : square;
  const width = cols * scaleX;
  const height = rows * scaleY;
  const W = MARGIN.left + width + MARGIN.right;
  const H = MARGIN.top + height + MARGIN.bottom;
  // Pixel (x, y) has its centre at x + 0.5, y + 0.5.
  const px = (x: number): string => fixed(MARGIN.left + (x + 0.5) * scaleX);
  const py = (y: number): string => fixed(MARGIN.top + (y + 0.5) * scaleY);
  const png = Buffer.from(encodeRgbPng(cols, rows, heatmapRgb(spec))).toString('base64');

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${fixed(W)}" height="${fixed(H)}" viewBox="0 0 ${fixed(W)} ${fixed(H)}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="100%" height="100%" fill="${theme.background}"/>`);
  parts.push(`<text x="${fixed(W / 2)}" y="24" text-anchor="middle" font-size="16" fill="${theme.foreground}">${escapeXml(spec.title)}</text>`);
  parts.push(
    `<image x="${MARGIN.left}" y="${MARGIN.top}" width="${fixed(width)}" height="${fixed(height)}" preserveAspectRatio="none" style="image-rendering:pixelated" href="data:image/png;base64,${png}"/>`,
  );
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${fixed(width)}" height="${fixed(height)}" fill="none" stroke="${theme.foreground}"/>`);
  for (const box of spec.boxes ?? []) {
    parts.push(
      `<rect x="${fixed(MARGIN.left + box.x * scaleX)}" y="${fixed(MARGIN.top + box.y * scaleY)}" width="${fixed(box.width * scaleX)}" height="${fixed(box.height * scaleY)}" fill="none" stroke="${theme.box}" stroke-width="2"/>`,
    );
    if (box.label)
      parts.push(
        `<text x="${fixed(MARGIN.left + box.x * scaleX + 2)}" y="${fixed(MARGIN.top + box.y * scaleY - 3)}" fill="${theme.box}">${escapeXml(box.label)}</text>`,
      );
  }
  for (const line of spec.polylines ?? []) {
    parts.push(`<polyline fill="none" stroke="${theme.overlay}" stroke-width="2" points="${line.map((p) => `${px(p.x)},${py(p.y)}`).join(' ')}"/>`);
  }
  for (const s of spec.segments ?? []) {
    parts.push(
      `<line x1="${px(s.x1)}" y1="${py(s.y1)}" x2="${px(s.x2)}" y2="${py(s.y2)}" stroke="${theme.overlay}" stroke-width="2.5" stroke-linecap="round"/>`,
    );
  }
  for (const p of spec.points ?? []) {
    parts.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="5" fill="none" stroke="${theme.point}" stroke-width="2"/>`);
    parts.push(`<circle cx="${px(p.x)}" cy="${py(p.y)}" r="6.5" fill="none" stroke="${theme.overlay}" stroke-width="1"/>`);
    if (p.label) parts.push(`<text x="${fixed(Number(px(p.x)) + 8)}" y="${fixed(Number(py(p.y)) - 6)}" fill="${theme.point}">${escapeXml(p.label)}</text>`);
  }
  parts.push(
    `<text x="${fixed(MARGIN.left + width / 2)}" y="${fixed(H - 30)}" text-anchor="middle" fill="${theme.foreground}">${escapeXml(spec.xLabel ?? 'x (column index)')}</text>`,
  );
  parts.push(
    `<text x="16" y="${fixed(MARGIN.top + height / 2)}" text-anchor="middle" transform="rotate(-90 16 ${fixed(MARGIN.top + height / 2)})" fill="${theme.foreground}">${escapeXml(spec.yLabel ?? 'y (row index)')}</text>`,
  );
  parts.push(`<text x="${fixed(MARGIN.left + width / 2)}" y="${fixed(H - 10)}" text-anchor="middle" fill="${theme.overlay}">${escapeXml(spec.legend)}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

/** The figure as a data:image/svg+xml URI (what plot=true returns). */
export function renderHeatmapSvg(spec: HeatmapSpec): string {
  return svgDataUri(renderHeatmapSvgDocument(spec));
}
