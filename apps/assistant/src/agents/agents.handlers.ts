import { Injectable } from '@nestjs/common';
import { AgentsRpc, type AgentsListRequest, type AgentsRunRequest } from '#qdc/contracts';
import { RpcHandler } from '#qdc/platform';
import { AgentsService } from './agents.service.js';

/** NATS consumers of the control agents: parse, delegate, reply. */
@Injectable()
export class AgentsHandlers {
  constructor(private readonly agents: AgentsService) {}

  @RpcHandler(AgentsRpc.list)
  list(msg: AgentsListRequest) {
    return this.agents.list(msg);
  }

  @RpcHandler(AgentsRpc.run)
  run(msg: AgentsRunRequest) {
    return this.agents.run(msg);
  }
}
