import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { AgentsRunRoute } from './agents-run.route.js';
import { AgentsController } from './agents.controller.js';
import { AgentsService } from './agents.service.js';

/** The control agents (catalogue, `POST /agents/{id}` as a plain Fastify route). */
@Module({ imports: [AuthModule], controllers: [AgentsController], providers: [AgentsService, AgentsRunRoute] })
export class AgentsModule {}
