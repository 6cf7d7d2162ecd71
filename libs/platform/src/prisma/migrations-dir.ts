import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** prisma/migrations at the repository (or image) root: the first ancestor of this file (in src/ or dist/) that holds it. */
export function migrationsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = resolve(dir, 'prisma/migrations');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no prisma/migrations above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
