// Catalogue entries of the Coulomb-diamond models (issue #5) with their plots: the map as a heatmap with the
// blockade mask tinted (segmenter) or the detected diamonds drawn as closed polygons with vertex markers.
import { requireShape, type ArrayModelEntry, type ModelInput, type PlotOptions } from '../model-entry.js';
import { renderHeatmapSvg } from '../plot/heatmap.svg.js';
import { detectDiamondsInMask, detectDiamondsV1, detectDiamondsV2 } from './coulomb-diamond-detectors.model.js';
import { segmentCoulombDiamonds } from './coulomb-diamond-segmenter.model.js';
import type { DiamondVertices } from './diamond-score.js';
import { toCaller, toWorkingGrid } from './diamond-grid.js';
import { detectInGateTiles, type TileDiamond } from './diamond-tiles.js';

const RAW = 128;
const MASK = 256;
const MIN_SIDE = 32;
const RAW_WHAT = `a 2-D Coulomb-diamond map of at least (${MIN_SIDE}, ${MIN_SIDE}) (axis 0 = bias, axis 1 = gate)`;
const RAW_SHAPE =
  `(${RAW}, ${RAW}) nominal; any (rows, cols) with both ≥ ${MIN_SIDE} (resampled per axis to ${RAW} × ${RAW}, answers in the caller's pixels): ` +
  'current or differential conductance, either sign, axis 0 = bias (rows), axis 1 = gate (columns), any units, offset allowed; for conductance maps zero bias within the middle 40 % of the rows';
const MASK_MIN = 32;

/** Validates a raw map and returns it on the working grid with the caller's shape. */
function working(input: ModelInput): { data: Float64Array; rows: number; cols: number } {
  requireShape(input, [{ min: MIN_SIDE }, { min: MIN_SIDE }], RAW_WHAT);
  const [rows, cols] = input.shape as [number, number];
  return { data: toWorkingGrid(input.data, rows, cols), rows, cols };
}

/** Validates a raw map; its (rows, cols). */
function checkedShape(input: ModelInput): [number, number] {
  requireShape(input, [{ min: MIN_SIDE }, { min: MIN_SIDE }], RAW_WHAT);
  return input.shape as [number, number];
}

/** Working-grid vertices → the caller's pixels. */
function toCallerDiamond(d: DiamondVertices, rows: number, cols: number): DiamondVertices {
  return d.map(([x, y]) => [toCaller(x, cols), toCaller(y, rows)]) as DiamondVertices;
}
const VERTICES =
  'diamond_vertices: per diamond [[left], [top], [right], [bottom]] as [x, y] pixels (x = column, y = row; left/right = the zero-bias vertices, top/bottom = smallest/largest row); ' +
  'only diamonds with all four vertices inside the window are reported';
const AXES = { xLabel: 'gate (column index)', yLabel: 'bias (row index)' };

function diamondPlot(title: string, input: ModelInput, output: Record<string, unknown>, options: PlotOptions): string {
  const [rows, cols] = input.shape as [number, number];
  const diamonds = (output['diamond_vertices'] as DiamondVertices[] | undefined) ?? [];
  const names = ['L', 'T', 'R', 'B'];
  return renderHeatmapSvg({
    title,
    rows,
    cols,
    values: input.data,
    polylines: diamonds.map((d) => [...d, d[0]].map(([x, y]) => ({ x, y }))),
    points: diamonds.flatMap((d, k) => d.map(([x, y], i) => ({ x, y, label: i === 1 ? `${k + 1}${names[i]}` : undefined }))),
    legend: `${diamonds.length} diamond${diamonds.length === 1 ? '' : 's'}`,
    ...AXES,
    darkMode: options.darkMode,
  });
}

const round = (v: number): number => Math.round(v * 100) / 100;

