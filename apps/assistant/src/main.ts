import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { ConfigModule, NatsModule, NatsService, bootstrapService, exitOnStartupError } from '#qdc/platform';

/**
 * Assistant service. So far it only joins NATS and answers health; the streaming assistant
 * and the calibration agent arrive with their own issue.
 */
@Module({ imports: [ConfigModule.forService('assistant'), NatsModule] })
class AssistantModule {}

bootstrapService('assistant', AssistantModule, {
  defaultProbePort: 9104,
  readiness: (app) => async () => ({ nats: app.get(NatsService).isConnected }),
}).catch(exitOnStartupError('assistant'));
