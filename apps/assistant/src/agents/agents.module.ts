import { Module } from '@nestjs/common';
import { AgentsHandlers } from './agents.handlers.js';
import { AgentsService } from './agents.service.js';
import { CalibrationAgent } from './calibration.agent.js';
import { VlmClient } from './vlm.client.js';

/** Control agents (SPEC §3, §6): the catalogue and `ising-calibration-v1`, over NATS. */
@Module({ providers: [AgentsHandlers, AgentsService, CalibrationAgent, VlmClient] })
export class AgentsModule {}
