import { Module } from '@nestjs/common';
import { StreamSlotsModule } from '../http/stream-slots.module.js';
import { LabStreamEventsController } from './lab-stream-events.controller.js';
import { LabStreamEventsService } from './lab-stream-events.service.js';

/** A lab stream's results as server-sent events (`GET /v0/lab-streams/{lab}/{name}/events`). */
@Module({ imports: [StreamSlotsModule], controllers: [LabStreamEventsController], providers: [LabStreamEventsService] })
export class LabStreamsModule {}
