// How large an input each model takes (elements), and what decoding an upload for it may allocate. The worker
// passes inputDecodeLimits(...) to libs/arrays, which checks what a file declares before it allocates or inflates.
import { modelEntry } from './model-catalogue.js';
import type { ModelEntry } from './model-entry.js';

/** A single trace: 2^20 samples (FastDAC sweeps are 10^4; a megasample trace is already far beyond any sweep). */
export const MAX_TRACE_ELEMENTS = 1 << 20;
/** A batch (N, L) of traces: 2^24 samples (the (10000, 128) batches of bench:perf are 1.3 M). */
export const MAX_BATCH_ELEMENTS = 1 << 24;
/** An N-D map: 2^22 elements (a 2048 × 2048 diagram; the nominal maps are 128 × 128). */
export const MAX_ARRAY_ELEMENTS = 1 << 22;
/**
 * Decoding never refuses below this many elements, so a slightly wrong shape still gets the model's own message
 * ("expected (16, 16) …; got shape [128, 128]") rather than a size limit.
 */
export const MIN_DECODE_ELEMENTS = 1 << 16;
/** An archive may inflate to at most this multiple of the upload limit. */
export const INFLATE_UPLOAD_MULTIPLE = 4;
/** Bytes of storage per element allowed (8-byte dtypes, and a view may use half of its storage). */
const STORAGE_BYTES_PER_ELEMENT = 16;
/** Room for the pickle and the byteorder record of a .pt archive. */
const ARCHIVE_OVERHEAD_BYTES = 1024 * 1024;

export function maxInputElements(entry: ModelEntry): number {
  if (entry.maxElements !== undefined) return entry.maxElements;
  if (entry.kind === 'array') return MAX_ARRAY_ELEMENTS;
  if (entry.spec.batch) return MAX_BATCH_ELEMENTS;
  return entry.lengths.anyLength ? MAX_TRACE_ELEMENTS : entry.lengths.nominal;
}

/** What decoding an upload for model `id` may allocate (structurally a libs/arrays DecodeLimits). */
export interface InputDecodeLimits {
  maxElements: number;
  maxInflatedBytes: number;
  owner: string;
}

/**
 * Decode limits for model `id`: its maximum input (at least MIN_DECODE_ELEMENTS), and an inflated size of at most a
 * small multiple of the upload limit and of the storage that maximum input needs.
 */
export function inputDecodeLimits(id: string, uploadLimitBytes: number): InputDecodeLimits {
  const maxElements = Math.max(maxInputElements(modelEntry(id)), MIN_DECODE_ELEMENTS);
  const maxInflatedBytes = Math.min(INFLATE_UPLOAD_MULTIPLE * uploadLimitBytes, STORAGE_BYTES_PER_ELEMENT * maxElements + ARCHIVE_OVERHEAD_BYTES);
  return { maxElements, maxInflatedBytes, owner: `model ${id}` };
}
