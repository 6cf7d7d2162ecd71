import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { ConfigModule, InferenceProducer, NatsModule, RequestContextInterceptor } from '#qdc/platform';
import { AuthGuard } from './auth/auth.guard.js';
import { ApiKeyVerifier } from './auth/api-key.verifier.js';
import { Authenticator } from './auth/authenticator.js';
import { RateLimiter } from './auth/rate-limiter.js';
import { ApiExceptionFilter } from './http/exception.filter.js';
import { ModelsController } from './models/models.controller.js';
import { ModelsService } from './models/models.service.js';
import { ModelRunService } from './models/model-run.service.js';
import { ModelsListRoute } from './models/models-list.route.js';
import { ModelsRunRoute } from './models/models-run.route.js';
import { RunCountsCache } from './models/run-counts.cache.js';
import { ModelResultsController } from './model-results/model-results.controller.js';
import { ModelResultsService } from './model-results/model-results.service.js';
import { AdminKeysController } from './admin/admin-keys.controller.js';
import { AdminLabStreamsController } from './admin/admin-lab-streams.controller.js';
import { HealthController } from './system/health.controller.js';
import { RemovedRoutesController } from './system/removed-routes.controller.js';
import { DocsController } from './system/docs.controller.js';
import { CodaToolsController } from './coda/coda-tools.controller.js';
import { CodaToolsService } from './coda/coda-tools.service.js';
import { CodaBodyErrors } from './coda/coda-body-errors.js';
import { AssistantController } from './assistant/assistant.controller.js';
import { AssistantStreamService } from './assistant/assistant-stream.service.js';
import { QpusController } from './qpus/qpus.controller.js';
import { QpusService } from './qpus/qpus.service.js';
import { QpuJobEventsService } from './qpus/qpu-job-events.service.js';
import { StreamSlots } from './http/stream-slots.js';
import { ConsoleStaticRoute } from './console/console-static.route.js';
import { LabStreamEventsController } from './lab-streams/lab-stream-events.controller.js';
import { LabStreamEventsService } from './lab-streams/lab-stream-events.service.js';
import { AdminBudgetsController } from './qpus/admin-budgets.controller.js';
import { AgentsController } from './agents/agents.controller.js';
import { AgentsService } from './agents/agents.service.js';
import { AgentsRunRoute } from './agents/agents-run.route.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { WebhooksService } from './webhooks/webhooks.service.js';

/** HTTP edge: auth, validation, uploads, OpenAPI; everything else is a NATS request. */
@Module({
  imports: [ConfigModule.forService('gateway'), NatsModule],
  controllers: [
    ModelsController,
    ModelResultsController,
    AdminKeysController,
    HealthController,
    RemovedRoutesController,
    DocsController,
    CodaToolsController,
    AssistantController,
    QpusController,
    AdminBudgetsController,
    AgentsController,
    AdminLabStreamsController,
    LabStreamEventsController,
    WebhooksController,
  ],
  providers: [
    ApiKeyVerifier,
    RateLimiter,
    Authenticator,
    RunCountsCache,
    InferenceProducer,
    ModelRunService,
    ModelsService,
    ModelsListRoute,
    ModelsRunRoute,
    ModelResultsService,
    CodaToolsService,
    CodaBodyErrors,
    AssistantStreamService,
    QpusService,
    QpuJobEventsService,
    StreamSlots,
    ConsoleStaticRoute,
    LabStreamEventsService,
    AgentsService,
    AgentsRunRoute,
    WebhooksService,
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
    { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
  ],
})
export class GatewayModule {}
