import { Injectable } from '@nestjs/common';
import { AgentsListRequest, AgentsRunRequest, Subjects } from '#qdc/contracts';
import { RpcHandler } from '#qdc/platform';
import { AgentsService } from './agents.service.js';

/** NATS consumers of the control agents: parse, delegate, reply. */
@Injectable()
export class AgentsHandlers {
  constructor(private readonly agents: AgentsService) {}

  @RpcHandler(Subjects.AgentsList, AgentsListRequest)
  list(msg: AgentsListRequest) {
    return this.agents.list(msg);
  }

  @RpcHandler(Subjects.AgentsRun, AgentsRunRequest)
  run(msg: AgentsRunRequest) {
    return this.agents.run(msg);
  }
}
