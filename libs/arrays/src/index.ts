export { ArrayDecodeError } from './array-decode-error.js';
export { decodeArray } from './decode-array.js';
export { DEFAULT_DECODE_LIMITS, MAX_ZIP_UNCOMPRESSED_BYTES, type DecodeLimits } from './decode-limits.js';
export { DTYPES, elementCount, findNonFinite, type DType, type NdArray } from './nd-array.js';
export { checkNpyPrefix, decodeNpy } from './npy.decode.js';
export { encodeNpy, type EncodeNpyOptions } from './npy.encode.js';
export { decodeTorch } from './torch.decode.js';
