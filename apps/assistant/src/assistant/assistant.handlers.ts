import { Inject, Injectable } from '@nestjs/common';
import {
  AssistantEvents,
  AssistantRpc,
  type AssistantAgentsListResponse,
  type AssistantRunControl,
  type AssistantRunStartRequest,
  type AssistantRunStartResponse,
} from '#qdc/contracts';
import { EventHandler, QDC_CONFIG, RpcHandler, type QdcConfig } from '#qdc/platform';
import { RunManager } from './run-manager.service.js';

/** NATS handlers of the assistant: parse, delegate, reply. */
@Injectable()
export class AssistantHandlers {
  constructor(
    private readonly runs: RunManager,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  @RpcHandler(AssistantRpc.runStart)
  start(request: AssistantRunStartRequest): AssistantRunStartResponse {
    return this.runs.start(request);
  }

  @EventHandler(AssistantEvents.runControl)
  control(message: AssistantRunControl): void {
    this.runs.control(message);
  }

  @RpcHandler(AssistantRpc.agents)
  agents(): AssistantAgentsListResponse {
    const engine = this.config.QDC_LLM_BASE_URL
      ? `Answers with the configured language model (${this.config.QDC_LLM_MODEL ?? 'provider default'}) and QDC's tools`
      : "Runs offline (no language model configured): builds circuits for the documented request kinds and answers concept questions from QDC's knowledge base";
    return {
      agents: [
        {
          name: 'coda',
          description: `QDC's unified assistant: writes quantum circuits (Qiskit, Cirq, PennyLane, OpenQASM 2/3, Braket), each parsed and simulated by QDC's simulator before it is sent, and explains concepts. ${engine}.`,
        },
      ],
    };
  }
}
