import { Inject, Injectable } from '@nestjs/common';
import { AgentsRpc, type AgentSummary, type AgentsRunResponse, type Principal } from '#qdc/contracts';
import { QDC_CONFIG, RpcClient, type QdcConfig } from '#qdc/platform';
import { invalid } from '../http/api-errors.js';
import { intQuery } from '../http/query.js';

/** Room for reading the plot and the NATS hops on top of the VLM's own timeout. */
const RUN_REPLY_MARGIN_MS = 30_000;

@Injectable()
export class AgentsService {
  constructor(
    private readonly rpc: RpcClient,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  list(skip: unknown, limit: unknown): Promise<AgentSummary[]> {
    return this.rpc.call(AgentsRpc.list, {
      skip: intQuery(skip, 'skip', 0, 0, Number.MAX_SAFE_INTEGER),
      limit: intQuery(limit, 'limit', 100, 1, 1000),
    });
  }

  run(principal: Principal, agentId: string, body: unknown, requestId: string): Promise<AgentsRunResponse> {
    if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
      const got = body === undefined ? 'no body' : body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body;
      throw invalid(['body'], `expected a JSON object; got ${got}`, 'model_attributes_type');
    }
    return this.rpc.call(
      AgentsRpc.run,
      { ownerId: principal.ownerId, agentId, body },
      { requestId, timeoutMs: this.config.QDC_VLM_TIMEOUT_MS + RUN_REPLY_MARGIN_MS },
    );
  }
}
