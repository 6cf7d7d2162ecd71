import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createClient, type QdcClient } from '@qdc/client';
import { UsageError } from '../cli-args.js';

/** Options every user command takes. */
export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  key: { type: 'string' },
} as const;

/**
 * The client of a user command: the server root from --url, QDC_URL or http://127.0.0.1:8000; the key from --key,
 * QDC_API_KEY or the development key `npm start` writes (`$QDC_DATA_DIR/dev-key`, default `.qdc/dev-key`).
 */
export function userClient(values: { url?: string; key?: string }, env: NodeJS.ProcessEnv = process.env): QdcClient {
  const baseUrl = values.url ?? (env.QDC_URL || 'http://127.0.0.1:8000');
  let token = values.key ?? (env.QDC_API_KEY || undefined);
  if (!token) {
    const devKey = resolve(env.QDC_DATA_DIR || '.qdc', 'dev-key');
    if (existsSync(devKey)) token = readFileSync(devKey, 'utf8').trim();
  }
  if (!token) throw new UsageError('no API key: pass --key <key>, set QDC_API_KEY, or run npm start (it writes .qdc/dev-key)');
  return createClient({ baseUrl, token });
}

/** Columns padded to their widest cell; the last column is not padded. */
export function formatTable(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}

export const printJson = (value: unknown): void => console.log(JSON.stringify(value, null, 2));
