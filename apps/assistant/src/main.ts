import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { ConfigModule, NatsModule, NatsService, bootstrapService } from '#qdc/platform';
import { AgentsModule } from './agents/agents.module.js';

/**
 * Assistant service: the control agents (AgentsModule: catalogue and ising-calibration-v1) over NATS;
 * the streaming assistant arrives with its own issue.
 */
@Module({ imports: [ConfigModule.forService('assistant'), NatsModule, AgentsModule] })
class AssistantModule {}

bootstrapService('assistant', AssistantModule, {
  defaultProbePort: 9104,
  readiness: (app) => async () => ({ nats: app.get(NatsService).isConnected }),
}).catch((error) => {
  new Logger('assistant').error(error instanceof Error ? error.stack : String(error));
  process.exit(1);
});
