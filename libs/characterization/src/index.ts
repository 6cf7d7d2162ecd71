// Public API of the characterization models: the catalogue, the runner, the plots and each family's models.
// Scoring against simulator ground truth is in `#qdc/characterization/evaluation`, training in
// `#qdc/characterization/training` (evaluation/index.ts, training/index.ts).
export { ModelInputError } from './model-input-error.js';
export { MODEL_CATALOGUE, findModel } from './model-catalogue.js';
export {
  requireShape,
  type ModelSpec,
  type ModelEntry,
  type ArrayModelEntry,
  type TraceModelEntry,
  type PlotFunction,
  type PlotOptions,
} from './model-entry.js';
export { renderHeatmapSvg, type HeatmapSpec, type HeatmapSegment, type HeatmapPoint, type HeatmapBox } from './plot/heatmap.svg.js';
export { renderLinePlotSvg, svgDataUri, type LinePlotSpec, type PlotMarker, type PlotBar } from './plot/line-plot.svg.js';
export { runModel, runModelBatch, renderPlot, type ModelInput } from './model-runner.js';
export { inputDecodeLimits, maxInputElements, type InputDecodeLimits } from './input-limits.js';
export * from './coulomb-peaks/index.js';
export * from './resonators/index.js';
export * from './one-d/index.js';
export * from './charge-stability/index.js';
export * from './coulomb-diamonds/index.js';
export * from './anticrossings/index.js';
export * from './electron-unloading/index.js';
