// Catalogue entries of the surface-code decoders (issue #15): ising-decoding-v1-fast (union-find clusters with exact
// local matching) and ising-decoding-v1-accurate (exact minimum-weight perfect matching), both from libs/qec, on the
// SPEC.md §6 tensor (B, 4, T, D, D). The one size limit is B·T·D²; the work per shot is bounded in both decoders
// (libs/qec: components above a size are not matched exactly), so every request within it is decoded.
import { SyndromeTensorError, decodeSyndromeTensor, readSyndromeTensor, type BatchDecoding, type DecoderVariant, type SyndromeTensor } from '#qdc/qec';
import { ModelInputError } from '../model-input-error.js';
import type { ArrayModelEntry, ModelEntry, ModelInput, PlotOptions } from '../model-entry.js';
import { renderHeatmapSvg } from '../plot/heatmap.svg.js';

/** Largest B·T·D² per request (pure noise at the limit: about 3 s fast, 5 s accurate on the shared 2-core machine). */
export const MAX_DECODING_CELLS = 1 << 17;
/** Logits are written to 4 decimals. */
const LOGIT_DECIMALS = 1e4;

const INPUT_SHAPE =
  '(B, 4, T, D, D) float32 or uint8: channels X-stabilizer detection events, Z-stabilizer detection events, X-stabilizer mask, ' +
  'Z-stabilizer mask (SPEC layout, all zeros = standard layout); D odd, 3 ≤ D ≤ 25; T ≥ 1 rounds, the last one taken as exact; ' +
  `values > 0.5 count as 1; B·T·D² ≤ ${MAX_DECODING_CELLS}`;

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

function run(variant: DecoderVariant, input: ModelInput): Record<string, unknown> {
  const shape = input.shape;
  if (shape.length === 5) {
    const cells = shape[0]! * shape[2]! * shape[3]! * shape[4]!;
    if (cells > MAX_DECODING_CELLS) {
      throw new ModelInputError(
        `expected at most ${MAX_DECODING_CELLS} cells B·T·D² per request (split the batch); got ${cells} for shape [${shape.join(', ')}]`,
      );
    }
  }
  let tensor: SyndromeTensor;
  try {
    tensor = readSyndromeTensor(shape, input.data);
  } catch (error) {
    toModelInputError(error);
  }
  return decodingOutput(decodeSyndromeTensor(tensor, variant));
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
  // Four channels of B·T·D² cells.
  maxElements: 4 * MAX_DECODING_CELLS,
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
