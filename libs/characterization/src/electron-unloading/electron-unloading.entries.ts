// Catalogue entries of the electron-unloading models (issue #5) with their plots: the unload (sensor-step) detector
// and the texture-cluster detector on (101, 51) plunger × time|barrier charge-sensor maps.
import { requireShape, type ArrayModelEntry, type ModelEntry, type ModelInput, type PlotOptions } from '../model-entry.js';
import { renderHeatmapSvg } from '../plot/heatmap.svg.js';
import { detectElectronUnloads } from './electron-unload-detector.model.js';
import { detectTextureClusters, TEXTURE_KIND_NAMES, type TextureCluster } from './electron-unload-texture.model.js';

const ROWS = 101;
const COLS = 51;
const WHAT = 'a (101, 51) charge-sensor map: plunger (axis 0) × time or barrier (axis 1)';
const INPUT = '(101, 51): plunger (101 rows, axis 0) × time or barrier (51 columns, axis 1), sensor current/signal in any units';
const AXES = { xLabel: 'time or barrier (column index)', yLabel: 'plunger (row index)' };

function unloadPlot(input: ModelInput, output: Record<string, unknown>, options: PlotOptions): string {
  const indices = (Array.isArray(output['unload_indices']) ? output['unload_indices'] : []) as number[];
  return renderHeatmapSvg({
    title: 'electron-unload-detector-v0',
    rows: ROWS,
    cols: COLS,
    values: input.data,
    segments: indices.map((row) => ({ x1: -0.5, y1: row, x2: COLS - 0.5, y2: row })),
    legend: `${indices.length} unload step${indices.length === 1 ? '' : 's'} at rows [${indices.join(', ')}]`,
    minSidePx: 360,
    ...AXES,
    darkMode: options.darkMode,
  });
}

function texturePlot(input: ModelInput, output: Record<string, unknown>, options: PlotOptions): string {
  const clusters = (Array.isArray(output['texture_clusters']) ? output['texture_clusters'] : []) as TextureCluster[];
  const map = (Array.isArray(output['cluster_map']) ? output['cluster_map'] : []) as number[][];
  // Tint by kind (1 = step, 2 = telegraph; flat untinted) and box the non-flat clusters.
  const kindOf = new Map(clusters.map((c) => [c.label, TEXTURE_KIND_NAMES.indexOf(c.kind)]));
  const labels = new Uint8Array(ROWS * COLS);
  if (map.length === ROWS) for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) labels[r * COLS + c] = kindOf.get(map[r]?.[c] ?? 0) ?? 0;
  const shown = clusters.filter((c) => c.kind !== 'flat');
  const count = (kind: string): number => clusters.filter((c) => c.kind === kind).length;
  return renderHeatmapSvg({
    title: 'electron-unload-texture-detector-v0',
    rows: ROWS,
    cols: COLS,
    values: input.data,
    labels,
    boxes: shown.map((c) => ({
      x: c.bbox[0] - 0.5,
      y: c.bbox[1] - 0.5,
      width: c.bbox[2] - c.bbox[0] + 1,
      height: c.bbox[3] - c.bbox[1] + 1,
      label: `${c.label} ${c.kind}`,
    })),
    legend: clusters.length
      ? `clusters: ${count('flat')} flat, ${count('step')} step (red), ${count('telegraph')} telegraph (green)`
      : 'no texture structure found',
    minSidePx: 360,
    ...AXES,
    darkMode: options.darkMode,
  });
}

const ELECTRON_UNLOAD_DETECTOR_V0: ArrayModelEntry = {
  kind: 'array',
  spec: {
    id: 'electron-unload-detector-v0',
    name: 'Electron unload detector v0',
    description:
      'Plunger indices where an electron leaves the dot (charge-sensor steps). Classical: interquartile mean over the 51 columns, a box step ' +
      'filter (difference of the means of 3 rows after and before each boundary; Canny 1986) minus a robustly fitted linear ' +
      'background (sensor-flank slope) is thresholded at 4.5 σ (σ from the pixel noise and the averaged sweep), same polarity as ' +
      'the strongest step, distinct steps ≥ 6 rows apart with the response dropping between them (telegraph-split steps stay one). ' +
      'Output: unload_indices (ascending rows), step_heights (signed, sensor units), noise.',
    released: '2025-06-01T00:00:00Z',
    inputShapeRequirements: INPUT,
    nnInputShapeRequirements: null,
    nnOutputShapeRequirements: null,
    batch: false,
  },
  run: (input) => {
    requireShape(input, [ROWS, COLS], WHAT);
    return { ...detectElectronUnloads(input.data, ROWS, COLS) };
  },
  plot: unloadPlot,
};

const ELECTRON_UNLOAD_TEXTURE_DETECTOR_V0: ArrayModelEntry = {
  kind: 'array',
  spec: {
    id: 'electron-unload-texture-detector-v0',
    name: 'Electron unload texture detector v0',
    description:
      'Clusters of similar local texture: flat plateaus, step bands and telegraph (switching) bands. Local features as z-scores ' +
      '(step filter along the plunger; variance along axis 1 around a local line), hysteresis region growing (Canny 1986), ' +
      '4-connected components. Empty list when the map has no step or telegraph region. Output: texture_clusters [{label, kind ' +
      '(flat|step|telegraph), bbox [x_min, y_min, x_max, y_max] (x = column), pixel_count}], cluster_map (label per pixel).',
    released: '2025-06-01T00:00:00Z',
    inputShapeRequirements: INPUT,
    nnInputShapeRequirements: null,
    nnOutputShapeRequirements: null,
    batch: false,
  },
  run: (input) => {
    requireShape(input, [ROWS, COLS], WHAT);
    return { ...detectTextureClusters(input.data, ROWS, COLS) };
  },
  plot: texturePlot,
};

export const ELECTRON_UNLOADING_ENTRIES: readonly ModelEntry[] = [ELECTRON_UNLOAD_DETECTOR_V0, ELECTRON_UNLOAD_TEXTURE_DETECTOR_V0];
