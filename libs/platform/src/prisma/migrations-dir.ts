import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** prisma/migrations at the repository (or image) root, found from this file in src/ or dist/. */
export function migrationsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.includes('/dist/') ? resolve(here, '../../../..') : resolve(here, '../../..');
  return resolve(root, 'prisma/migrations');
}
