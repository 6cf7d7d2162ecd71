import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { QdcLogger, developmentSecrets, loadConfig } from '#qdc/platform';
import { GatewayModule } from './gateway.module.js';

async function main(): Promise<void> {
  const config = loadConfig();
  // Every `new Logger(Thing.name)` of the gateway writes through this one (JSON in production, request ids).
  Logger.overrideLogger(new QdcLogger(config, 'gateway'));
  const adapter = new FastifyAdapter({
    bodyLimit: config.QDC_JSON_BODY_LIMIT_BYTES,
    // Echo the caller's X-Request-Id, or make one; it travels on through NATS and BullMQ.
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    multipart: { limits: { fileSize: config.QDC_UPLOAD_LIMIT_BYTES, files: 1, fields: 16, fieldSize: 64 * 1024 } },
  });
  adapter.getInstance().addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    done();
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule, adapter, { bufferLogs: false });
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  for (const warning of developmentSecrets(config)) new Logger('gateway').warn(`development secret in use: ${warning}`);
  new Logger('gateway').log(`listening on http://${config.HOST}:${config.PORT} (docs at /docs)`);
}

main().catch((error) => {
  new Logger('gateway').error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
