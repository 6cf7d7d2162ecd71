import { type INestApplicationContext, Logger } from '@nestjs/common';
import { NatsConnection, PrismaService, applyMigrations, bootstrapService, ensureDatabase, loadConfig, migrationsDir, redactUrl } from '#qdc/platform';
import { ResultsModule } from './results.module.js';

/** The results service (owner of the schema: migrates it first when QDC_MIGRATE_ON_BOOT). */
export async function startResults(): Promise<INestApplicationContext> {
  const config = loadConfig();
  if (config.QDC_MIGRATE_ON_BOOT) {
    // The owner of the schema migrates it before serving (advisory-locked, so replicas may race).
    if (await ensureDatabase(config.DATABASE_URL)) new Logger('results').log(`created database ${redactUrl(config.DATABASE_URL)}`);
    const report = await applyMigrations(config.DATABASE_URL, migrationsDir());
    new Logger('results').log(`migrations: ${report.applied.length} applied, ${report.alreadyApplied} already applied`);
  }
  return bootstrapService('results', ResultsModule, {
    defaultProbePort: 9102,
    readiness: (app) => async () => ({
      nats: app.get(NatsConnection).isConnected,
      postgres: await app.get(PrismaService).$queryRaw`SELECT 1`.then(() => true).catch(() => false),
    }),
  });
}
