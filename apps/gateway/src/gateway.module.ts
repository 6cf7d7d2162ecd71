import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ConfigModule, NatsModule, RequestContextInterceptor } from '#qdc/platform';
import { AdminModule } from './admin/admin.module.js';
import { AgentsModule } from './agents/agents.module.js';
import { AssistantModule } from './assistant/assistant.module.js';
import { AuthGuard } from './auth/auth.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { CodaToolsModule } from './coda/coda-tools.module.js';
import { ApiExceptionFilter } from './http/exception.filter.js';
import { LabStreamsModule } from './lab-streams/lab-streams.module.js';
import { ModelResultsModule } from './model-results/model-results.module.js';
import { InferenceQueueModule } from './models/inference-queue.module.js';
import { ModelsModule } from './models/models.module.js';
import { QpusModule } from './qpus/qpus.module.js';
import { SystemModule } from './system/system.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';

/**
 * HTTP edge: auth, validation, uploads, OpenAPI; everything else is a NATS request. One feature module per folder;
 * here only what is global: config, NATS, the inference queue, and the guard (API keys), filter (error bodies) and
 * interceptor (request ids) of every route.
 */
@Module({
  imports: [
    ConfigModule.forService('gateway'),
    NatsModule,
    InferenceQueueModule,
    AuthModule,
    SystemModule,
    ModelsModule,
    ModelResultsModule,
    QpusModule,
    CodaToolsModule,
    AssistantModule,
    AgentsModule,
    LabStreamsModule,
    AdminModule,
    WebhooksModule,
  ],
  providers: [
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
  ],
})
export class GatewayModule {}
