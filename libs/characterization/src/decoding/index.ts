// Catalogue entries of the surface-code decoders (issue #15): ising-decoding-v1-fast (union-find clusters with exact
// local matching) and ising-decoding-v1-accurate (exact minimum-weight perfect matching), both from libs/qec, on the
// SPEC.md §6 tensor (B, 4, T, D, D). Any batch the upload limit lets through is read; what bounds a request is its
// estimated decoding time (libs/qec decode-cost.ts: size × an upper envelope of the cost per cell at the batch's
// event density), against DECODING_TIME_BUDGET_S, and its output size. Within those, the batch is decoded in chunks
// of at most DECODING_CHUNK_CELLS cells (each shot is independent, so chunks give exactly the whole batch's answer).
import {
  SyndromeTensorError,
  decodeSyndromeTensor,
  estimateDecodeCost,
  readSyndromeTensor,
  type BatchDecoding,
  type DecoderVariant,
  type SyndromeTensor,
} from '#qdc/qec';
import { ModelInputError } from '../model-input-error.js';
import type { ArrayModelEntry, ModelEntry, ModelInput, PlotOptions } from '../model-entry.js';
import { renderHeatmapSvg } from '../plot/heatmap.svg.js';

/**
 * Elements a decoding upload may declare: the 64 MiB upload limit at one byte per element (uint8), so no upload is
 * refused for its element count (float32 uploads stop at 16 Mi elements; decoded they take 8 bytes each).
 */
export const MAX_DECODING_ELEMENTS = 1 << 26;
/**
 * Estimated decoding time a request may take, seconds. A run is synchronous on the inference worker's main thread,
 * where BullMQ renews the job lock (QDC_JOB_LOCK_MS, 30 s), so the budget stays below the lock, far below the
 * worker's QDC_INFERENCE_TIMEOUT_MS (300 s); the estimate is an upper envelope, real runs take less.
 */
export const DECODING_TIME_BUDGET_S = 20;
/** Logits per request (B·2·D²): about 30 MB of JSON; more is refused, whatever the time. */
export const MAX_DECODING_LOGITS = 1 << 22;
/** Reading the tensor and writing the answer (nested logits, then JSON in the worker), µs per input element and per logit. */
export const DECODING_READ_US_PER_ELEMENT = 0.05;
export const DECODING_OUTPUT_US_PER_LOGIT = 1;
/** Cells B·T·D² per internal chunk (the former per-request limit). */
export const DECODING_CHUNK_CELLS = 1 << 17;
/** Logits are written to 4 decimals. */
const LOGIT_DECIMALS = 1e4;

const INPUT_SHAPE =
  '(B, 4, T, D, D) float32 or uint8: channels X-stabilizer detection events, Z-stabilizer detection events, X-stabilizer mask, ' +
  'Z-stabilizer mask (SPEC layout, all zeros = standard layout); D odd, 3 ≤ D ≤ 25; T ≥ 1 rounds, the last one taken as exact; ' +
  `values > 0.5 count as 1; any batch within the upload limit whose estimated decoding time is ≤ ${DECODING_TIME_BUDGET_S} s and B·2·D² ≤ ${MAX_DECODING_LOGITS}`;

const OUTPUT_TEXT =
  'Output: logits (B, 2, D, D): log-odds that data qubit (r, c) carries a net Z error (channel 0, from X events) or X error ' +
  '(channel 1) after the last round, given as the hard decision ±ln((1 − p)/p) = ±4.5951 of the 1 % error rate the weights assume; ' +
  'logical_flips (B, 2): predicted flips of the X and Z observables (X_L on column 0, Z_L on row 0); variant; batch_size; distance; ' +
  'rounds; accurate only: inexact_shots, the shots whose matching component exceeded 160 events and were decoded like fast (normally []). ' +
  'Applying logits > 0 reproduces every last-round syndrome.';

function toModelInputError(error: unknown): never {
  if (error instanceof SyndromeTensorError) throw new ModelInputError(error.message);
  throw error;
}

