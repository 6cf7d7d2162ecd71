import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Scope } from '#qdc/contracts';
import {
  ConfigModule,
  KeysRepository,
  EventBus,
  KeysService,
  NatsConnection,
  PayloadStore,
  PrismaService,
  applyMigrations,
  ensureDatabase,
  loadConfig,
  migrationsDir,
} from '#qdc/platform';
import { UsageError, parseCommandLine } from '../cli-args.js';

/** The results service's key code (libs/platform) against Postgres, so keys can be made before anything runs. */
@Module({
  imports: [ConfigModule.forService('qdc-cli')],
  providers: [PrismaService, NatsConnection, PayloadStore, EventBus, KeysRepository, KeysService],
})
class KeysCliModule {}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { name: { type: 'string' }, owner: { type: 'string' }, scopes: { type: 'string' } });
  const [command, ...rest] = positionals;
  if (command !== 'create' && command !== 'list' && command !== 'revoke')
    throw new UsageError(command ? `unknown command keys ${command}` : 'expected keys create, keys list or keys revoke');
  if (command === 'create' && !values.name) throw new UsageError('keys create needs --name');
  const scopes = (values.scopes ?? 'control,coda').split(',').map((s) => s.trim());
  const bad = scopes.filter((s) => !Scope.safeParse(s).success);
  if (command === 'create' && bad.length) throw new UsageError(`unknown scope(s) ${bad.join(', ')}; expected control, coda or admin`);
  if (command === 'revoke' && !rest[0]) throw new UsageError('keys revoke needs a key id');

  const config = loadConfig();
  await ensureDatabase(config.DATABASE_URL);
  await applyMigrations(config.DATABASE_URL, migrationsDir());
  const app = await NestFactory.createApplicationContext(KeysCliModule, { logger: ['error'] });
  try {
    const keys = app.get(KeysService);
    switch (command) {
      case 'create': {
        const created = await keys.create({ name: values.name!, ownerName: values.owner ?? values.name!, scopes: scopes as Scope[] });
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
        // Tell running gateways now; if NATS is down their cache expires within QDC_AUTH_CACHE_MS.
        await Promise.race([app.get(NatsConnection).connect(), new Promise((r) => setTimeout(r, 2000))]).catch(() => undefined);
        const revoked = await keys.revoke(rest[0]!);
        console.log(`revoked key ${revoked.id} (${revoked.name}, owner ${revoked.owner})`);
        return 0;
      }
    }
  } finally {
    await app.close();
  }
}
