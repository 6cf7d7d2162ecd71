import { Module } from '@nestjs/common';
import { AssistantStreamService } from './assistant-stream.service.js';
import { AssistantController } from './assistant.controller.js';

/** `POST /agents`: the assistant's runs relayed as server-sent events (resumable with Last-Event-ID). */
@Module({ controllers: [AssistantController], providers: [AssistantStreamService] })
export class AssistantModule {}