function decodingOutput(result: BatchDecoding): Record<string, unknown> {
  const n = result.distance ** 2;
  const d = result.distance;
  const logit = Math.round(result.logitMagnitude * LOGIT_DECIMALS) / LOGIT_DECIMALS;
  const logits = Array.from({ length: result.batch }, (_, b) =>
    [0, 1].map((channel) =>
      Array.from({ length: d }, (_, r) => Array.from({ length: d }, (_, c) => (result.corrections[(b * 2 + channel) * n + r * d + c] ? logit : -logit))),
    ),
  );
  const logicalFlips = Array.from({ length: result.batch }, (_, b) => [result.logicalFlips[b * 2]!, result.logicalFlips[b * 2 + 1]!]);
  const output: Record<string, unknown> = {
    logits,
    logical_flips: logicalFlips,
    variant: result.variant,
    batch_size: result.batch,
    distance: result.distance,
    rounds: result.rounds,
  };
  if (result.variant === 'accurate') output['inexact_shots'] = result.inexactShots;
  return output;
}

function splitAdvice(batch: number, parts: number): string {
  return `split it into ${parts} or more requests of at most ${Math.max(1, Math.floor(batch / parts))} shots`;
}

/** Refuses, with how to split, a batch whose output or estimated decoding time is beyond one run's. */
function checkWork(tensor: SyndromeTensor, variant: DecoderVariant, shape: readonly number[]): void {
  const { batch, distance } = tensor;
  const logits = batch * 2 * distance * distance;
  if (logits > MAX_DECODING_LOGITS) {
    throw new ModelInputError(
      `expected at most ${MAX_DECODING_LOGITS} output logits B·2·D² per request; shape [${shape.join(', ')}] gives ${logits}: ${splitAdvice(batch, Math.ceil(logits / MAX_DECODING_LOGITS))}`,
    );
  }
  const cost = estimateDecodeCost(tensor, variant);
  const elements = shape.reduce((a, b) => a * b, 1);
  const seconds = cost.seconds + (DECODING_READ_US_PER_ELEMENT * elements + DECODING_OUTPUT_US_PER_LOGIT * logits) / 1e6;
  if (seconds > DECODING_TIME_BUDGET_S) {
    const density = (100 * cost.events) / Math.max(1, cost.detectors);
    throw new ModelInputError(
      `expected a batch that decodes within ${DECODING_TIME_BUDGET_S} s; shape [${shape.join(', ')}] with ${cost.events} detection events ` +
        `(${density.toFixed(1)} % of detectors) is estimated at ${seconds.toFixed(0)} s for the ${variant} decoder: ${splitAdvice(batch, Math.ceil(seconds / DECODING_TIME_BUDGET_S))}`,
    );
  }
}

/** Decodes the batch chunk by chunk (shots are independent) and joins the chunks' answers. */
function decodeInChunks(tensor: SyndromeTensor, variant: DecoderVariant): BatchDecoding {
  const { batch, rounds, code } = tensor;
  const chunkShots = Math.max(1, Math.floor(DECODING_CHUNK_CELLS / (rounds * tensor.distance * tensor.distance)));
  if (batch <= chunkShots) return decodeSyndromeTensor(tensor, variant);
  const n = code.dataQubits;
  const sizes = [rounds * code.stabilizers[0].length, rounds * code.stabilizers[1].length] as const;
  const corrections = new Uint8Array(batch * 2 * n);
  const logicalFlips = new Uint8Array(batch * 2);
  const inexactShots: number[] = [];
  let logitMagnitude = 0;
  for (let start = 0; start < batch; start += chunkShots) {
    const end = Math.min(batch, start + chunkShots);
    const chunk: SyndromeTensor = {
      ...tensor,
      batch: end - start,
      events: [tensor.events[0].subarray(start * sizes[0], end * sizes[0]), tensor.events[1].subarray(start * sizes[1], end * sizes[1])],
    };
    const part = decodeSyndromeTensor(chunk, variant);
    corrections.set(part.corrections, start * 2 * n);
    logicalFlips.set(part.logicalFlips, start * 2);
    for (const shot of part.inexactShots) inexactShots.push(start + shot);
    logitMagnitude = part.logitMagnitude;
  }
  return { variant, batch, distance: tensor.distance, rounds, corrections, logicalFlips, logitMagnitude, inexactShots };
}

