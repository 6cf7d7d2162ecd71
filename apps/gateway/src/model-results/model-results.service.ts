import { Injectable } from '@nestjs/common';
import { zipSync } from 'fflate';
import { basename } from 'node:path';
import { Subjects, type MaskedResultDto, type ModelResultDto, type Principal, type ResultsDownloadResponse, type VoteDto } from '#qdc/contracts';
import { NatsService } from '#qdc/platform';
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
  constructor(private readonly nats: NatsService) {}

  list(caller: Principal, query: ResultsQuery): Promise<MaskedResultDto[]> {
    return this.nats.request(Subjects.ResultsList, { ownerId: caller.ownerId, ...query });
  }

  get(caller: Principal, id: string): Promise<ModelResultDto> {
    return this.nats.request(Subjects.ResultsGet, { ownerId: caller.ownerId, id });
  }

  delete(caller: Principal, id: string): Promise<{ detail: string }> {
    return this.nats.request(Subjects.ResultsDelete, { ownerId: caller.ownerId, id });
  }

  /** A zip with result.json and the original input file under its original name. */
  async download(caller: Principal, id: string): Promise<{ fileName: string; zip: Uint8Array }> {
    const stored = await this.nats.request<ResultsDownloadResponse>(Subjects.ResultsDownload, { ownerId: caller.ownerId, id });
    const input = await this.nats.fromBinaryRef(stored.input);
    let inputName = basename(stored.inputFileName.replace(/\\/g, '/')) || 'data';
    if (inputName === 'result.json') inputName = 'input_result.json';
    const zip = zipSync({
      'result.json': new TextEncoder().encode(JSON.stringify(stored.result, null, 2)),
      [inputName]: [input, { level: 0 }],
    });
    return { fileName: `model-result-${stored.result.id}.zip`, zip };
  }

  putVote(caller: Principal, id: string, body: unknown): Promise<VoteDto> {
    const { vote, feedback } = parseVote(body);
    return this.nats.request(Subjects.VotesPut, { ownerId: caller.ownerId, id, vote, feedback });
  }

  deleteVote(caller: Principal, id: string): Promise<{ detail: string }> {
    return this.nats.request(Subjects.VotesDelete, { ownerId: caller.ownerId, id });
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
