/** Largest element count a header may declare (NumPy/torch indices beyond this are not realistic input). */
export const MAX_ELEMENTS = 2 ** 31;

/** Largest float64 result we allocate: 512 MiB. Bounds stride-0 (expanded) torch views that are tiny on disk. */
export const MAX_DECODED_ELEMENTS = (512 * 1024 * 1024) / 8;

/** Zip-bomb guard: total uncompressed bytes we are willing to extract from a .pt archive. */
export const MAX_ZIP_UNCOMPRESSED_BYTES = 512 * 1024 * 1024;
