/**
 * `npm run env:example`: writes .env.example from the config schemas (every key, its default, one line of meaning).
 * `--check` writes nothing and exits 1 when the file differs. scripts/env-example.spec.ts fails on a difference too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OUTSIDE_SETTINGS, platformSettings, renderEnvExample } from '#qdc/platform';
import { streamsSettings } from '../apps/lab-streams/src/streams.settings.js';
import { qpuSettings } from '../apps/qpu-broker/src/qpu.settings.js';
import { simulationSettings } from '../apps/qpu-broker/src/simulation/simulation.settings.js';

/** The repository root, from scripts/ or dist/scripts/. */
export const repositoryRoot = (): string => {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.includes('/dist/') ? resolve(here, '../..') : resolve(here, '..');
};

/** What .env.example must hold. */
export function envExample(): string {
  return renderEnvExample([platformSettings(), qpuSettings(), simulationSettings(), streamsSettings(), OUTSIDE_SETTINGS]);
}

function main(): void {
  const file = resolve(repositoryRoot(), '.env.example');
  const wanted = envExample();
  const current = (() => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  })();
  if (process.argv.includes('--check')) {
    if (current !== wanted) {
      console.error('.env.example differs from the config schemas: run npm run env:example');
      process.exit(1);
    }
    console.log('.env.example matches the config schemas');
    return;
  }
  writeFileSync(file, wanted);
  console.log(current === wanted ? '.env.example was already up to date' : '.env.example written');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
