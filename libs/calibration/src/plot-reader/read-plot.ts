// The built-in plot reader: frame → axes (ticks, labels, pixel→data maps) → title and axis titles → series →
// data coordinates. Everything it could not read is reported in `notes` rather than guessed.
import type { CalibrationSeries } from '../calibration.types.js';
import { readTitle, readXAxis, readYAxis } from './axis-reader.js';
import { pixelPlanes } from './pixel-masks.js';
import { findPlotFrame } from './plot-frame.js';
import type { RasterImage } from './raster-image.js';
import { extractSeries, type PixelSeries } from './series-extraction.js';

export interface PlotReading {
  /** Measured data in data coordinates (markers when the plot has them, else its lines). */
  series: CalibrationSeries[];
  /** Lines drawn over marker data (usually the author's fit), in data coordinates. */
  overlays: CalibrationSeries[];
  title: string;
  xLabel: string;
  yLabel: string;
  frame: { x0: number; y0: number; x1: number; y1: number } | null;
  notes: string[];
}

const MIN_POINTS = 5;

export function readPlot(image: RasterImage): PlotReading {
  const planes = pixelPlanes(image);
  const frame = findPlotFrame(planes);
  const empty: PlotReading = { series: [], overlays: [], title: '', xLabel: '', yLabel: '', frame: null, notes: [] };
  if (!frame) return { ...empty, notes: ['no plot frame (axis lines) found'] };
  const x = readXAxis(planes, frame);
  const y = readYAxis(planes, frame);
  const title = normaliseOcrText(readTitle(planes, frame));
  const notes = [...x.notes, ...y.notes];
  const reading = {
    ...empty,
    frame: { x0: frame.x0, y0: frame.y0, x1: frame.x1, y1: frame.y1 },
    title,
    xLabel: normaliseOcrText(x.label),
    yLabel: normaliseOcrText(y.label),
    notes,
  };
  if (!x.map || !y.map) return reading;
  const pixelSeries = extractSeries(planes, frame).filter((s) => s.points.length >= MIN_POINTS);
  const markers = pixelSeries.filter((s) => s.kind === 'markers');
  const lines = pixelSeries.filter((s) => s.kind === 'line');
  const toData = (s: PixelSeries, i: number): CalibrationSeries => {
    const points = s.points.map((p) => ({ x: x.map!.offset + x.map!.scale * p.px, y: y.map!.offset + y.map!.scale * p.py })).sort((a, b) => a.x - b.x);
    return { x: points.map((p) => p.x), y: points.map((p) => p.y), label: `${s.kind} ${i} (${s.hue < 0 ? 'black' : `hue ${Math.round(s.hue)}°`})` };
  };
  const data = markers.length ? markers : lines;
  if (!data.length) notes.push('no data series found inside the frame');
  return { ...reading, series: data.map(toData), overlays: markers.length ? lines.map(toData) : [] };
}

/** Words of calibration plots that OCR slips are corrected towards (one edit for short words, two for long). */
const VOCABULARY = [
  'rabi',
  'ramsey',
  'drag',
  'echo',
  'hahn',
  'resonator',
  'qubit',
  'spectroscopy',
  'relaxation',
  'amplitude',
  'duration',
  'delay',
  'frequency',
  'detuning',
  'inverse',
  'coefficient',
  'calibration',
  'population',
  'time',
  'pulse',
];

function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  }
  return d[a.length]![b.length]!;
}

/**
 * In words of letters, glyphs that look alike in DejaVu Sans are read as the letter (0→o, |→l, ×→x), brackets are
 * unified, and words within one or two edits of the calibration vocabulary are corrected to it ("Rab]" → "rabi").
 */
export function normaliseOcrText(text: string): string {
  return text
    .replace(/[⟨]/g, '(')
    .replace(/[⟩]/g, ')')
    .split(' ')
    .map((word) => {
      if ((word.match(/[A-Za-z]/g)?.length ?? 0) < 2) return word;
      const letters = word.replace(/0/g, 'o').replace(/\|/g, 'l').replace(/×/g, 'x');
      // Sentence punctuation and brackets are not part of the word; a misread letter (']' for 'i') is.
      const core = letters.toLowerCase().replace(/^[(\s]+|[),.;:\s]+$/g, '');
      if (core.length < 4 || VOCABULARY.includes(core)) return letters;
      const close = VOCABULARY.find((v) => Math.abs(v.length - core.length) <= 1 && editDistance(v, core) <= (v.length > 5 ? 2 : 1));
      return close ? letters.toLowerCase().replace(core, close) : letters;
    })
    .join(' ');
}
