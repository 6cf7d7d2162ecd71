import jpeg from 'jpeg-js';
import { decodePng, isPng } from './png.decode.js';
import { ImageDecodeError, MAX_IMAGE_PIXELS, type RasterImage } from './raster-image.js';

/** PNG (own decoder) or JPEG (jpeg-js, baseline and progressive), detected from the bytes. */
export function decodeImage(bytes: Uint8Array): RasterImage {
  if (isPng(bytes)) return decodePng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    let decoded: { width: number; height: number; data: Uint8Array };
    try {
      decoded = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_IMAGE_PIXELS / 1e6, maxMemoryUsageInMB: 1024 });
    } catch (error) {
      throw new ImageDecodeError(`JPEG does not decode: ${(error as Error).message}`);
    }
    const rgb = new Uint8Array(decoded.width * decoded.height * 3);
    for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
      rgb[i] = decoded.data[j]!;
      rgb[i + 1] = decoded.data[j + 1]!;
      rgb[i + 2] = decoded.data[j + 2]!;
    }
    return { width: decoded.width, height: decoded.height, rgb };
  }
  throw new ImageDecodeError(
    `expected a PNG or JPEG image; got ${bytes.length} bytes starting ${Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('')}`,
  );
}
