import { Deflate } from 'fflate';
import { PickleWriter } from './zip-builder.js';

/** One zip entry as written: its (possibly deflated) data and the sizes the archive declares for it. */
export interface RawZipEntry {
  name: string;
  data: Uint8Array;
  method: 0 | 8;
  /** Uncompressed size written in the local header and central directory (a bomb may lie). */
  declaredSize: number;
}

/** Non-final DEFLATE blocks of `size` zeros, ending on a byte boundary (so such pieces can be concatenated). */
function zeroBlocks(size: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const deflate = new Deflate({ level: 9 }, (chunk) => parts.push(chunk));
  deflate.push(new Uint8Array(size));
  deflate.flush(true);
  return concat(parts);
}

/** A final, empty stored block: ends a DEFLATE stream. */
const FINAL_EMPTY_BLOCK = Uint8Array.from([0x01, 0x00, 0x00, 0xff, 0xff]);

/** DEFLATE of `size` zero bytes (about 1 KB per MiB), built from one compressed MiB repeated. */
export function deflatedZeros(size: number): Uint8Array {
  const mib = 1 << 20;
  const whole = zeroBlocks(mib);
  const pieces: Uint8Array[] = new Array(Math.floor(size / mib)).fill(whole);
  if (size % mib) pieces.push(zeroBlocks(size % mib));
  return concat([...pieces, FINAL_EMPTY_BLOCK]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A zip archive of raw entries (CRCs are not written; the decoder under test does not read them). */
export function buildRawZip(entries: RawZipEntry[]): Uint8Array {
  const encoder = new TextEncoder();
  const local: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const header = new DataView(new ArrayBuffer(30));
    header.setUint32(0, 0x04034b50, true);
    header.setUint16(4, 20, true);
    header.setUint16(8, entry.method, true);
    header.setUint32(18, entry.data.length, true);
    header.setUint32(22, entry.declaredSize, true);
    header.setUint16(26, name.length, true);
    local.push(new Uint8Array(header.buffer), name, entry.data);
    const record = new DataView(new ArrayBuffer(46));
    record.setUint32(0, 0x02014b50, true);
    record.setUint16(6, 20, true);
    record.setUint16(10, entry.method, true);
    record.setUint32(20, entry.data.length, true);
    record.setUint32(24, entry.declaredSize, true);
    record.setUint16(28, name.length, true);
    record.setUint32(42, offset, true);
    central.push(new Uint8Array(record.buffer), name);
    offset += 30 + name.length + entry.data.length;
  }
  const directorySize = central.reduce((n, c) => n + c.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, directorySize, true);
  end.setUint32(16, offset, true);
  return concat([...local, ...central, new Uint8Array(end.buffer)]);
}

/**
 * A torch.save-style archive whose float32 tensor of `elements` zeros is stored deflated: a few hundred KB that
 * inflate to 4 × `elements` bytes. A lying bomb: `inflatedBytes` zeros behind a record and directory that declare
 * 4 × `elements` (or `declaredSize` in the directory).
 */
export function torchZipBomb(elements: number, options: { declaredSize?: number; shape?: number[]; inflatedBytes?: number } = {}): Uint8Array {
  const shape = options.shape ?? [elements];
  const strides = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const pickle = new PickleWriter().tensor('FloatStorage', '0', elements, 0, shape, strides).build();
  const storage = deflatedZeros(options.inflatedBytes ?? elements * 4);
  return buildRawZip([
    { name: 'archive/data.pkl', data: pickle, method: 0, declaredSize: pickle.length },
    { name: 'archive/byteorder', data: new TextEncoder().encode('little'), method: 0, declaredSize: 6 },
    { name: 'archive/data/0', data: storage, method: 8, declaredSize: options.declaredSize ?? elements * 4 },
  ]);
}

/** An np.savez-style archive (.npz: a zip of .npy files) whose one .npy inflates to `bytes` bytes. */
export function npzZipBomb(bytes: number): Uint8Array {
  return buildRawZip([{ name: 'data.npy', data: deflatedZeros(bytes), method: 8, declaredSize: bytes }]);
}
