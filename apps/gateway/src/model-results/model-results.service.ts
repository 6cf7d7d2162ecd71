import { Injectable, Logger } from '@nestjs/common';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { once } from 'node:events';
import { basename } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { ResultsRpc, type MaskedResultDto, type ModelBatchResultDto, type ModelResultDto, type Principal, type VoteDto } from '#qdc/contracts';
import { InputBlobStore, RpcClient } from '#qdc/platform';
import { ApiError, invalid } from '../http/api-errors.js';

export interface ResultsQuery {
  skip: number;
  limit: number;
  model?: string;
  startDate?: string;
  endDate?: string;
}

@Injectable()
export class ModelResultsService {
  private readonly logger = new Logger(ModelResultsService.name);

  constructor(
    private readonly rpc: RpcClient,
    private readonly inputs: InputBlobStore,
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
   * was stored: the same result always downloads as the same bytes (before and after a backup's restore too). The
   * input streams from the input store into the zip and out (stored, not deflated: arrays hardly compress), so a large
   * one is never whole in the gateway's memory. An input the store no longer holds is a 404 before anything is sent.
   */
  async download(caller: Principal, id: string): Promise<{ fileName: string; zip: Readable }> {
    const stored = await this.rpc.call(ResultsRpc.download, { ownerId: caller.ownerId, id });
    const input =
      'inputBlob' in stored.input
        ? await this.inputs.open(stored.input.inputBlob)
        : { data: oneChunk(await this.inputs.read(stored.input)), error: Promise.resolve(null) };
    if (!input)
      throw new ApiError(404, `The input file of model result ${stored.result.id} is missing from the input store; the result itself is still stored`);
    let inputName = basename(stored.inputFileName.replace(/\\/g, '/')) || 'data';
    if (inputName === 'result.json') inputName = 'input_result.json';
    const zip = new PassThrough();
    const archive = new Zip((error, chunk, final) => {
      if (error) return void zip.destroy(error);
      zip.write(chunk);
      if (final) zip.end();
    });
    const json = new ZipDeflate('result.json', { level: 6 });
    json.mtime = stored.result.created_at;
    archive.add(json);
    json.push(new TextEncoder().encode(JSON.stringify(stored.result, null, 2)), true);
    const file = new ZipPassThrough(inputName);
    file.mtime = stored.result.created_at;
    archive.add(file);
    void pipeInto(input, file, zip).then(
      () => archive.end(),
      (error: Error) => {
        this.logger.warn(`download of result ${stored.result.id} broke off: ${error.message}`);
        zip.destroy(error);
      },
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

/** An older row's input bytes (held by Postgres) as a stream, to take the same way as a stored input. */
const oneChunk = (bytes: Uint8Array): ReadableStream<Uint8Array> =>
  new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

/** The input's bytes into the zip entry, waiting while the response is behind; fails if the object did not arrive whole. */
async function pipeInto(input: { data: ReadableStream<Uint8Array>; error: Promise<Error | null> }, entry: ZipPassThrough, out: PassThrough): Promise<void> {
  for await (const chunk of input.data) {
    entry.push(chunk);
    if (out.writableNeedDrain) await once(out, 'drain');
  }
  const error = await input.error;
  if (error) throw error;
  entry.push(new Uint8Array(0), true);
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
