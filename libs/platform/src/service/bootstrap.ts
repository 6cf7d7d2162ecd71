import { Logger, type INestApplicationContext, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { startProbeServer, type ReadinessCheck } from '../health/probe-server.js';
import { developmentSecrets, loadConfig } from '../config/config.js';

export interface ServiceBootstrapOptions {
  /** Probe port when QDC_HEALTH_PORT is not set. */
  defaultProbePort: number;
  readiness: (app: INestApplicationContext) => ReadinessCheck;
}

/** main() of a service without an HTTP API: Nest context, shutdown hooks, probe server. */
export async function bootstrapService(name: string, module: Type, options: ServiceBootstrapOptions): Promise<INestApplicationContext> {
  const config = loadConfig();
  const logger = new Logger(name);
  for (const warning of developmentSecrets(config)) logger.warn(`development secret in use: ${warning}`);
  const app = await NestFactory.createApplicationContext(module, { logger: logLevels(config.LOG_LEVEL) });
  app.enableShutdownHooks();
  await app.init();
  const probes = await startProbeServer(config.QDC_HEALTH_PORT ?? options.defaultProbePort, options.readiness(app));
  const stop = (): void => void probes.close();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  logger.log(`${name} ready`);
  return app;
}

/** Nest log levels at or above the configured one. */
export function logLevels(level: string): ('error' | 'warn' | 'log' | 'debug' | 'verbose')[] {
  const order = ['error', 'warn', 'log', 'debug', 'verbose'] as const;
  return order.slice(0, order.indexOf(level as (typeof order)[number]) + 1);
}
