import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { Scope } from '#qdc/contracts';
import { ConfigModule, NatsService, PrismaService, applyMigrations, ensureDatabase, loadConfig } from '#qdc/platform';
import { KeysRepository } from './keys/keys.repository.js';
import { KeysService } from './keys/keys.service.js';
import { migrationsDir } from './migrations-dir.js';
import { BUDGET_USAGE, BudgetUsageError, runBudgetCommand } from '../../qpu-broker/src/budgets/budget.cli.js';
import { NODE_USAGE, runNodeCommand } from '../../qpu-broker/src/lab/lab-node.js';
import { LAB_USAGE, LabUsageError, runLabCommand } from '../../qpu-broker/src/lab/lab-auth.js';
import { STREAM_USAGE, StreamUsageError, runStreamCommand } from '../../model-runner/src/streams/lab-stream.cli.js';

/**
 * `npm run qdc -- keys create --name alice --scopes control,coda [--owner lab-a]`
 * `npm run qdc -- keys list [--owner lab-a]`
 * `npm run qdc -- keys revoke <key-id>`
 * `npm run qdc -- budget set --owner lab-a --cents 5000` / `budget show --owner lab-a` (the broker's module)
 * Runs the results service's own key code against Postgres (the table's owner writes it).
 */
@Module({
  imports: [ConfigModule.forService('qdc-cli')],
  providers: [PrismaService, NatsService, KeysRepository, KeysService],
})
class CliModule {}

const USAGE = `usage:
  qdc keys create --name <name> [--owner <owner>] [--scopes control,coda,admin]
  qdc keys list [--owner <owner>]
  qdc keys revoke <key-id>
${BUDGET_USAGE}
${NODE_USAGE}
${LAB_USAGE}
${STREAM_USAGE}`;

async function main(argv: string[]): Promise<number> {
  // A lab node needs only NATS (it runs in the lab, without the database).
  if (argv[0] === 'node') return runNodeCommand(argv.slice(1));
  if (argv[0] === 'lab') return runLabCommand(argv.slice(1));
  // Streams are answered by the running lab-streams service (over NATS).
  if (argv[0] === 'stream') return runStreamCommand(argv.slice(1));
  if (argv[0] === 'budget') {
    const config = loadConfig();
    await ensureDatabase(config.DATABASE_URL);
    await applyMigrations(config.DATABASE_URL, migrationsDir());
    return runBudgetCommand(argv.slice(1));
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, owner: { type: 'string' }, scopes: { type: 'string' }, help: { type: 'boolean' } },
  });
  const [area, command, ...rest] = positionals;
  if (values.help || area !== 'keys' || !command) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  await ensureDatabase(config.DATABASE_URL);
  await applyMigrations(config.DATABASE_URL, migrationsDir());
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const keys = app.get(KeysService);
    switch (command) {
      case 'create': {
        if (!values.name) throw new UsageError('keys create needs --name');
        const scopes = (values.scopes ?? 'control,coda').split(',').map((s) => s.trim());
        const bad = scopes.filter((s) => !Scope.safeParse(s).success);
        if (bad.length) throw new UsageError(`unknown scope(s) ${bad.join(', ')}; expected control, coda or admin`);
        const created = await keys.create({ name: values.name, ownerName: values.owner ?? values.name, scopes: scopes as Scope[] });
        console.log(`created key ${created.id} for owner ${created.owner} with scopes ${created.scopes.join(',')}`);
        console.log('the key is shown once; store it now:');
        console.log(created.token);
        return 0;
      }
      case 'list': {
        const rows = await keys.list(values.owner);
        for (const k of rows) {
          console.log(
            `${k.id}  ${k.owner.padEnd(16)} ${k.name.padEnd(16)} ${k.scopes.join(',').padEnd(18)} ${k.token_hint}  ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'}`,
          );
        }
        if (rows.length === 0) console.log('no keys');
        return 0;
      }
      case 'revoke': {
        const id = rest[0];
        if (!id) throw new UsageError('keys revoke needs a key id');
        // Tell running gateways now; if NATS is down their cache expires within QDC_AUTH_CACHE_MS.
        await Promise.race([app.get(NatsService).connect(), new Promise((r) => setTimeout(r, 2000))]).catch(() => undefined);
        const revoked = await keys.revoke(id);
        console.log(`revoked key ${revoked.id} (${revoked.name}, owner ${revoked.owner})`);
        return 0;
      }
      default:
        throw new UsageError(`unknown command keys ${command}`);
    }
  } finally {
    await app.close();
  }
}

class UsageError extends Error {}

main(process.argv.slice(2))
  .then((code) => process.exit(code))
  .catch((error) => {
    const usage = error instanceof UsageError || error instanceof BudgetUsageError || error instanceof LabUsageError || error instanceof StreamUsageError;
    console.error(usage ? `${error.message}\n${USAGE}` : `error: ${(error as Error).message}`);
    process.exit(usage ? 2 : 1);
  });