function run(variant: DecoderVariant, input: ModelInput): Record<string, unknown> {
  let tensor: SyndromeTensor;
  try {
    tensor = readSyndromeTensor(input.shape, input.data);
  } catch (error) {
    toModelInputError(error);
  }
  checkWork(tensor, variant, input.shape);
  return decodingOutput(decodeInChunks(tensor, variant));
}

function decodingPlot(input: ModelInput, output: Record<string, unknown>, options: PlotOptions): string {
  const [, , rounds, d] = input.shape as [number, number, number, number, number];
  const n = d * d;
  // Shot 0: detection events per cell summed over rounds and both types; the corrections drawn on top.
  const values = new Float64Array(n);
  for (const channel of [0, 1])
    for (let t = 0; t < rounds; t++) for (let cell = 0; cell < n; cell++) values[cell]! += input.data[(channel * rounds + t) * n + cell]! > 0.5 ? 1 : 0;
  const logits = (Array.isArray(output['logits']) ? output['logits'][0] : undefined) as number[][][] | undefined;
  const points: { x: number; y: number; label: string }[] = [];
  for (let r = 0; r < d; r++) {
    for (let c = 0; c < d; c++) {
      const z = (logits?.[0]?.[r]?.[c] ?? 0) > 0;
      const x = (logits?.[1]?.[r]?.[c] ?? 0) > 0;
      if (z || x) points.push({ x: c, y: r, label: z && x ? 'Y' : z ? 'Z' : 'X' });
    }
  }
  return renderHeatmapSvg({
    title: `${String(output['variant'] ?? '')} decoding, shot 0 (d = ${d}, T = ${rounds})`,
    rows: d,
    cols: d,
    values,
    points,
    legend: `colour: detection events per cell over all rounds; ${points.length} corrected qubit${points.length === 1 ? '' : 's'} (Z, X or Y)`,
    xLabel: 'column c',
    yLabel: 'row r',
    darkMode: options.darkMode,
  });
}

const entry = (variant: DecoderVariant, name: string, description: string, released: string): ArrayModelEntry => ({
  kind: 'array',
  spec: {
    id: `ising-decoding-v1-${variant}`,
    name,
    description: `${description} ${OUTPUT_TEXT}`,
    released,
    inputShapeRequirements: INPUT_SHAPE,
    nnInputShapeRequirements: null,
    nnOutputShapeRequirements: null,
    batch: false,
  },
  run: (input) => run(variant, input),
  plot: decodingPlot,
  maxElements: MAX_DECODING_ELEMENTS,
});

export const DECODING_ENTRIES: readonly ModelEntry[] = [
  entry(
    'fast',
    'Ising decoding v1 fast (union-find)',
    'Rotated surface-code memory decoder: union-find clusters on the space-time detector graph (Delfosse & Nickerson, Quantum 5, 595 (2021), ' +
      'weighted growth), then the events of each cluster paired by exact minimum-weight matching among themselves (peeling, Delfosse & Zémor 2020, ' +
      'for clusters too large to match); about 3× faster than matching at d = 7, p = 2 %, slightly slower at d = 5, p = 1 %. Measured here ' +
      '(docs/models/decoding.md): logical error 0.97–1.01× that of matching at d = 3–7, p = 1–2 %. Edge weights ln((1 − p)/p) for p = q = 1 %.',
    '2026-11-25T00:00:00Z',
  ),
  entry(
    'accurate',
    'Ising decoding v1 accurate (minimum-weight perfect matching)',
    'Rotated surface-code memory decoder, exact minimum-weight perfect matching of the detection events on the space-time graph ' +
      '(Dennis et al. 2002; Edmonds blossom algorithm with Galil O(n³) duals, subset DP for small components) with log-likelihood weights ' +
      'ln((1 − p)/p), p = q = 1 %, parallel boundary edges merged; a shot whose matching component exceeds 160 events (far above threshold) ' +
      'is decoded like the fast variant. Phenomenological threshold and d = 3 → 5 suppression in docs/models/decoding.md.',
    '2026-11-25T00:00:00Z',
  ),
];
