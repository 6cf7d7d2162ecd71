// Catalogue entries of the surface-code decoders (issue #15): ising-decoding-v1-fast (union-find) and
// ising-decoding-v1-accurate (exact minimum-weight perfect matching), both from libs/qec, on the SPEC.md §6
// tensor (B, 4, T, D, D).
import { SyndromeTensorError, decodeSyndromeTensor, readSyndromeTensor, type BatchDecoding, type DecoderVariant, type SyndromeTensor } from '#qdc/qec';
import { ModelInputError } from '../model-input-error.js';
import type { ArrayModelEntry, ModelEntry, ModelInput, PlotOptions } from '../model-entry.js';
import { renderHeatmapSvg } from '../plot/heatmap.svg.js';

/** Largest B·T·D² per request (about 6 s of union-find on pure-noise input, far more on real syndromes). */
export const MAX_DECODING_CELLS = 1 << 17;
/**
 * Exact matching costs about (events per shot and type)³: the accurate decoder refuses inputs whose Σ events³ exceeds
 * this (≈ 5 s; e.g. five d = 11, T = 11 shots of pure noise). Syndromes below threshold are orders of magnitude under it.
 */
export const MAX_MATCHING_WORK = 4e8;
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
  'rounds. Applying logits > 0 reproduces every last-round syndrome.';

function toModelInputError(error: unknown): never {
  if (error instanceof SyndromeTensorError) throw new ModelInputError(error.message);
  throw error;
}

function matchingWork(tensor: SyndromeTensor): number {
  let work = 0;
  for (const type of [0, 1] as const) {
    const perShot = tensor.rounds * tensor.code.stabilizers[type].length;
    const events = tensor.events[type];
    for (let b = 0; b < tensor.batch; b++) {
      let k = 0;
      for (let i = b * perShot; i < (b + 1) * perShot; i++) k += events[i]!;
      work += k ** 3;
    }
  }
  return work;
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
  return { logits, logical_flips: logicalFlips, variant: result.variant, batch_size: result.batch, distance: result.distance, rounds: result.rounds };
}

function run(variant: DecoderVariant, input: ModelInput): Record<string, unknown> {
  const shape = input.shape;
  if (shape.length === 5) {
    const cells = shape[0]! * shape[2]! * shape[3]! * shape[4]!;
    if (cells > MAX_DECODING_CELLS) {
      throw new ModelInputError(`expected at most ${MAX_DECODING_CELLS} cells B·T·D² per request (split the batch); got ${cells} for shape [${shape.join(', ')}]`);
    }
  }
  let tensor: SyndromeTensor;
  try {
    tensor = readSyndromeTensor(shape, input.data);
  } catch (error) {
    toModelInputError(error);
  }
  if (variant === 'accurate') {
    const work = matchingWork(tensor);
    if (work > MAX_MATCHING_WORK) {
      throw new ModelInputError(
        `expected a syndrome the exact matcher can finish: Σ (detection events per shot and type)³ ≤ ${MAX_MATCHING_WORK.toExponential(0)}; ` +
          `got ${work.toExponential(2)} (far above any code below threshold; split the batch or use ising-decoding-v1-fast)`,
      );
    }
  }
  return decodingOutput(decodeSyndromeTensor(tensor, variant));
}

function decodingPlot(input: ModelInput, output: Record<string, unknown>, options: PlotOptions): string {
  const [, , rounds, d] = input.shape as [number, number, number, number, number];
  const n = d * d;
  // Shot 0: detection events per cell summed over rounds and both types; the corrections drawn on top.
  const values = new Float64Array(n);
  for (const channel of [0, 1]) for (let t = 0; t < rounds; t++) for (let cell = 0; cell < n; cell++) values[cell]! += input.data[(channel * rounds + t) * n + cell]! > 0.5 ? 1 : 0;
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
    'Rotated surface-code memory decoder, union-find on the space-time detector graph (Delfosse & Nickerson, Quantum 5, 595 (2021), ' +
      'weighted growth, peeling by Delfosse & Zémor 2020); near-linear time, 1.5–2× faster than matching at d = 5, T = 5, p = 1 %. ' +
      'Measured here (docs/models/decoding.md): phenomenological threshold ≈ 2.6–2.8 % (crossings d = 7/9, 9/11), logical error ' +
      '1.0–1.8× that of matching below threshold. Edge weights ln((1 − p)/p) for p = q = 1 %.',
    '2026-11-25T00:00:00Z',
  ),
  entry(
    'accurate',
    'Ising decoding v1 accurate (minimum-weight perfect matching)',
    'Rotated surface-code memory decoder, exact minimum-weight perfect matching of the detection events on the space-time graph ' +
      '(Dennis et al. 2002; Edmonds blossom algorithm with Galil O(n³) duals) with log-likelihood weights ln((1 − p)/p), p = q = 1 %; ' +
      'phenomenological threshold measured here 2.85 % (crossing d = 9/11; Wang, Harrington & Preskill 2003: 2.9 %), see docs/models/decoding.md.',
    '2026-11-25T00:00:00Z',
  ),
];
