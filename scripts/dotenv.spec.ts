import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDotEnv } from './dotenv.js';

describe(loadDotEnv.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'qdc-dotenv-'));

  it('sets what the file says, comments and quotes as Node parses them, and leaves variables already set alone', () => {
    const file = join(dir, '.env');
    writeFileSync(file, '# QDC_NAMESPACE=commented\nPORT=9000\nQDC_CORS_ORIGINS="https://a.example,https://b.example"\nLOG_LEVEL=debug\n');
    const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn' };
    expect(loadDotEnv(file, env)).toEqual(['PORT', 'QDC_CORS_ORIGINS']);
    expect(env).toEqual({ LOG_LEVEL: 'warn', PORT: '9000', QDC_CORS_ORIGINS: 'https://a.example,https://b.example' });
  });

  it('does nothing without a file', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(loadDotEnv(join(dir, 'missing.env'), env)).toEqual([]);
    expect(env).toEqual({});
  });
});
