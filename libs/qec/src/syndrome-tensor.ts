// Reading and decoding the SPEC.md §6 tensor (B, 4, T, D, D): channels 0/1 = X/Z detection events, 2/3 = X/Z
// stabilizer masks. Values > 0.5 count as 1 (float32 or uint8 input). Events on cells where no stabilizer of that
// type is stored carry no information and are ignored.
import { DEFAULT_DECODING_WEIGHTS, type DecodingWeights } from './decoding-graph.js';
import { matchingDecoder, type MatchingDecoder } from './matching.decoder.js';
import { isValidDistance, rotatedSurfaceCode, type RotatedSurfaceCode } from './rotated-surface-code.js';
import type { SyndromeDecoder } from './syndrome-decoder.js';
import { unionFindDecoder } from './union-find.decoder.js';

export type DecoderVariant = 'fast' | 'accurate';

/** A tensor the caller can fix: the message says what was expected and what came. */
export class SyndromeTensorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SyndromeTensorError';
  }
}

/** Largest distance the decoders accept (the spatial path table grows as D⁴). */
export const MAX_DECODING_DISTANCE = 25;

export interface SyndromeTensor {
  batch: number;
  rounds: number;
  distance: number;
  code: RotatedSurfaceCode;
  /** events[type][(b * T + t) * m_type + k]. */
  events: [Uint8Array, Uint8Array];
}

const EXPECTED = 'a (B, 4, T, D, D) syndrome tensor (channels: X events, Z events, X mask, Z mask; D odd ≥ 3)';

/** Validates shape and masks (all-zero masks mean the standard layout) and extracts the detection events. */
export function readSyndromeTensor(shape: readonly number[], data: ArrayLike<number>): SyndromeTensor {
  const got = `got shape [${shape.join(', ')}]`;
  if (shape.length !== 5 || shape[1] !== 4) throw new SyndromeTensorError(`expected ${EXPECTED}; ${got}`);
  const [batch, , rounds, rows, cols] = shape as [number, number, number, number, number];
  if (rows !== cols) throw new SyndromeTensorError(`expected a square D × D grid in the last two axes of ${EXPECTED}; ${got}`);
  if (!isValidDistance(rows)) throw new SyndromeTensorError(`expected an odd distance D ≥ 3 in ${EXPECTED}; ${got}`);
  if (rows > MAX_DECODING_DISTANCE) throw new SyndromeTensorError(`expected a distance D ≤ ${MAX_DECODING_DISTANCE}; ${got}`);
  if (batch < 1 || rounds < 1) throw new SyndromeTensorError(`expected B ≥ 1 and T ≥ 1 in ${EXPECTED}; ${got}`);
  const d = rows;
  const n = d * d;
  const code = rotatedSurfaceCode(d);
  const events: [Uint8Array, Uint8Array] = [
    new Uint8Array(batch * rounds * code.stabilizers[0].length),
    new Uint8Array(batch * rounds * code.stabilizers[1].length),
  ];
  for (let b = 0; b < batch; b++) {
    for (const type of [0, 1] as const) {
      const cells = code.cellStabilizer[type];
      const maskBase = (b * 4 + 2 + type) * rounds * n;
      let any = false;
      for (let i = 0; i < rounds * n && !any; i++) any = data[maskBase + i]! > 0.5;
      if (any) {
        for (let t = 0; t < rounds; t++) {
          for (let cell = 0; cell < n; cell++) {
            const value = data[maskBase + t * n + cell]! > 0.5 ? 1 : 0;
            if (value !== (cells[cell]! >= 0 ? 1 : 0)) {
              const name = type === 0 ? 'X' : 'Z';
              throw new SyndromeTensorError(
                `expected the ${name}-stabilizer mask (channel ${2 + type}) of a distance-${d} rotated surface code (SPEC layout) or all zeros; ` +
                  `got ${value} at batch ${b}, round ${t}, cell (${Math.floor(cell / d)}, ${cell % d}) where the layout has ${1 - value}`,
              );
            }
          }
        }
      }
      const m = code.stabilizers[type].length;
      const eventBase = (b * 4 + type) * rounds * n;
      const out = events[type];
      for (let t = 0; t < rounds; t++) {
        code.stabilizers[type].forEach((s, k) => {
          out[(b * rounds + t) * m + k] = data[eventBase + t * n + s.cell]! > 0.5 ? 1 : 0;
        });
      }
    }
  }
  return { batch, rounds, distance: d, code, events };
}

export interface BatchDecoding {
  variant: DecoderVariant;
  batch: number;
  distance: number;
  rounds: number;
  /** (B, 2, D, D) net corrections, channel 0 = Z (from X events), 1 = X (from Z events). */
  corrections: Uint8Array;
  /** (B, 2) predicted flips of the X and Z observables. */
  logicalFlips: Uint8Array;
  /** Magnitude of the hard-decision logits: ln((1 − p)/p) of the data error rate the weights assume. */
  logitMagnitude: number;
  /** Shots (batch indices) the accurate decoder could not match exactly (a component above MAX_EXACT_COMPONENT); [] for fast. */
  inexactShots: number[];
}

export function createDecoder(variant: DecoderVariant, code: RotatedSurfaceCode, weights: DecodingWeights = DEFAULT_DECODING_WEIGHTS): SyndromeDecoder {
  return variant === 'fast' ? unionFindDecoder(code, weights) : matchingDecoder(code, weights);
}

/** Decodes every shot of a validated tensor with one variant. */
export function decodeSyndromeTensor(tensor: SyndromeTensor, variant: DecoderVariant, weights: DecodingWeights = DEFAULT_DECODING_WEIGHTS): BatchDecoding {
  const { batch, rounds, code } = tensor;
  const n = code.dataQubits;
  const decoder = createDecoder(variant, code, weights);
  const corrections = new Uint8Array(batch * 2 * n);
  const logicalFlips = new Uint8Array(batch * 2);
  const inexactShots: number[] = [];
  const inexact = (): number => ('inexact' in decoder ? (decoder as MatchingDecoder).inexact : 0);
  for (let b = 0; b < batch; b++) {
    const before = inexact();
    for (const type of [0, 1] as const) {
      const size = rounds * code.stabilizers[type].length;
      logicalFlips[b * 2 + type] = decoder.decode(
        type,
        tensor.events[type].subarray(b * size, (b + 1) * size),
        corrections.subarray((b * 2 + type) * n, (b * 2 + type + 1) * n),
      );
    }
    if (inexact() > before) inexactShots.push(b);
  }
  return { variant, batch, distance: tensor.distance, rounds, corrections, logicalFlips, logitMagnitude: Math.log((1 - weights.p) / weights.p), inexactShots };
}
