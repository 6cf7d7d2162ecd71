// PNG decoder (W3C PNG Specification, 2nd ed., ISO/IEC 15948:2003): chunk parsing, zlib inflate (fflate),
// scanline filters 0–4 (§9), Adam7 interlace (§8.2), colour types 0/2/3/4/6 at bit depths 1–16; alpha is
// composited over white, as the plot was meant to be seen.
import { unzlibSync } from 'fflate';
import { ImageDecodeError, MAX_IMAGE_PIXELS, type RasterImage } from './raster-image.js';

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

export const isPng = (bytes: Uint8Array): boolean => SIGNATURE.every((b, i) => bytes[i] === b);

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Undoes the scanline filters of one (sub-)image in place; returns the raw rows. */
function unfilter(data: Uint8Array, offset: number, width: number, height: number, bpp: number, bitsPerPixel: number): { rows: Uint8Array[]; next: number } {
  const stride = Math.ceil((width * bitsPerPixel) / 8);
  const rows: Uint8Array[] = [];
  let prev = new Uint8Array(stride);
  let pos = offset;
  for (let y = 0; y < height; y++) {
    if (pos + 1 + stride > data.length) throw new ImageDecodeError('PNG image data is truncated');
    const filter = data[pos]!;
    const row = data.slice(pos + 1, pos + 1 + stride);
    pos += 1 + stride;
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? row[i - bpp]! : 0;
      const b = prev[i]!;
      const c = i >= bpp ? prev[i - bpp]! : 0;
      switch (filter) {
        case 0:
          break;
        case 1:
          row[i] = (row[i]! + a) & 255;
          break;
        case 2:
          row[i] = (row[i]! + b) & 255;
          break;
        case 3:
          row[i] = (row[i]! + ((a + b) >> 1)) & 255;
          break;
        case 4:
          row[i] = (row[i]! + paeth(a, b, c)) & 255;
          break;
        default:
          throw new ImageDecodeError(`PNG scanline filter ${filter} is not one of 0–4`);
      }
    }
    rows.push(row);
    prev = row;
  }
  return { rows, next: pos };
}

export function decodePng(bytes: Uint8Array): RasterImage {
  if (!isPng(bytes)) throw new ImageDecodeError('not a PNG (signature missing)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 8;
  let width = 0;
  let height = 0;
  let depth = 0;
  let colorType = 0;
  let interlace = 0;
  let palette: Uint8Array | undefined;
  let transparency: Uint8Array | undefined;
  const idat: Uint8Array[] = [];
  while (pos + 8 <= bytes.length) {
    const length = view.getUint32(pos);
    const type = String.fromCharCode(...bytes.subarray(pos + 4, pos + 8));
    const body = bytes.subarray(pos + 8, pos + 8 + length);
    if (body.length < length) throw new ImageDecodeError(`PNG chunk ${type} is truncated`);
    if (type === 'IHDR') {
      width = view.getUint32(pos + 8);
      height = view.getUint32(pos + 12);
      depth = body[8]!;
      colorType = body[9]!;
      interlace = body[12]!;
    } else if (type === 'PLTE') palette = body;
    else if (type === 'tRNS') transparency = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    pos += 12 + length;
  }
  if (!width || !height) throw new ImageDecodeError('PNG has no IHDR chunk');
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageDecodeError(`expected at most ${MAX_IMAGE_PIXELS} pixels; got ${width}×${height}`);
  const channels = CHANNELS[colorType];
  if (!channels || ![1, 2, 4, 8, 16].includes(depth)) throw new ImageDecodeError(`unsupported PNG colour type ${colorType} / bit depth ${depth}`);
  if (colorType === 3 && !palette) throw new ImageDecodeError('palette PNG without a PLTE chunk');
  const compressed = new Uint8Array(idat.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const chunk of idat) {
    compressed.set(chunk, o);
    o += chunk.length;
  }
  let data: Uint8Array;
  try {
    data = unzlibSync(compressed);
  } catch (error) {
    throw new ImageDecodeError(`PNG image data does not inflate: ${(error as Error).message}`);
  }
  const bitsPerPixel = channels * depth;
  const bpp = Math.max(1, bitsPerPixel >> 3);
  const rgb = new Uint8Array(width * height * 3).fill(255);
  const sample = (row: Uint8Array, x: number, channel: number): number => {
    if (depth === 8) return row[x * channels + channel]!;
    if (depth === 16) return row[2 * (x * channels + channel)]!;
    const bit = (x * channels + channel) * depth;
    const value = (row[bit >> 3]! >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
    return colorType === 3 ? value : Math.round((value * 255) / ((1 << depth) - 1));
  };
  const put = (row: Uint8Array, sx: number, x: number, y: number) => {
    let r: number;
    let g: number;
    let b: number;
    let alpha = 255;
    if (colorType === 3) {
      const index = sample(row, sx, 0);
      r = palette![3 * index] ?? 0;
      g = palette![3 * index + 1] ?? 0;
      b = palette![3 * index + 2] ?? 0;
      if (transparency && index < transparency.length) alpha = transparency[index]!;
    } else if (colorType === 0 || colorType === 4) {
      r = g = b = sample(row, sx, 0);
      if (colorType === 4) alpha = sample(row, sx, 1);
    } else {
      r = sample(row, sx, 0);
      g = sample(row, sx, 1);
      b = sample(row, sx, 2);
      if (colorType === 6) alpha = sample(row, sx, 3);
    }
    const k = 3 * (y * width + x);
    rgb[k] = Math.round((r * alpha + 255 * (255 - alpha)) / 255);
    rgb[k + 1] = Math.round((g * alpha + 255 * (255 - alpha)) / 255);
    rgb[k + 2] = Math.round((b * alpha + 255 * (255 - alpha)) / 255);
  };
  if (interlace === 0 && depth === 8 && (colorType === 2 || colorType === 6)) {
    // The common case (matplotlib writes 8-bit RGBA): no per-sample bit arithmetic.
    const { rows } = unfilter(data, 0, width, height, bpp, bitsPerPixel);
    for (let y = 0; y < height; y++) {
      const row = rows[y]!;
      for (let x = 0, k = 3 * y * width; x < width; x++, k += 3) {
        const o = x * channels;
        const alpha = colorType === 6 ? row[o + 3]! : 255;
        if (alpha === 255) {
          rgb[k] = row[o]!;
          rgb[k + 1] = row[o + 1]!;
          rgb[k + 2] = row[o + 2]!;
        } else {
          rgb[k] = Math.round((row[o]! * alpha + 255 * (255 - alpha)) / 255);
          rgb[k + 1] = Math.round((row[o + 1]! * alpha + 255 * (255 - alpha)) / 255);
          rgb[k + 2] = Math.round((row[o + 2]! * alpha + 255 * (255 - alpha)) / 255);
        }
      }
    }
  } else if (interlace === 0) {
    const { rows } = unfilter(data, 0, width, height, bpp, bitsPerPixel);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) put(rows[y]!, x, x, y);
  } else {
    let offset = 0;
    for (const [x0, y0, dx, dy] of ADAM7) {
      const w = Math.ceil((width - x0) / dx);
      const h = Math.ceil((height - y0) / dy);
      if (w <= 0 || h <= 0) continue;
      const { rows, next } = unfilter(data, offset, w, h, bpp, bitsPerPixel);
      offset = next;
      for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) put(rows[j]!, i, x0 + i * dx, y0 + j * dy);
    }
  }
  return { width, height, rgb };
}
