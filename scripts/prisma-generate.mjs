// Generates the Prisma client into libs/platform/src/prisma/generated.
// The Prisma CLI cannot download its schema engine on these machines; `generate`
// does not need it, so point the variable at /bin/false to skip the download.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (existsSync('prisma/schema.prisma')) {
  execFileSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate', '--schema', 'prisma/schema.prisma'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
  });
}
