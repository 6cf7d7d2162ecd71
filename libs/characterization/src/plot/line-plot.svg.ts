// A self-contained SVG line plot of one trace with detections drawn on it (pure string building, no DOM).
import { axisTicks, formatTick } from './axis-ticks.js';

export interface PlotMarker {
  index: number;
  value: number;
}

export interface PlotBar {
  /** Centre index and full width in samples, drawn horizontally at `value`. */
  centre: number;
  width: number;
  value: number;
}

export interface LinePlotSpec {
  title: string;
  values: Float64Array;
  markers: PlotMarker[];
  bars: PlotBar[];
  legend: string;
  darkMode: boolean;
}

const WIDTH_PX = 800;
const HEIGHT_PX = 450;
const MARGIN = { left: 80, right: 20, top: 40, bottom: 50 } as const;

const THEMES = {
  light: { background: '#ffffff', foreground: '#222222', grid: '#e3e3e3', line: '#1f77b4', marker: '#d62728', bar: '#2ca02c' },
  dark: { background: '#121212', foreground: '#e6e6e6', grid: '#333333', line: '#4fa3e0', marker: '#ff6b6b', bar: '#7bd88f' },
} as const;

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);
}

const fixed = (v: number): string => (Math.round(v * 100) / 100).toString();

/** Polyline points; traces much longer than the plot width are reduced to a min/max pair per pixel column. */
function tracePoints(values: Float64Array, x: (i: number) => number, y: (v: number) => number, plotWidth: number): string {
  const n = values.length;
  const points: string[] = [];
  if (n <= 2 * plotWidth) {
    for (let i = 0; i < n; i++) points.push(`${fixed(x(i))},${fixed(y(values[i]!))}`);
    return points.join(' ');
  }
  const perColumn = n / plotWidth;
  for (let c = 0; c < plotWidth; c++) {
    const start = Math.floor(c * perColumn);
    const end = Math.min(n, Math.floor((c + 1) * perColumn));
    let lo = start;
    let hi = start;
    for (let i = start; i < end; i++) {
      if (values[i]! < values[lo]!) lo = i;
      if (values[i]! > values[hi]!) hi = i;
    }
    for (const i of lo < hi ? [lo, hi] : [hi, lo]) points.push(`${fixed(x(i))},${fixed(y(values[i]!))}`);
  }
  return points.join(' ');
}

export function renderLinePlotSvg(spec: LinePlotSpec): string {
  const theme = spec.darkMode ? THEMES.dark : THEMES.light;
  const { values } = spec;
  const n = values.length;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    min = Math.min(min, values[i]!);
    max = Math.max(max, values[i]!);
  }
  if (n === 0) min = max = 0;
  const xAxis = axisTicks(0, Math.max(1, n - 1), true);
  const yAxis = axisTicks(min, max);
  const plotWidth = WIDTH_PX - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT_PX - MARGIN.top - MARGIN.bottom;
  const x = (i: number): number => MARGIN.left + ((i - xAxis.low) / (xAxis.high - xAxis.low)) * plotWidth;
  const y = (v: number): number => MARGIN.top + (1 - (v - yAxis.low) / (yAxis.high - yAxis.low)) * plotHeight;

  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH_PX}" height="${HEIGHT_PX}" viewBox="0 0 ${WIDTH_PX} ${HEIGHT_PX}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
  );
  parts.push(`<rect width="100%" height="100%" fill="${theme.background}"/>`);
  parts.push(`<text x="${WIDTH_PX / 2}" y="24" text-anchor="middle" font-size="16" fill="${theme.foreground}">${escapeXml(spec.title)}</text>`);
  for (const t of xAxis.ticks) {
    const px = fixed(x(t));
    parts.push(`<line x1="${px}" y1="${MARGIN.top}" x2="${px}" y2="${MARGIN.top + plotHeight}" stroke="${theme.grid}"/>`);
    parts.push(
      `<text x="${px}" y="${MARGIN.top + plotHeight + 18}" text-anchor="middle" fill="${theme.foreground}">${escapeXml(formatTick(t, xAxis.step))}</text>`,
    );
  }
  for (const t of yAxis.ticks) {
    const py = fixed(y(t));
    parts.push(`<line x1="${MARGIN.left}" y1="${py}" x2="${MARGIN.left + plotWidth}" y2="${py}" stroke="${theme.grid}"/>`);
    parts.push(`<text x="${MARGIN.left - 6}" y="${py}" dy="4" text-anchor="end" fill="${theme.foreground}">${escapeXml(formatTick(t, yAxis.step))}</text>`);
  }
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="${theme.foreground}"/>`);
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT_PX - 10}" text-anchor="middle" fill="${theme.foreground}">sample index</text>`);
  parts.push(
    `<text x="16" y="${MARGIN.top + plotHeight / 2}" text-anchor="middle" transform="rotate(-90 16 ${MARGIN.top + plotHeight / 2})" fill="${theme.foreground}">value</text>`,
  );
  if (n > 0) {
    parts.push(`<polyline fill="none" stroke="${theme.line}" stroke-width="1.5" points="${tracePoints(values, x, y, plotWidth)}"/>`);
  }
  for (const bar of spec.bars) {
    const x1 = fixed(x(bar.centre - bar.width / 2));
    const x2 = fixed(x(bar.centre + bar.width / 2));
    const py = fixed(y(bar.value));
    parts.push(`<line x1="${x1}" y1="${py}" x2="${x2}" y2="${py}" stroke="${theme.bar}" stroke-width="2"/>`);
    for (const px of [x1, x2])
      parts.push(`<line x1="${px}" y1="${fixed(y(bar.value) - 5)}" x2="${px}" y2="${fixed(y(bar.value) + 5)}" stroke="${theme.bar}" stroke-width="2"/>`);
  }
  for (const marker of spec.markers) {
    parts.push(`<circle cx="${fixed(x(marker.index))}" cy="${fixed(y(marker.value))}" r="5" fill="none" stroke="${theme.marker}" stroke-width="2"/>`);
  }
  parts.push(`<text x="${MARGIN.left + plotWidth - 6}" y="${MARGIN.top + 16}" text-anchor="end" fill="${theme.marker}">${escapeXml(spec.legend)}</text>`);
  parts.push('</svg>');
  return parts.join('');
}

export function svgDataUri(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
