// Writes a PNG of one TUNING map (SEED; 4× scale; OUT, default /tmp/diag/<seed>.png, directory must exist): grey map
// (CLEAN=1: noise-free), truth (green; interdot blue), detections (red; NOLINES=1: none). TUNE_VERSION, TUNE_OPTIONS as in tune-transition-lines.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { generateChargeStabilityDiagram } from '../libs/device-physics/src/charge-stability/index.js';
import { transitionLineSegments, TRANSITION_DETECTOR_VERSIONS } from '#qdc/characterization';

const seed = Number(process.env.SEED);
const versionName = process.env.TUNE_VERSION ?? 'v3';
const overrides = process.env.TUNE_OPTIONS ? JSON.parse(process.env.TUNE_OPTIONS) : {};
const version = TRANSITION_DETECTOR_VERSIONS.find((v) => v.id.endsWith(versionName))!;
const d = generateChargeStabilityDiagram(seed, { rows: 128, cols: 128, kind: 'double' });
const segs = transitionLineSegments({ ...version, options: { ...version.options, ...overrides } }, d.data, 128, 128);

const src = process.env.CLEAN === '1' ? d.clean : d.data;

const S = 4;
const W = 128 * S;
const img = new Uint8Array(W * W * 3);
const sorted = Float64Array.from(src).sort();
const lo = sorted[Math.floor(0.01 * sorted.length)]!;
const hi = sorted[Math.floor(0.99 * sorted.length)]!;
for (let y = 0; y < W; y++)
  for (let x = 0; x < W; x++) {
    const v = Math.max(0, Math.min(255, (255 * (src[Math.floor(y / S) * 128 + Math.floor(x / S)]! - lo)) / (hi - lo || 1)));
    img.set([v * 0.7, v * 0.7, v * 0.7], (y * W + x) * 3);
  }
const line = (x1: number, y1: number, x2: number, y2: number, c: number[]): void => {
  const n = Math.ceil(Math.hypot(x2 - x1, y2 - y1) * S * 2) + 1;
  for (let k = 0; k <= n; k++) {
    const x = Math.round((x1 + ((x2 - x1) * k) / n + 0.5) * S);
    const y = Math.round((y1 + ((y2 - y1) * k) / n + 0.5) * S);
    if (x >= 0 && y >= 0 && x < W && y < W) img.set(c, (y * W + x) * 3);
  }
};
if (!process.env.NOLINES) for (const t of d.segments) line(t.x1, t.y1, t.x2, t.y2, t.kind === 'interdot' ? [60, 60, 255] : [0, 255, 0]);
if (!process.env.NOLINES) for (const s of segs) line(s[0], s[1], s[2], s[3], [255, 0, 0]);
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (b: Buffer): number => {
  let c = 0xffffffff;
  for (const v of b) c = crcTable[(c ^ v) & 255]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer): Buffer => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const c = Buffer.alloc(4);
  c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};
const raw = Buffer.alloc(W * (W * 3 + 1));
for (let y = 0; y < W; y++) Buffer.from(img.buffer, y * W * 3, W * 3).copy(raw, y * (W * 3 + 1) + 1);
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(W, 0);
ihdr.writeUInt32BE(W, 4);
ihdr[8] = 8;
ihdr[9] = 2;
writeFileSync(
  process.env.OUT ?? `/tmp/diag/${seed}.png`,
  Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]),
);
console.log(d.readout, d.snr.toFixed(1), JSON.stringify(d.nuisance), segs.length);
