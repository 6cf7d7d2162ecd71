import { ArrayDecodeError, LIMIT_ERROR, NPY_ERROR } from './array-decode-error.js';
import { effectiveLimits, limitOwner, type DecodeLimits } from './decode-limits.js';
import { decodeElements, itemSize } from './element-decoding.js';
import { hexBytes } from './byte-text.js';
import { assertNonEmpty, elementCount, formatShape, type NdArray } from './nd-array.js';
import { NPY_MAGIC, parseNpyHeader } from './npy-header.js';
import { columnMajorStrides, gatherStrided } from './strided-gather.js';

function fail(message: string): never {
  throw new ArrayDecodeError(message, NPY_ERROR);
}

/** Reads the header text: v1 has a u16 length, v2/v3 a u32; v3 headers are UTF-8, older ones latin-1. */
function readHeaderText(bytes: Uint8Array): { text: string; dataStart: number } {
  const major = bytes[6];
  const minor = bytes[7];
  if (!((major === 1 || major === 2 || major === 3) && minor === 0)) {
    fail(`expected .npy format version 1.0, 2.0 or 3.0; got ${major}.${minor}`);
  }
  const lengthSize = major === 1 ? 2 : 4;
  const start = 8 + lengthSize;
  if (bytes.length < start) fail(`truncated .npy file: expected at least ${start} bytes; got ${bytes.length}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataStart = start + headerLength;
  if (dataStart > bytes.length) {
    fail(`truncated .npy file: header says ${headerLength} header bytes; only ${bytes.length - start} follow`);
  }
  const raw = bytes.subarray(start, dataStart);
  if (major < 3) return { text: latin1(raw), dataStart };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(raw), dataStart };
  } catch {
    return fail('expected a UTF-8 header in a version 3.0 .npy file; got invalid UTF-8');
  }
}

/** WHATWG's 'latin1' is windows-1252, which is Latin-1 wherever a byte is below 0x80 (every header NumPy writes). */
const ASCII_TEXT = new TextDecoder('latin1');

/** Latin-1 text, converted in chunks so a hostile multi-megabyte header stays within argument limits. */
function latin1(raw: Uint8Array): string {
  let ascii = true;
  for (let i = 0; i < raw.length && ascii; i++) ascii = raw[i]! < 0x80;
  if (ascii) return ASCII_TEXT.decode(raw);
  let text = '';
  for (let i = 0; i < raw.length; i += 8192) text += String.fromCharCode(...raw.subarray(i, i + 8192));
  return text;
}

/**
 * What the start of an upload already says (the gateway checks it while the rest is still arriving): `'not-npy'`
 * when it does not start like a .npy file (decodeArray judges it later), `'more'` while the header is incomplete,
 * `'ok'` when the header is complete and within `limits`; throws the ArrayDecodeError decodeNpy would (a bad
 * header, an empty shape, more elements than allowed) as soon as the header shows it.
 */
export function checkNpyPrefix(prefix: Uint8Array, limits?: DecodeLimits): 'not-npy' | 'more' | 'ok' {
  for (let i = 0; i < Math.min(prefix.length, NPY_MAGIC.length); i++) if (prefix[i] !== NPY_MAGIC[i]) return 'not-npy';
  if (prefix.length < 12) return 'more';
  const major = prefix[6];
  const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  const headerEnd = major === 1 ? 10 + view.getUint16(8, true) : 12 + view.getUint32(8, true);
  if ((major === 1 || major === 2 || major === 3) && prefix[7] === 0 && prefix.length < headerEnd) return 'more';
  const { text } = readHeaderText(prefix);
  const { shape } = parseNpyHeader(text);
  assertNonEmpty(shape);
  checkElementCount(shape, effectiveLimits(limits));
  return 'ok';
}

function checkElementCount(shape: number[], bounds: DecodeLimits): void {
  const count = elementCount(shape);
  if (count > bounds.maxElements) {
    throw new ArrayDecodeError(
      `expected at most ${bounds.maxElements} elements${limitOwner(bounds)}; the .npy header declares shape ${formatShape(shape)} (${count} elements)`,
      LIMIT_ERROR,
    );
  }
}

/**
 * Decodes a NumPy .npy file (format versions 1.0, 2.0, 3.0) into a C-order float64 array. The element count the
 * header declares is checked against `limits` before anything is allocated.
 */
export function decodeNpy(bytes: Uint8Array, limits?: DecodeLimits): NdArray {
  const bounds = effectiveLimits(limits);
  const magicLength = Math.min(bytes.length, NPY_MAGIC.length);
  for (let i = 0; i < magicLength; i++) {
    if (bytes[i] !== NPY_MAGIC[i]) {
      fail(`expected a .npy file (magic \\x93NUMPY); got bytes starting ${hexBytes(bytes.subarray(0, 4))}`);
    }
  }
  if (bytes.length < 10) fail(`truncated .npy file: expected at least 10 bytes; got ${bytes.length}`);

  const { text, dataStart } = readHeaderText(bytes);
  const header = parseNpyHeader(text);
  const { shape, dtype } = header;
  assertNonEmpty(shape);

  checkElementCount(shape, bounds);
  const count = elementCount(shape);
  const size = itemSize(dtype);
  const expected = count * size;
  const actual = bytes.length - dataStart;
  if (actual !== expected) {
    const what = actual < expected ? 'truncated .npy file: expected' : 'expected';
    fail(`${what} ${expected} bytes of '${dtype}' data for shape ${formatShape(shape)}; got ${actual}`);
  }

  const flat = decodeElements(bytes.subarray(dataStart), dtype, header.littleEndian);
  const data = header.fortranOrder && shape.length > 1 ? gatherStrided(flat, 0, shape, columnMajorStrides(shape)) : flat;
  return { shape, data, dtype };
}
