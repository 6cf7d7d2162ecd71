// Running and plotting catalogue models on arrays given as { shape, data } (C order, float64).
import { ModelInputError } from './model-input-error.js';
import { checkTraceLength, describeExpectedTrace, modelEntry } from './model-catalogue.js';
import type { ModelInput } from './model-entry.js';
import { renderLinePlotSvg, svgDataUri, type PlotBar, type PlotMarker } from './plot/line-plot.svg.js';

export type { ModelInput } from './model-entry.js';

function checkData(input: ModelInput): void {
  if (!Array.isArray(input.shape) || input.shape.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new ModelInputError(`expected a shape of non-negative integers; got ${JSON.stringify(input.shape)}`);
  }
  const count = input.shape.reduce((a, b) => a * b, 1);
  if (!(input.data instanceof Float64Array) || input.data.length !== count) {
    throw new ModelInputError(`expected ${count} float64 values for shape [${input.shape.join(', ')}]; got ${input.data?.length ?? 'no data'}`);
  }
  const data = input.data;
  for (let i = 0; i < data.length; i++) {
    if (data[i]! - data[i]! !== 0) throw new ModelInputError(`expected finite values; got ${data[i]} at flat index ${i}`);
  }
}

/** Runs model `id` on one input. Throws ModelInputError for an unknown id, a wrong shape or non-finite data. */
export function runModel(id: string, input: ModelInput): Record<string, unknown> {
  const entry = modelEntry(id);
  checkData(input);
  if (entry.kind === 'array') return entry.run(input);
  if (input.shape.length !== 1) {
    throw new ModelInputError(`expected ${describeExpectedTrace(entry)}; got shape [${input.shape.join(', ')}]`);
  }
  checkTraceLength(entry, input.shape[0]!, input.shape);
  return entry.run(input.data);
}

/** Runs a batching model on every row of an (N, L) array; element i equals runModel on row i. */
export function runModelBatch(id: string, input: ModelInput): Record<string, unknown>[] {
  const entry = modelEntry(id);
  if (!entry.spec.batch || entry.kind === 'array') throw new ModelInputError(`expected a model that supports batches; ${id} does not`);
  checkData(input);
  if (input.shape.length !== 2) {
    throw new ModelInputError(`expected a 2-D array (batch_size, trace_length); got shape [${input.shape.join(', ')}]`);
  }
  const [count, length] = input.shape as [number, number];
  if (count < 1) throw new ModelInputError(`expected batch_size ≥ 1; got shape [${input.shape.join(', ')}]`);
  checkTraceLength(entry, length, input.shape);
  if (entry.runRows) return entry.runRows(input.data, count, length);
  return Array.from({ length: count }, (_, i) => entry.run(input.data.slice(i * length, (i + 1) * length)));
}

function numbers(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)) : [];
}

/** A figure of the input with the model's detections drawn on it, as a data: URI. */
export function renderPlot(id: string, input: ModelInput, output: Record<string, unknown>, options: { darkMode: boolean }): string {
  const entry = modelEntry(id);
  checkData(input);
  if (entry.kind === 'array') return entry.plot(input, output, options);
  if (input.shape.length !== 1) {
    throw new ModelInputError(`expected ${describeExpectedTrace(entry)} to plot; got shape [${input.shape.join(', ')}]`);
  }
  if (typeof entry.plot === 'function') return entry.plot(input, output, options);
  const trace = input.data;
  const inRange = (i: number): boolean => Number.isInteger(i) && i >= 0 && i < trace.length;
  let markers: PlotMarker[] = [];
  let bars: PlotBar[] = [];
  let legend: string;
  if (entry.plot === 'peaks') {
    markers = numbers(output['peak_indices'])
      .filter(inRange)
      .map((i) => ({ index: i, value: trace[i]! }));
    legend = `${markers.length} peak${markers.length === 1 ? '' : 's'}`;
  } else {
    const indices = numbers(output['dip_indices']);
    const widths = numbers(output['linewidths']);
    const depths = numbers(output['depths']);
    markers = indices.filter(inRange).map((i) => ({ index: i, value: trace[i]! }));
    bars = indices.flatMap((i, k) => {
      if (!inRange(i)) return [];
      // The linewidth bar sits halfway between the dip bottom and the baseline.
      const level = trace[i]! + (depths[k] ?? 0) / 2;
      return [{ centre: i, width: widths[k] ?? 1, value: level }];
    });
    legend = `${markers.length} dip${markers.length === 1 ? '' : 's'} (bars: linewidth fr/Ql)`;
  }
  return svgDataUri(renderLinePlotSvg({ title: id, values: trace, markers, bars, legend, darkMode: options.darkMode }));
}
