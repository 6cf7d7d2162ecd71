/** Largest element count a header may declare (NumPy/torch indices beyond this are not realistic input). */
export const MAX_ELEMENTS = 2 ** 31;

/** Largest float64 result we allocate: 512 MiB. Bounds stride-0 (expanded) torch views that are tiny on disk. */
export const MAX_DECODED_ELEMENTS = (512 * 1024 * 1024) / 8;

/** Zip-bomb guard: total uncompressed bytes we are willing to extract from a .pt archive. */
export const MAX_ZIP_UNCOMPRESSED_BYTES = 512 * 1024 * 1024;

/** A torch.save pickle of one tensor is a few hundred bytes; anything near this is not one tensor. */
export const MAX_PICKLE_BYTES = 1024 * 1024;

/**
 * What one decode may allocate, set per model by the caller (libs/characterization `inputDecodeLimits`):
 * the element count of the decoded array and the bytes a .pt archive may inflate to. Both are checked against
 * what the file declares before anything is allocated or inflated; inflation also stops at the byte cap.
 */
export interface DecodeLimits {
  maxElements: number;
  maxInflatedBytes: number;
  /** Whose limit it is, for the message (e.g. "model coulomb-blockade-peak-detector-v2"). */
  owner?: string;
}

/** The ceiling without a model: what any decode may allocate. */
export const DEFAULT_DECODE_LIMITS: DecodeLimits = { maxElements: MAX_DECODED_ELEMENTS, maxInflatedBytes: MAX_ZIP_UNCOMPRESSED_BYTES };

/** The caller's limits, never above the library's own ceilings. */
export function effectiveLimits(limits: DecodeLimits = DEFAULT_DECODE_LIMITS): DecodeLimits {
  return {
    maxElements: Math.min(limits.maxElements, MAX_DECODED_ELEMENTS),
    maxInflatedBytes: Math.min(limits.maxInflatedBytes, MAX_ZIP_UNCOMPRESSED_BYTES),
    owner: limits.owner,
  };
}

export const limitOwner = (limits: DecodeLimits): string => (limits.owner ? ` for ${limits.owner}` : '');
