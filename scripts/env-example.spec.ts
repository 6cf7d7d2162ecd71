import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CONFIG_KEYS, checkSettingDocs, renderEnvExample, SettingDocsError, type SettingGroup } from '#qdc/platform';
import { STREAMS_CONFIG_KEYS } from '../apps/lab-streams/src/streams.config.js';
import { QPU_CONFIG_KEYS } from '../apps/qpu-broker/src/qpu.config.js';
import { SIMULATION_CONFIG_KEYS } from '../apps/qpu-broker/src/simulation/simulation.config.js';
import { envExample } from './env-example.js';

describe('.env.example', () => {
  const file = readFileSync(resolve(process.cwd(), '.env.example'), 'utf8');

  it('is what `npm run env:example` writes from the config schemas (run it after changing a setting)', () => {
    expect(file).toBe(envExample());
  });

  it('names every key of every schema once, at its default or with an example when it has none', () => {
    for (const key of [...CONFIG_KEYS, ...QPU_CONFIG_KEYS, ...SIMULATION_CONFIG_KEYS, ...STREAMS_CONFIG_KEYS]) {
      expect(file.match(new RegExp(`^# ${key}=`, 'gm'))).toHaveLength(1);
    }
    expect(file).toMatch(/^# PORT=8000$/m);
    expect(file).toMatch(/^# QDC_RATE_LIMIT_PER_MINUTE=1200$/m);
    expect(file).toMatch(/^# QDC_MIGRATE_ON_BOOT=true$/m);
    expect(file).toMatch(/^# QDC_QPU_QUEUE_TIMEOUT=86400000$/m);
    expect(file).toMatch(/^# QDC_LLM_BASE_URL=http:\/\/127\.0\.0\.1:11434\/v1$/m); // no default: an example
  });
});

describe(renderEnvExample.name, () => {
  const group = (docs: SettingGroup['docs']): SettingGroup => ({
    title: 'test',
    schema: { keys: ['A_MS', 'B_URL'], defaults: { A_MS: 5, B_URL: undefined } },
    docs,
  });

  it('renders each key with its meaning, at its default, or empty when it has none', () => {
    const text = renderEnvExample([group({ A_MS: 'a wait, ms', B_URL: { meaning: 'a URL', example: 'http://x' } })]);
    expect(text.endsWith('\n# --- test ---\n# a wait, ms\n# A_MS=5\n# a URL\n# B_URL=http://x\n')).toBe(true);
  });

  it('shows a key two schemas have once, in the first group, and wants its doc there only', () => {
    const later: SettingGroup = { title: 'later', schema: { keys: ['A_MS', 'D'], defaults: { A_MS: 5, D: 1 } }, docs: { D: 'a d' } };
    const text = renderEnvExample([group({ A_MS: 'a wait, ms', B_URL: 'a URL' }), later]);
    expect(text.match(/^# A_MS=/gm)).toHaveLength(1);
    expect(text.endsWith('\n# --- later ---\n# a d\n# D=1\n')).toBe(true);
    expect(checkSettingDocs([group({ A_MS: 'a', B_URL: 'b' }), { ...later, docs: { D: 'a d', A_MS: 'again' } }])).toEqual([
      'later: doc for A_MS, which the schema does not have',
    ]);
  });

  it('refuses a key without a doc and a doc without a key, naming them', () => {
    const docs = { A_MS: 'a wait', C: 'gone' };
    expect(checkSettingDocs([group(docs)])).toEqual([
      'test: no doc for B_URL (add one line of meaning each)',
      'test: doc for C, which the schema does not have',
    ]);
    expect(() => renderEnvExample([group(docs)])).toThrow(SettingDocsError);
  });
});
