import { ArrayDecodeError, FORMAT_ERROR, TORCH_ERROR } from './array-decode-error.js';
import { hexBytes } from './byte-text.js';
import type { DecodeLimits } from './decode-limits.js';
import type { NdArray } from './nd-array.js';
import { decodeNpy } from './npy.decode.js';
import { NPY_MAGIC } from './npy-header.js';
import { decodeTorch } from './torch.decode.js';

const EXPECTED = 'expected a .npy file (magic \\x93NUMPY) or a PyTorch .pt zip archive';

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((b, i) => bytes[i] === b);
}

/** Printable ASCII (plus whitespace) in the first bytes: somebody uploaded CSV/JSON/text. */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 64);
  return head.every((b) => (b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d);
}

/**
 * Decodes an uploaded array file, recognising the format from its content (never its name):
 * `\x93NUMPY` → .npy, a zip local header `PK\x03\x04` → torch.save archive. `limits` (per model) bound the
 * decoded element count and the bytes an archive may inflate to; without them, the library's ceilings apply.
 */
export function decodeArray(bytes: Uint8Array, limits?: DecodeLimits): NdArray {
  if (bytes.length === 0) throw new ArrayDecodeError(`${EXPECTED}; got an empty file`, FORMAT_ERROR);
  // A truncated magic still reads as .npy, so the error says "truncated .npy" rather than "unknown format".
  if (startsWith(bytes, NPY_MAGIC.slice(0, Math.min(bytes.length, NPY_MAGIC.length)))) return decodeNpy(bytes, limits);
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return decodeTorch(bytes, limits);
  if (bytes[0] === 0x80 && bytes.length > 1 && bytes[1] <= 5) {
    throw new ArrayDecodeError(
      `${EXPECTED}; got a bare Python pickle (the legacy torch.save format of PyTorch < 1.6, or pickle.dump), which is not accepted`,
      TORCH_ERROR,
    );
  }
  const hint = looksLikeText(bytes) ? ' (text such as CSV or JSON is not accepted)' : '';
  throw new ArrayDecodeError(`${EXPECTED}; got bytes starting ${hexBytes(bytes.subarray(0, 4))}${hint}`, FORMAT_ERROR);
}
