// Catalogue entries of the 1-D characterization models (issue #3) with their plots: the trace with the
// detected peaks (blockade classifiers) or the extracted indices (pinch-off, turn-on) marked, verdict in the legend.
import type { ModelInput, PlotOptions, TraceModelEntry } from '../model-entry.js';
import { renderLinePlotSvg, svgDataUri, type PlotMarker } from '../plot/line-plot.svg.js';
import {
  classifyCoulombBlockadeV0,
  classifyCoulombBlockadeV1,
  classifyCoulombBlockadeV2,
  classifyCoulombBlockadeV3,
} from './coulomb-blockade-classifiers.model.js';
import { classifyPinchOff, extractPinchOffParameters } from './pinch-off.model.js';
import { classifyTurnOn, extractTurnOnThreshold } from './turn-on.model.js';

function markersAt(trace: Float64Array, indices: unknown[]): PlotMarker[] {
  return indices
    .filter((i): i is number => typeof i === 'number' && Number.isInteger(i) && i >= 0 && i < trace.length)
    .map((i) => ({ index: i, value: trace[i]! }));
}

function verdict(output: Record<string, unknown>): string {
  const score = typeof output['score'] === 'number' ? ` (score ${(output['score'] as number).toFixed(2)})` : '';
  return `${output['classification'] ? 'yes' : 'no'}${score}`;
}

function plotWith(id: string, legend: (output: Record<string, unknown>) => string, indices: (output: Record<string, unknown>) => unknown[]) {
  return (input: ModelInput, output: Record<string, unknown>, options: PlotOptions): string =>
    svgDataUri(
      renderLinePlotSvg({
        title: id,
        values: input.data,
        markers: markersAt(input.data, indices(output)),
        bars: [],
        legend: legend(output),
        darkMode: options.darkMode,
      }),
    );
}

const peaksOf = (o: Record<string, unknown>): unknown[] => (Array.isArray(o['peak_indices']) ? (o['peak_indices'] as unknown[]) : []);

function spec(id: string, name: string, description: string, released: string, inputShapeRequirements: string): TraceModelEntry['spec'] {
  return { id, name, description, released, inputShapeRequirements, nnInputShapeRequirements: null, nnOutputShapeRequirements: null, batch: false };
}

const BLOCKADE_OUTPUT = 'Output: classification, peak_indices (the peaks it judged)';

