import { Inflate } from 'fflate';
import { ArrayDecodeError, LIMIT_ERROR, TORCH_ERROR } from './array-decode-error.js';

/**
 * A reader for the zip archives torch.save writes: central directory (zip64 aware), STORED
 * entries returned as views without copying, DEFLATE entries inflated with fflate.
 */
export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD_SIGNATURE = 0x06054b50;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

function fail(reason: string): never {
  throw new ArrayDecodeError(`expected a PyTorch .pt zip archive; ${reason}`, TORCH_ERROR);
}

/** Bounds-checked little-endian reads: every offset comes from untrusted input. */
class ByteReader {
  private readonly view: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private check(offset: number, size: number, what: string): void {
    if (offset < 0 || offset + size > this.bytes.length) fail(`got a truncated or corrupt zip (${what} lies outside the file)`);
  }

  u16(offset: number, what: string): number {
    this.check(offset, 2, what);
    return this.view.getUint16(offset, true);
  }

  u32(offset: number, what: string): number {
    this.check(offset, 4, what);
    return this.view.getUint32(offset, true);
  }

  u64(offset: number, what: string): number {
    const low = this.u32(offset, what);
    const high = this.u32(offset + 4, what);
    // Beyond 2^53 nothing can lie inside a buffer anyway.
    if (high >= 0x200000) fail(`got a corrupt zip (${what} is out of range)`);
    return high * 4294967296 + low;
  }

  slice(offset: number, size: number, what: string): Uint8Array {
    this.check(offset, size, what);
    return this.bytes.subarray(offset, offset + size);
  }
}

function findEndOfCentralDirectory(reader: ByteReader): number {
  const bytes = reader.bytes;
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - MAX_COMMENT);
  for (let pos = bytes.length - EOCD_SIZE; pos >= lowest; pos--) {
    if (bytes[pos] === 0x50 && bytes[pos + 1] === 0x4b && reader.u32(pos, 'end record') === EOCD_SIGNATURE) return pos;
  }
  return fail('got no zip end-of-central-directory record (not a zip, or truncated)');
}

/** Lists the entries of a zip archive from its central directory. */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const reader = new ByteReader(bytes);
  const eocd = findEndOfCentralDirectory(reader);
  let count = reader.u16(eocd + 10, 'end record');
  let directorySize = reader.u32(eocd + 12, 'end record');
  let directoryOffset = reader.u32(eocd + 16, 'end record');

  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const locator = eocd - 20;
    if (reader.u32(locator, 'zip64 locator') !== ZIP64_LOCATOR_SIGNATURE) fail('got a zip64 archive without its zip64 locator');
    const record = reader.u64(locator + 8, 'zip64 locator');
    if (reader.u32(record, 'zip64 end record') !== ZIP64_EOCD_SIGNATURE) fail('got a corrupt zip64 end record');
    count = reader.u64(record + 32, 'zip64 end record');
    directorySize = reader.u64(record + 40, 'zip64 end record');
    directoryOffset = reader.u64(record + 48, 'zip64 end record');
  }

  const end = directoryOffset + directorySize;
  if (end > bytes.length) fail('got a truncated or corrupt zip (central directory lies outside the file)');
  const entries: ZipEntry[] = [];
  const names = new TextDecoder();
  let pos = directoryOffset;
  for (let i = 0; i < count; i++) {
    // Each record is at least 46 bytes, so `count` cannot make us loop past the directory.
    if (pos + 46 > end) fail('got a truncated or corrupt zip (central directory shorter than its entry count)');
    if (reader.u32(pos, 'central directory') !== CENTRAL_SIGNATURE) fail('got a corrupt zip central directory');
    const nameLength = reader.u16(pos + 28, 'central directory');
    const extraLength = reader.u16(pos + 30, 'central directory');
    const commentLength = reader.u16(pos + 32, 'central directory');
    const entry: ZipEntry = {
      name: names.decode(reader.slice(pos + 46, nameLength, 'entry name')),
      flags: reader.u16(pos + 8, 'central directory'),
      method: reader.u16(pos + 10, 'central directory'),
      compressedSize: reader.u32(pos + 20, 'central directory'),
      uncompressedSize: reader.u32(pos + 24, 'central directory'),
      localHeaderOffset: reader.u32(pos + 42, 'central directory'),
    };
    applyZip64Extra(reader, entry, pos + 46 + nameLength, extraLength);
    entries.push(entry);
    pos += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Zip64 stores the real sizes/offset in extra field 0x0001, in this order, only for fields saturated at 0xffffffff. */
function applyZip64Extra(reader: ByteReader, entry: ZipEntry, start: number, length: number): void {
  const end = start + length;
  for (let pos = start; pos + 4 <= end; ) {
    const id = reader.u16(pos, 'extra field');
    const size = reader.u16(pos + 2, 'extra field');
    if (id === 0x0001) {
      let field = pos + 4;
      const next = (): number => {
        if (field + 8 > pos + 4 + size) fail('got a corrupt zip64 extra field');
        const value = reader.u64(field, 'zip64 extra field');
        field += 8;
        return value;
      };
      if (entry.uncompressedSize === 0xffffffff) entry.uncompressedSize = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.localHeaderOffset === 0xffffffff) entry.localHeaderOffset = next();
      return;
    }
    pos += 4 + size;
  }
}

