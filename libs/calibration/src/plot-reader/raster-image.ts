/** An 8-bit RGB raster, row-major, top row first (alpha already composited over white). */
export interface RasterImage {
  width: number;
  height: number;
  rgb: Uint8Array;
}

/** The image bytes are not a PNG or JPEG this reader can decode; the message says what was found. */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

/** Largest image accepted (pixels): 40 megapixels, far above any plot. */
export const MAX_IMAGE_PIXELS = 40_000_000;
