import { Global, Module } from '@nestjs/common';
import { loadConfig, type QdcConfig } from './config.js';
import { TracingShutdown } from '../tracing/tracing-shutdown.js';

export const QDC_CONFIG = Symbol('QDC_CONFIG');
export const SERVICE_NAME = Symbol('SERVICE_NAME');

/** Validated configuration and the running service's name, injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forService(serviceName: string, config: QdcConfig = loadConfig()) {
    return {
      module: ConfigModule,
      providers: [{ provide: QDC_CONFIG, useValue: config }, { provide: SERVICE_NAME, useValue: serviceName }, TracingShutdown],
      exports: [QDC_CONFIG, SERVICE_NAME],
    };
  }
}
