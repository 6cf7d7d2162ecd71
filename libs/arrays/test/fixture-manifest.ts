import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DType } from '../src/index.js';

/** Reads the fixtures written by scripts/make-array-fixtures.py (tests only). */
export interface ArrayFixture {
  file: string;
  format: 'npy' | 'pt';
  dtype: DType;
  shape: number[];
  values: Array<number | 'NaN' | 'Infinity' | '-Infinity'>;
}

export interface RejectedFixture {
  file: string;
  error_type: string;
  message: string;
}

const directory = fileURLToPath(new URL('./fixtures/', import.meta.url));

export function readFixture(file: string): Uint8Array {
  return new Uint8Array(readFileSync(directory + file));
}

export const manifest = JSON.parse(readFileSync(`${directory}manifest.json`, 'utf8')) as {
  arrays: ArrayFixture[];
  rejected: RejectedFixture[];
};

export function expectedValues(fixture: ArrayFixture): number[] {
  return fixture.values.map((v) => (typeof v === 'string' ? Number(v) : v));
}