export const ONE_D_MODEL_ENTRIES: readonly TraceModelEntry[] = [
  {
    spec: spec(
      'coulomb-blockade-classifier-v0',
      'Coulomb blockade classifier v0',
      'True if the trace shows Coulomb-blockade oscillations (≥ 2 well-separated peaks over background). Peak-statistics rule: ' +
        `prominence peak picking (peak detector v0); the second-strongest peak must stand ≥ 3.5 σ above its surroundings. ${BLOCKADE_OUTPUT}, second_peak_sigma.`,
      '2023-03-01T00:00:00Z',
      '(100,) nominal; any 1-D length ≥ 32',
    ),
    lengths: { nominal: 100, anyLength: true, min: 32 },
    plot: plotWith('coulomb-blockade-classifier-v0', (o) => `blockade: ${verdict(o)}`, peaksOf),
    run: classifyCoulombBlockadeV0,
  },
  {
    spec: spec(
      'coulomb-blockade-classifier-v1',
      'Coulomb blockade classifier v1',
      'Same task, more robust: peaks from the cosh⁻² matched filter (per-scale noise, both-sides fall check: 1/f wander, telegraph ' +
        `jumps and steps make no peaks); blockade when ≥ 2 peaks stand clear of their local background and the prominence detector confirms the second. ${BLOCKADE_OUTPUT}, second_peak_sigma.`,
      '2024-02-01T00:00:00Z',
      '(100,) nominal; any 1-D length ≥ 32 (the whole trace is judged)',
    ),
    lengths: { nominal: 100, anyLength: true, min: 32 },
    plot: plotWith('coulomb-blockade-classifier-v1', (o) => `blockade: ${verdict(o)}`, peaksOf),
    run: classifyCoulombBlockadeV1,
  },
  {
    spec: spec(
      'coulomb-blockade-classifier-v2',
      'Coulomb blockade classifier v2',
      "Logistic regression on v1's decision, matched-filter peak statistics and trace shape, trained on simulated traces: score ∈ [0, 1] is the " +
        'calibrated probability of blockade, classification = score ≥ 0.5. Traces longer than 128 are also scored in windows of 128 ' +
        `(stride 64), the best window counts. ${BLOCKADE_OUTPUT}, score, window [first, last] index of the deciding window.`,
      '2025-01-15T00:00:00Z',
      '(128,) nominal; any 1-D length ≥ 32',
    ),
    lengths: { nominal: 128, anyLength: true, min: 32 },
    plot: plotWith('coulomb-blockade-classifier-v2', (o) => `blockade: ${verdict(o)}`, peaksOf),
    run: classifyCoulombBlockadeV2,
  },
  {
    spec: spec(
      'coulomb-blockade-classifier-v3',
      'Coulomb blockade classifier v3',
      'Best version: v2 plus the full statistics of the second (prominence) peak detector, calibrated score ∈ [0, 1], ' +
        `classification = score ≥ 0.5; traces longer than 128 are also scored in windows of 128 (stride 64), the best window counts. ${BLOCKADE_OUTPUT}, score, window.`,
      '2025-06-01T00:00:00Z',
      '(128,) nominal; any 1-D length ≥ 32',
    ),
    lengths: { nominal: 128, anyLength: true, min: 32 },
    plot: plotWith('coulomb-blockade-classifier-v3', (o) => `blockade: ${verdict(o)}`, peaksOf),
    run: classifyCoulombBlockadeV3,
  },
  {
    spec: spec(
      'pinch-off-classifier-v0',
      'Pinch-off classifier v0',
      'True if the gate sweep is a usable pinch-off: bounded tanh fit I = a(1 + tanh(bV + c)) with a separate slope on each plateau (leakage; a conducting level that keeps rising with gate voltage), gated on swing ≥ 5 σ, ' +
        'closed plateau at zero current, both plateaus inside the sweep, monotonic, R² ≥ 0.8. Either sweep direction and current sign. ' +
        'Output: classification, failed_gates, fit (centre, width, amplitude, offset, slope, r_squared, nrmse, snr, closing).',
      '2024-03-01T00:00:00Z',
      "(100,) nominal; any 1-D length ≥ 32 (traces longer than 1024 are fitted on block means; indices in the caller's samples)",
    ),
    lengths: { nominal: 100, anyLength: true, min: 32 },
    plot: plotWith(
      'pinch-off-classifier-v0',
      (o) => `pinch-off: ${verdict(o)}`,
      () => [],
    ),
    run: classifyPinchOff,
  },
  {
    spec: spec(
      'pinch-off-parameter-extractor-v0',
      'Pinch-off parameter extractor v0',
      'cut_off_index, transition_index, saturation_index of the fitted tanh I = a(1 + tanh(bV + c)) (each plateau with its own slope, so a sloping conducting level does not narrow the step): transition at u = 0, cut-off and ' +
        'saturation at the d²I/dV² extrema (tanh u = ∓1/√3), cut-off on the side nearer zero current. null when no significant step ' +
        'is found or the index falls outside the sweep. Also classification and fit.',
      '2024-03-01T00:00:00Z',
      "(100,) nominal; any 1-D length ≥ 32 (traces longer than 1024 are fitted on block means; indices in the caller's samples)",
    ),
    lengths: { nominal: 100, anyLength: true, min: 32 },
    plot: plotWith(
      'pinch-off-parameter-extractor-v0',
      (o) => `cut-off ${o['cut_off_index']}, transition ${o['transition_index']}, saturation ${o['saturation_index']}`,
      (o) => [o['cut_off_index'], o['transition_index'], o['saturation_index']],
    ),
    run: extractPinchOffParameters,
  },
  {
    spec: spec(
      'turn-on-classifier-v0',
      'Turn-on classifier v0',
      'True if the global accumulation sweep turns on (current rises from the noise floor to a conducting level within the sweep): ' +
        'asymmetric tanh fit (sharp onset, slow saturation) + leakage slope, gated on swing ≥ 5 σ, floor at zero current and visible, ' +
        'steepest point inside the sweep, monotonic, R² ≥ 0.8. Either sweep direction. Output: classification, sweep_direction, failed_gates, fit.',
      '2024-03-01T00:00:00Z',
      "(100,) nominal; any 1-D length ≥ 32 (traces longer than 1024 are fitted on block means; indices in the caller's samples)",
    ),
    lengths: { nominal: 100, anyLength: true, min: 32 },
    plot: plotWith(
      'turn-on-classifier-v0',
      (o) => `turns on: ${verdict(o)}`,
      () => [],
    ),
    run: classifyTurnOn,
  },
  {
    spec: spec(
      'turn-on-parameter-extractor-v0',
      'Turn-on parameter extractor v0',
      'threshold_index: first index, from the floor side, where the fitted turn-on curve (asymmetric tanh, leakage slope removed) ' +
        'exceeds floor + 5 % of its swing; null when no significant step is found or its floor is more than 30 % of the swing from zero current. Also classification, sweep_direction, fit.',
      '2024-03-01T00:00:00Z',
      "(100,) nominal; any 1-D length ≥ 32 (traces longer than 1024 are fitted on block means; indices in the caller's samples)",
    ),
    lengths: { nominal: 100, anyLength: true, min: 32 },
    plot: plotWith(
      'turn-on-parameter-extractor-v0',
      (o) => `threshold ${o['threshold_index']}`,
      (o) => [o['threshold_index']],
    ),
    run: extractTurnOnThreshold,
  },
];
