// Catalogue entry and public API of the anticrossing detector (issue #5): avoided crossings of a readout resonator
// with a flux-tunable qubit in (2, 801, 127) resonator-vs-flux spectroscopy.
import { requireShape, type ArrayModelEntry, type ModelEntry, type ModelInput, type PlotOptions } from '../model-entry.js';
import { renderHeatmapSvg } from '../plot/heatmap.svg.js';
import { detectAnticrossings, type Anticrossing } from './anticrossing-detector.model.js';

export { detectAnticrossings, type Anticrossing, type AnticrossingDetection } from './anticrossing-detector.model.js';
export {
  countAnticrossingMatches,
  anticrossingScore,
  emptyAnticrossingCounts,
  ANTICROSSING_MATCH_PX,
  type AnticrossingCounts,
  type CrossingPoint,
} from './anticrossing-score.js';

const ROWS = 801;
const COLS = 127;
const WHAT = 'a (2, 801, 127) spectroscopy map: channel (magnitude, phase) × frequency × flux';

function anticrossingPlot(input: ModelInput, output: Record<string, unknown>, options: PlotOptions): string {
  const [, rows, cols] = input.shape as [number, number, number];
  const found = (Array.isArray(output['anticrossings']) ? output['anticrossings'] : []) as Anticrossing[];
  return renderHeatmapSvg({
    title: 'anticrossing-detector-v0 (|S21|)',
    rows,
    cols,
    values: input.data.subarray(0, rows * cols),
    points: found.map((a) => ({ x: a.x, y: a.y, label: `2g ${a.splitting_px.toFixed(1)}` })),
    segments: found.map((a) => ({ x1: a.x, y1: a.y - a.splitting_px / 2, x2: a.x, y2: a.y + a.splitting_px / 2 })),
    legend: `${found.length} anticrossing${found.length === 1 ? '' : 's'} (bar = splitting 2g)`,
    minSidePx: 360,
    xLabel: 'flux (column index)',
    yLabel: 'frequency (row index)',
    darkMode: options.darkMode,
  });
}

const ANTICROSSING_DETECTOR_V0: ArrayModelEntry = {
  kind: 'array',
  spec: {
    id: 'anticrossing-detector-v0',
    name: 'Anticrossing detector v0',
    description:
      'Avoided crossings of a readout resonator with a flux-tunable qubit in resonator-vs-flux spectroscopy. Classical: flux-independent ' +
      'lines from the flux-median |S21| spectrum, per-column tracking of the resonator-like dressed mode (deepest dip near the line, ' +
      'Gaussian matched filter), a crossing where the tracked mode jumps from one side of the bare line to the other within ≤ 3 columns, ' +
      'then a fit of the Jaynes–Cummings dressed modes f± = (f_r + f_q)/2 ± sqrt(g² + (f_r − f_q)²/4) with a locally linear qubit ' +
      '(Blais et al. 2004). The phase channel is accepted but not used. Output: anticrossings [{x (flux column of resonance), ' +
      'y (frequency row of the bare resonator), splitting_px (2g, rows), qubit_slope (rows/column)}], line_rows.',
    released: '2025-06-01T00:00:00Z',
    inputShapeRequirements: '(2, 801, 127): channel (|S21| linear or dB, phase) × frequency (801 rows) × flux (127 columns)',
    nnInputShapeRequirements: null,
    nnOutputShapeRequirements: null,
    batch: false,
  },
  run: (input) => {
    requireShape(input, [2, ROWS, COLS], WHAT);
    return { ...detectAnticrossings(input.data, ROWS, COLS) };
  },
  plot: anticrossingPlot,
};

export const ANTICROSSING_ENTRIES: readonly ModelEntry[] = [ANTICROSSING_DETECTOR_V0];
