import { Module } from '@nestjs/common';
import { PrismaService, QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { AssistantHandlers } from './assistant.handlers.js';
import { KnowledgeService } from './knowledge.service.js';
import { OfflineEngine } from './offline.engine.js';
import { ASSISTANT_ENGINE, RunManager } from './run-manager.service.js';
import { RunEventsPublisher } from './run-events.publisher.js';
import { ThreadsRepository } from './threads.repository.js';
import { LlmEngine } from './llm/llm.engine.js';
import { OpenAiChatClient } from './llm/openai-chat.client.js';
import { AssistantTools } from './llm/assistant-tools.js';

/** The unified assistant: runs over NATS, events on JetStream, threads in Postgres; LLM when configured, else the offline engine. */
@Module({
  providers: [
    PrismaService,
    KnowledgeService,
    ThreadsRepository,
    RunEventsPublisher,
    RunManager,
    AssistantHandlers,
    OfflineEngine,
    OpenAiChatClient,
    AssistantTools,
    LlmEngine,
    {
      provide: ASSISTANT_ENGINE,
      inject: [QDC_CONFIG, OfflineEngine, LlmEngine],
      useFactory: (config: QdcConfig, offline: OfflineEngine, llm: LlmEngine) => (config.QDC_LLM_BASE_URL ? llm : offline),
    },
  ],
})
export class UnifiedAssistantModule {}
