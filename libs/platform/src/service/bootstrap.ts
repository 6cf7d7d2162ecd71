import { Logger, type INestApplicationContext, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startProbeServer, type ReadinessCheck } from '../health/probe-server.js';
import { developmentSecrets, loadConfig } from '../config/config.js';
import { QdcLogger } from '../logging/qdc-logger.js';
import { setMetricsService } from '../metrics/metrics.js';
import { initTracing } from '../tracing/tracing.js';
import { exitAfterGrace } from './shutdown-deadline.js';
import { hostService, inSingleProcess } from './single-process.js';

export interface ServiceBootstrapOptions {
  /** Probe port when QDC_HEALTH_PORT is not set. */
  defaultProbePort: number;
  readiness: (app: INestApplicationContext) => ReadinessCheck;
}

/**
 * main() of a service without an HTTP API: Nest context, shutdown hooks, probe server. In the single-process mode
 * only the Nest context: the host (apps/all-in-one) owns the logger, the metrics label, the signals and the probes.
 */
export async function bootstrapService(name: string, module: Type, options: ServiceBootstrapOptions): Promise<INestApplicationContext> {
  const config = loadConfig();
  if (inSingleProcess()) {
    // abortOnError false: a boot error reaches the host, which closes the others and names the service (Nest would exit).
    const app = await NestFactory.createApplicationContext(module, { bufferLogs: false, abortOnError: false });
    await app.init();
    hostService({ name, app, readiness: options.readiness(app) });
    new Logger(name).log(`${name} ready`);
    return app;
  }
  // Every `new Logger(Thing.name)` of the service writes through this one (JSON in production, request ids).
  Logger.overrideLogger(new QdcLogger(config, name));
  setMetricsService(name);
  initTracing(config, name);
  const logger = new Logger(name);
  for (const warning of developmentSecrets(config)) logger.warn(`development secret in use: ${warning}`);
  const app = await NestFactory.createApplicationContext(module, { bufferLogs: false });
  app.enableShutdownHooks();
  exitAfterGrace(name, config.QDC_SHUTDOWN_GRACE_MS);
  await app.init();
  const probes = await startProbeServer(config.QDC_HEALTH_PORT ?? options.defaultProbePort, options.readiness(app));
  const stop = (): void => void probes.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  logger.log(`${name} ready`);
  return app;
}