/** The bytes a decode may still inflate, shared by every entry it extracts, and whose limit that is. */
export interface InflateBudget {
  remaining: number;
  readonly limit: number;
  readonly owner: string;
}

/** Compressed bytes handed to the inflater at a time: deflate expands at most ~1032×, so one step adds ≤ 16 MiB. */
const INFLATE_STEP_BYTES = 16 * 1024;

/**
 * Reads one entry's content. STORED data is a view into `bytes`. The size the central directory declares is
 * checked against `maxBytes` and the shared `budget` before anything is inflated; DEFLATE data is then inflated
 * step by step with a running count that stops as soon as it passes the declared size (a directory that lies
 * cannot make it grow further).
 */
export function readZipEntry(bytes: Uint8Array, entry: ZipEntry, budget: InflateBudget, maxBytes = Number.POSITIVE_INFINITY): Uint8Array {
  const reader = new ByteReader(bytes);
  if (entry.flags & 0x1) fail(`got an encrypted zip entry '${entry.name}'`);
  if (entry.uncompressedSize > maxBytes) {
    throw new ArrayDecodeError(
      `expected '${entry.name}' in the .pt archive to hold at most ${maxBytes} bytes; its central directory declares ${entry.uncompressedSize} bytes`,
      LIMIT_ERROR,
    );
  }
  if (entry.uncompressedSize > budget.remaining) {
    throw new ArrayDecodeError(
      `expected the .pt archive to expand to at most ${budget.limit} bytes${budget.owner} (zip bomb guard); its central directory declares ${entry.uncompressedSize} bytes for '${entry.name}'`,
      LIMIT_ERROR,
    );
  }
  const offset = entry.localHeaderOffset;
  if (reader.u32(offset, 'local header') !== LOCAL_SIGNATURE) fail(`got a corrupt local header for '${entry.name}'`);
  // The local extra field may differ from the central one (torch pads it to align data to 64 bytes).
  const dataStart = offset + 30 + reader.u16(offset + 26, 'local header') + reader.u16(offset + 28, 'local header');
  const compressed = reader.slice(dataStart, entry.compressedSize, `data of '${entry.name}'`);
  budget.remaining -= entry.uncompressedSize;

  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) fail(`got inconsistent sizes for stored entry '${entry.name}'`);
    return compressed;
  }
  if (entry.method !== 8) fail(`got zip compression method ${entry.method} for '${entry.name}' (only stored and deflate are supported)`);
  return inflateCapped(compressed, entry);
}

/** Inflates `compressed` in steps, stopping once the output passes the entry's declared size. */
function inflateCapped(compressed: Uint8Array, entry: ZipEntry): Uint8Array {
  const declared = entry.uncompressedSize;
  const out = new Uint8Array(declared);
  let written = 0;
  let overflow = false;
  const inflater = new Inflate((chunk) => {
    if (overflow || written + chunk.length > declared) {
      overflow = true;
      return;
    }
    out.set(chunk, written);
    written += chunk.length;
  });
  try {
    for (let at = 0; at < compressed.length && !overflow; at += INFLATE_STEP_BYTES) {
      const end = Math.min(compressed.length, at + INFLATE_STEP_BYTES);
      inflater.push(compressed.subarray(at, end), end === compressed.length);
    }
    if (compressed.length === 0) inflater.push(compressed, true);
  } catch (error) {
    return fail(`got corrupt deflate data in '${entry.name}' (${(error as Error).message})`);
  }
  if (overflow) {
    throw new ArrayDecodeError(
      `expected '${entry.name}' to inflate to the ${declared} bytes its central directory declares; it inflates to more (inflation stopped)`,
      LIMIT_ERROR,
    );
  }
  if (written !== declared) fail(`got '${entry.name}' inflating to ${written} bytes, not the ${declared} declared`);
  return out;
}
