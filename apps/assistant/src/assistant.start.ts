import { type INestApplicationContext, Module } from '@nestjs/common';
import { ConfigModule, NatsModule, NatsConnection, bootstrapService } from '#qdc/platform';
import { UnifiedAssistantModule } from './assistant/assistant.module.js';
import { AgentsModule } from './agents/agents.module.js';

/** Assistant service: the unified assistant's runs (SSE events relayed by the gateway) and the control agents (catalogue, ising-calibration-v1). */
@Module({ imports: [ConfigModule.forService('assistant'), NatsModule, UnifiedAssistantModule, AgentsModule] })
class AssistantModule {}

export async function startAssistant(): Promise<INestApplicationContext> {
  return bootstrapService('assistant', AssistantModule, {
    defaultProbePort: 9104,
    readiness: (app) => async () => ({ nats: app.get(NatsConnection).isConnected }),
  });
}