export const COULOMB_DIAMOND_MODEL_ENTRIES: readonly ArrayModelEntry[] = [
  {
    kind: 'array',
    spec: {
      id: 'coulomb-diamond-segmenter-v0',
      name: 'Coulomb diamond segmenter v0',
      description:
        'Binary blockade mask (1 inside Coulomb diamonds). Classical: binomial smoothing, read-out detection (current: plateaus of both signs; ' +
        'conductance: one-signed lines), zero-bias row (current: smallest row sum of |I|; conductance: fewest lines crossed, among up to 3 such rows the one whose walk closes clearly more columns), per gate column the ' +
        'first conductance peak on each side of zero bias (orthodox theory: dI/dV peaks at the T = 0 edge), regularised by a constant-interaction ' +
        'lattice fit (shared zero-bias row and slopes, diamonds touching at degeneracy points) and rasterised. Output: segmentation (int array of the ' +
        'input shape), readout, zero_bias_row.',
      released: '2024-05-01T00:00:00Z',
      inputShapeRequirements: RAW_SHAPE,
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: false,
    },
    run: (input) => {
      const { data, rows, cols } = working(input);
      const { mask, edges, lattice } = segmentCoulombDiamonds(data, RAW, RAW);
      // Each caller pixel takes the label of the working pixel its centre falls in.
      const segmentation = Array.from({ length: rows }, (_, y) => {
        const wy = Math.min(RAW - 1, Math.floor(((y + 0.5) * RAW) / rows));
        return Array.from({ length: cols }, (_, x) => mask[wy * RAW + Math.min(RAW - 1, Math.floor(((x + 0.5) * RAW) / cols))]!);
      });
      const found = mask.some((v) => v > 0);
      return {
        segmentation,
        readout: found ? edges.readout : null,
        zero_bias_row: found ? round(toCaller(lattice?.zeroBiasRow ?? edges.zeroBiasRow, rows)) : null,
      };
    },
    plot: (input, output, options) => {
      const seg = (output['segmentation'] as number[][] | undefined) ?? [];
      const [rows, cols] = input.shape as [number, number];
      return renderHeatmapSvg({
        title: 'coulomb-diamond-segmenter-v0',
        rows,
        cols,
        values: input.data,
        labels: seg.flat(),
        legend: `blockade: ${seg.flat().filter((v) => v > 0).length} px`,
        ...AXES,
        darkMode: options.darkMode,
      });
    },
  },
  {
    kind: 'array',
    spec: {
      id: 'coulomb-diamond-detector-v0',
      name: 'Coulomb diamond detector v0 (mask)',
      description:
        'Diamond vertices from a binary blockade mask (values > 0.5 are foreground). 4-connected components split at degeneracy necks, sub-pixel ' +
        'boundary fitted per diamond by a parallelogram (four lines, two shared slopes: −C_g/C_s and C_g/(C_g + C_d); trimmed least squares), ' +
        `vertices = line intersections. Output: ${VERTICES}.`,
      released: '2024-05-01T00:00:00Z',
      inputShapeRequirements: `(${MASK}, ${MASK}) nominal; any (rows, cols) with both ≥ ${MASK_MIN}: a binary blockade mask, axis 0 = bias, axis 1 = gate; values > 0.5 are foreground`,
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: false,
    },
    run: (input) => {
      requireShape(
        input,
        [{ min: MASK_MIN }, { min: MASK_MIN }],
        `a 2-D binary blockade mask of at least (${MASK_MIN}, ${MASK_MIN}) (axis 0 = bias, axis 1 = gate)`,
      );
      const [rows, cols] = input.shape as [number, number];
      return { diamond_vertices: detectDiamondsInMask(input.data, rows, cols).diamonds.map(roundDiamond) };
    },
    plot: (input, output, options) => diamondPlot('coulomb-diamond-detector-v0', input, output, options),
  },
  {
    kind: 'array',
    spec: {
      id: 'coulomb-diamond-detector-v1',
      name: 'Coulomb diamond detector v1',
      description:
        'Diamond vertices from a raw current or conductance map, no segmentation needed: per-column blockade edges at the first conductance peak on ' +
        "each side of the zero-bias row (within the row's own scale, so power-law maps work), 3-column median, then the v0 parallelogram fit of each " +
        'diamond separately, left/right vertices pinned to the zero-bias row. Output: ' +
        `${VERTICES}.`,
      released: '2024-09-01T00:00:00Z',
      inputShapeRequirements: RAW_SHAPE,
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: false,
    },
    run: (input) => {
      const [rows, cols] = checkedShape(input);
      const found = detectInGateTiles(input.data, rows, cols, (sub, r, c) =>
        detectDiamondsV1(toWorkingGrid(sub, r, c), RAW, RAW).diamonds.map((d) => ({ vertices: toCallerDiamond(d, r, c), extra: [] })),
      );
      return { diamond_vertices: found.map((d) => roundDiamond(d.vertices)) };
    },
    plot: (input, output, options) => diamondPlot('coulomb-diamond-detector-v1', input, output, options),
  },
  {
    kind: 'array',
    spec: {
      id: 'coulomb-diamond-detector-v2',
      name: 'Coulomb diamond detector v2',
      description:
        'More accurate vertices than v1: the per-column edges of the whole map are fitted by one lattice (shared zero-bias row, per-transition ' +
        'slopes tied to their neighbours, neighbouring diamonds touching at the degeneracy points; Levenberg–Marquardt with trimmed outliers); ' +
        "v1's diamonds are reported with the lattice vertices where the lattice fits their edges, so noise averages over all diamonds. Output: " +
        `${VERTICES}; charging_energy per diamond = bias half-height in rows (the addition energy in units of e·ΔV_bias per row); ` +
        'lever_arm per diamond = charging_energy / gate width of the diamond, in bias rows per gate column (α_g times the ratio of the gate ' +
        'step to the bias step); zero_bias_row.',
      released: '2025-02-01T00:00:00Z',
      inputShapeRequirements: RAW_SHAPE,
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: false,
    },
    run: (input) => {
      const [rows, cols] = checkedShape(input);
      let zeroBias: number | null = null;
      // Pixel units of each window's grid: bias rows scale by rows/128, the lever arm (rows per column) by rows/c.
      const found: TileDiamond[] = detectInGateTiles(input.data, rows, cols, (sub, r, c) => {
        const result = detectDiamondsV2(toWorkingGrid(sub, r, c), RAW, RAW);
        if (zeroBias === null && result.diamonds.length && result.lattice) zeroBias = toCaller(result.lattice.zeroBiasRow, r);
        return result.diamonds.map((d, i) => ({
          vertices: toCallerDiamond(d, r, c),
          extra: [(result.chargingEnergies[i]! * r) / RAW, (result.leverArms[i]! * r) / c],
        }));
      });
      return {
        diamond_vertices: found.map((d) => roundDiamond(d.vertices)),
        charging_energy: found.map((d) => Math.round(d.extra[0]! * 1000) / 1000),
        lever_arm: found.map((d) => Math.round(d.extra[1]! * 1e4) / 1e4),
        zero_bias_row: found.length && zeroBias !== null ? round(zeroBias) : null,
      };
    },
    plot: (input, output, options) => diamondPlot('coulomb-diamond-detector-v2', input, output, options),
  },
];

function roundDiamond(d: DiamondVertices): number[][] {
  return d.map(([x, y]) => [round(x), round(y)]);
}
