import { encodeNpy, isNpy, type NpyEncodable } from './npy.encode.js';

/**
 * The `data` of a model run: an array (a typed array with `{data, shape}`, a bare typed array as 1-D, `number[]`,
 * `number[][]`, … — sent as `.npy`), or a file's bytes as they are (`.npy` or `.pt`: a `Uint8Array`, an
 * `ArrayBuffer` or a `Blob`/`File`; the server reads the format from the content).
 */
export type ModelInput = NpyEncodable | ArrayBuffer | Blob;

/** The `.pt` (torch.save zip) files start with a zip local header. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function defaultName(bytes: Uint8Array): string {
  if (isNpy(bytes)) return 'data.npy';
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) return 'data.pt';
  return 'data.bin';
}

/** The Blob copies exactly the view's bytes (not the whole buffer behind it). */
function blobOf(bytes: Uint8Array): Blob {
  return new Blob([bytes as Uint8Array<ArrayBuffer>]);
}

/** The file part of the multipart body, and the name sent with it (`input_file_name` of the result). */
export function toUploadFile(data: ModelInput, fileName?: string): { blob: Blob; fileName: string } {
  if (typeof Blob !== 'undefined' && data instanceof Blob) {
    const named = (data as Blob & { name?: unknown }).name;
    return { blob: data, fileName: fileName ?? (typeof named === 'string' && named ? named : 'data') };
  }
  if (data instanceof ArrayBuffer) {
    const bytes = new Uint8Array(data);
    return { blob: blobOf(bytes), fileName: fileName ?? defaultName(bytes) };
  }
  // A bare Uint8Array is a file's bytes; a uint8 array to encode is `{ data: Uint8Array, shape }`.
  if (data instanceof Uint8Array) return { blob: blobOf(data), fileName: fileName ?? defaultName(data) };
  return { blob: blobOf(encodeNpy(data as NpyEncodable)), fileName: fileName ?? 'data.npy' };
}
