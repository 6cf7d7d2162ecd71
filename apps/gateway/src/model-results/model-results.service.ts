import { Injectable } from '@nestjs/common';
import { zipSync } from 'fflate';
import { basename } from 'node:path';
import { ResultsRpc, type MaskedResultDto, type ModelBatchResultDto, type ModelResultDto, type Principal, type VoteDto } from '#qdc/contracts';
import { PayloadStore, RpcClient } from '#qdc/platform';
import { invalid } from '../http/api-errors.js';

export interface ResultsQuery {
  skip: number;
  limit: number;
  model?: string;
  startDate?: string;
  endDate?: string;
}

@Injectable()
export class ModelResultsService {
  constructor(
    private readonly rpc: RpcClient,
    private readonly payloads: PayloadStore,
  ) {}

  list(caller: Principal, query: ResultsQuery): Promise<MaskedResultDto[]> {
    return this.rpc.call(ResultsRpc.list, { ownerId: caller.ownerId, ...query });
  }

  get(caller: Principal, id: string): Promise<ModelResultDto | ModelBatchResultDto> {
    return this.rpc.call(ResultsRpc.get, { ownerId: caller.ownerId, id });
  }

  delete(caller: Principal, id: string): Promise<{ detail: string }> {
    return this.rpc.call(ResultsRpc.delete, { ownerId: caller.ownerId, id });
  }

  /**
   * A zip with result.json and the original input file under its original name, its entries dated when the result
   * was stored: the same result always downloads as the same bytes (before and after a backup's restore too).
   */
  async download(caller: Principal, id: string): Promise<{ fileName: string; zip: Uint8Array }> {
    const stored = await this.rpc.call(ResultsRpc.download, { ownerId: caller.ownerId, id });
    const input = await this.payloads.fromBinaryRef(stored.input);
    let inputName = basename(stored.inputFileName.replace(/\\/g, '/')) || 'data';
    if (inputName === 'result.json') inputName = 'input_result.json';
    const zip = zipSync(
      {
        'result.json': new TextEncoder().encode(JSON.stringify(stored.result, null, 2)),
        [inputName]: [input, { level: 0 }],
      },
      { mtime: stored.result.created_at },
    );
    return { fileName: `model-result-${stored.result.id}.zip`, zip };
  }

  putVote(caller: Principal, id: string, body: unknown): Promise<VoteDto> {
    const { vote, feedback } = parseVote(body);
    return this.rpc.call(ResultsRpc.putVote, { ownerId: caller.ownerId, id, vote, feedback });
  }

  deleteVote(caller: Principal, id: string): Promise<{ detail: string }> {
    return this.rpc.call(ResultsRpc.deleteVote, { ownerId: caller.ownerId, id });
  }
}

function parseVote(body: unknown): { vote: 1 | -1; feedback: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid(
      ['body'],
      `expected a JSON object {"vote": 1 | -1, "feedback": "optional text"}; got ${JSON.stringify(body) ?? 'nothing'}`,
      'model_attributes_type',
    );
  }
  const { vote, feedback } = body as Record<string, unknown>;
  if (vote === undefined) throw invalid(['body', 'vote'], 'Field required: vote (1 or -1)', 'missing');
  if (vote !== 1 && vote !== -1) throw invalid(['body', 'vote'], `expected 1 or -1; got ${JSON.stringify(vote)}`, 'literal_error');
  if (feedback !== undefined && feedback !== null && typeof feedback !== 'string') {
    throw invalid(['body', 'feedback'], `expected a string; got ${JSON.stringify(feedback)}`, 'string_type');
  }
  if (typeof feedback === 'string' && feedback.length > 4000) {
    throw invalid(['body', 'feedback'], `expected at most 4000 characters; got ${feedback.length}`, 'string_too_long');
  }
  return { vote, feedback: typeof feedback === 'string' ? feedback : null };
}
