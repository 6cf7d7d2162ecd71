import { encodeNpy } from '#qdc/arrays';
import { LabFrame } from '#qdc/contracts';

/** A frame as the inference path takes it: `.npy`/`.pt` bytes (checked by the worker like an upload). */
export interface DecodedFrame {
  frameId: string;
  bytes: Uint8Array;
  fileName: string;
}

/** The frame is not something QDC can analyse (reported as an `error` event; nothing stored). */
export class FrameError extends Error {}

const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04]; // torch.save

const startsWith = (data: Uint8Array, magic: number[]) => data.length >= magic.length && magic.every((b, i) => data[i] === b);
const MAX_FRAME_VALUES = 1 << 22;

/** The numbers of a JSON `data` field: a trace (`[x, …]`) or a map (rows of equal length), as a C-order array. */
export function arrayFromJson(data: unknown): { shape: number[]; values: number[] } {
  const what = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v);
  if (!Array.isArray(data) || data.length === 0)
    throw new FrameError(
      `expected "data" to be a non-empty array of numbers (1-D trace) or of equal-length rows (2-D map); got ${what(data)}${Array.isArray(data) ? ' with no elements' : ''}`,
    );
  if (data.every((v) => typeof v === 'number')) {
    if (data.length > MAX_FRAME_VALUES) throw new FrameError(`expected at most ${MAX_FRAME_VALUES} values; got ${data.length}`);
    return { shape: [data.length], values: data as number[] };
  }
  if (!data.every((row) => Array.isArray(row))) {
    const bad = data.findIndex((v) => typeof v !== 'number' && !Array.isArray(v));
    throw new FrameError(`expected "data" to hold numbers or rows of numbers; element ${Math.max(bad, 0)} is ${what(data[Math.max(bad, 0)])}`);
  }
  const rows = data as unknown[][];
  const width = rows[0]!.length;
  if (width === 0) throw new FrameError('expected non-empty rows in "data"; row 0 is empty');
  if (rows.length * width > MAX_FRAME_VALUES) throw new FrameError(`expected at most ${MAX_FRAME_VALUES} values; got ${rows.length}×${width}`);
  const values: number[] = [];
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    if (row.length !== width) throw new FrameError(`expected rows of equal length ${width} in "data"; row ${r} has ${row.length}`);
    for (let c = 0; c < width; c++) {
      const v = row[c];
      if (typeof v !== 'number') throw new FrameError(`expected numbers in "data"; data[${r}][${c}] is ${what(v)}`);
      values.push(v);
    }
  }
  return { shape: [rows.length, width], values };
}

/**
 * Reads one frame message. Binary `.npy` or `.pt` bytes pass through (the worker decodes and checks them exactly as
 * an upload of `POST /models`); a JSON LabFrame's `data` becomes a float64 `.npy`. JSON nulls (NaN written by
 * Python's json as `NaN` is not JSON) are refused here; NaN/Inf inside `.npy` is refused by the model, as for uploads.
 * The frame id is the `Nats-Msg-Id` header (JetStream's dedup key), else the JSON `frame_id`, else `seq-<n>`.
 */
export function decodeFrame(data: Uint8Array, headerFrameId: string | undefined, seq: number, streamName: string): DecodedFrame {
  const fallbackId = headerFrameId || `seq-${seq}`;
  if (startsWith(data, NPY_MAGIC) || startsWith(data, ZIP_MAGIC)) {
    return { frameId: fallbackId, bytes: data, fileName: `${streamName}-${fallbackId}.${startsWith(data, NPY_MAGIC) ? 'npy' : 'pt'}` };
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data));
  } catch {
    throw new FrameError(
      `expected a frame as .npy bytes, .pt bytes or a JSON object {"data": [...], "axes": [...]}; got ${data.length} bytes that are none of these`,
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new FrameError(
      `expected a JSON object {"frame_id", "data", "axes"}; got ${Array.isArray(json) ? 'a bare array (wrap it: {"data": [...]})' : json === null ? 'null' : typeof json}`,
    );
  }
  const parsed = LabFrame.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new FrameError(`invalid frame: ${issue.path.join('.') || 'frame'}: ${issue.message}`);
  }
  const frameId = headerFrameId || parsed.data.frame_id || fallbackId;
  const { shape, values } = arrayFromJson(parsed.data.data);
  return { frameId, bytes: encodeNpy({ shape, data: values }), fileName: `${streamName}-${frameId}.npy` };
}
