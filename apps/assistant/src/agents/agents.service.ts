import { Injectable } from '@nestjs/common';
import { RpcError, type AgentSummary, type AgentsListRequest, type AgentsRunRequest, type AgentsRunResponse } from '#qdc/contracts';
import { CalibrationAgent } from './calibration.agent.js';

/** The control agents' catalogue (SPEC §3, ordered by id). */
export const CONTROL_AGENTS: readonly AgentSummary[] = [
  {
    id: 'ising-calibration-v1',
    name: 'Ising Calibration',
    description:
      'Reads a qubit calibration plot (PNG/JPEG) or measured arrays, recognises the experiment (Rabi amplitude/time, Ramsey, T1, T2 echo, DRAG, resonator and qubit spectroscopy), fits it and says whether the calibration worked and what to do next. Uses a configured vision-language model for the text when one is set.',
  },
];

@Injectable()
export class AgentsService {
  constructor(private readonly calibration: CalibrationAgent) {}

  list({ skip, limit }: AgentsListRequest): AgentSummary[] {
    return CONTROL_AGENTS.slice(skip, skip + limit);
  }

  async run({ agentId, body }: AgentsRunRequest): Promise<AgentsRunResponse> {
    if (agentId === 'ising-calibration-v1') return (await this.calibration.run(body)) as unknown as AgentsRunResponse;
    throw new RpcError('not_found', 'Agent not found');
  }
}
