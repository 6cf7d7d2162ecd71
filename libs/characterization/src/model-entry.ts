// What a catalogue entry is: public metadata (what GET /models lists) and how the model validates, runs and
// plots its input. Two kinds: 1-D trace models (length rules checked here) and N-D array models (the entry
// checks its own shape with requireShape).
import { ModelInputError } from './model-input-error.js';

export interface ModelSpec {
  id: string;
  name: string;
  description: string;
  /** ISO-8601 UTC. */
  released: string;
  inputShapeRequirements: string;
  nnInputShapeRequirements: string[] | null;
  nnOutputShapeRequirements: string[] | null;
  batch: boolean;
}

/** A finite, C-order float64 array (runModel has already rejected NaN/±Inf and a data/shape mismatch). */
export interface ModelInput {
  shape: number[];
  data: Float64Array;
}

export interface PlotOptions {
  darkMode: boolean;
}

/** Built-in 1-D plots: peaks (markers at peak_indices) and dips (markers and linewidth bars). */
export type PlotKind = 'peaks' | 'dips';

/** A custom plot: a data: URI (SVG or PNG) of the input with the output drawn on it. */
export type PlotFunction = (input: ModelInput, output: Record<string, unknown>, options: PlotOptions) => string;

/** Accepted trace lengths: exactly `nominal`, or any length ≥ `min` when `anyLength`. */
export interface LengthRule {
  nominal: number;
  anyLength: boolean;
  min: number;
}

export interface TraceModelEntry {
  kind?: 'trace';
  spec: ModelSpec;
  lengths: LengthRule;
  plot: PlotKind | PlotFunction;
  run(trace: Float64Array): Record<string, unknown>;
  /** Rows of a C-order (count, length) block; element i must equal run(row i). */
  runRows?(data: Float64Array, count: number, length: number): Record<string, unknown>[];
  /** Largest input (elements, all rows of a batch) this model takes; default in input-limits.ts. */
  maxElements?: number;
}

export interface ArrayModelEntry {
  kind: 'array';
  spec: ModelSpec;
  /** Validates input.shape (throw ModelInputError saying what was expected and what came, e.g. via requireShape) and runs. */
  run(input: ModelInput): Record<string, unknown>;
  plot: PlotFunction;
  /** Largest input (elements) this model takes; default in input-limits.ts. */
  maxElements?: number;
}

export type ModelEntry = TraceModelEntry | ArrayModelEntry;

/**
 * Throws ModelInputError unless `input.shape` matches `expected`, where each dimension is an exact size, or
 * `{ min }` for "any size ≥ min". `what` names the array for the message, e.g. "a (128, 128) charge stability diagram".
 */
export function requireShape(input: ModelInput, expected: readonly (number | { min: number })[], what: string): void {
  const shape = input.shape;
  const ok = shape.length === expected.length && expected.every((e, i) => (typeof e === 'number' ? shape[i] === e : shape[i]! >= e.min));
  if (!ok) throw new ModelInputError(`expected ${what}; got shape [${shape.join(', ')}]`);
}
