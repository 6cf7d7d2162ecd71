// Measured traces from /work/shared/data/real (next to the repository), decoded with #qdc/arrays.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeNpy } from '#qdc/arrays';

export const REAL_DATA_DIR =
  [process.env.QDC_REAL_DATA, resolve(process.cwd(), '../shared/data/real'), '/work/shared/data/real'].find((dir) => dir && existsSync(dir)) ??
  resolve(process.cwd(), '../shared/data/real');

export function realDataAvailable(): boolean {
  return existsSync(REAL_DATA_DIR);
}

export function loadRealCase(name: string): { shape: number[]; data: Float64Array } {
  const array = decodeNpy(new Uint8Array(readFileSync(resolve(REAL_DATA_DIR, `${name}.npy`))));
  return { shape: array.shape, data: array.data };
}

export function argExtreme(data: Float64Array, sign: 1 | -1): number {
  let best = 0;
  for (let i = 1; i < data.length; i++) if (sign * data[i]! > sign * data[best]!) best = i;
  return best;
}
