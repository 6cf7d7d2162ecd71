import { HttpException, Injectable } from '@nestjs/common';
import { gzipSync } from 'node:zlib';
import { MODEL_CATALOGUE, findModel, type ModelSpec } from '#qdc/characterization';
import { RpcError, type Principal } from '#qdc/contracts';
import { InputBlobStore, PayloadStore, type ReceivedInput } from '#qdc/platform';
import { ApiError, invalid } from '../http/api-errors.js';
import type { MultipartUpload } from '../http/multipart-upload.js';
import { boolField } from '../http/query.js';
import { ModelRunService } from './model-run.service.js';
import { RunCountsCache } from './run-counts.cache.js';

export interface ModelDto {
  id: string;
  name: string;
  description: string;
  released: string;
  number_of_runs: number;
  input_shape_requirements: string;
  nn_input_shape_requirements: string[] | null;
  nn_output_shape_requirements: string[] | null;
}

@Injectable()
export class ModelsService {
  constructor(
    private readonly payloads: PayloadStore,
    private readonly runCounts: RunCountsCache,
    private readonly runs: ModelRunService,
    private readonly inputs: InputBlobStore,
  ) {}

  /** The serialised page last asked for; `GET /models` is the hottest route and rarely changes. */
  private listed?: { key: string; json: Buffer; gzipped?: Buffer };

  /**
   * The page as UTF-8 JSON bytes (gzipped when asked), rebuilt only when a run count changed or another page is
   * asked for. Bytes, not a string: the descriptions are not ASCII, and encoding ~20 kB of text on every response
   * was the route's main cost. The gzipped page (a quarter of the size) is made once per rebuild, when first asked.
   */
  async listJson(skip: number, limit: number, gzip = false): Promise<Buffer> {
    const counts = await this.runCounts.all();
    const key = `${this.runCounts.version}:${skip}:${limit}`;
    if (this.listed?.key !== key) {
      const models = MODEL_CATALOGUE.slice(skip, skip + limit).map((spec) => toDto(spec, counts.get(spec.id) ?? 0));
      this.listed = { key, json: Buffer.from(JSON.stringify(models)) };
    }
    if (!gzip) return this.listed.json;
    this.listed.gzipped ??= gzipSync(this.listed.json);
    return this.listed.gzipped;
  }

  async get(id: string): Promise<ModelDto> {
    const spec = findModel(id);
    if (!spec) throw new ApiError(404, 'Model not found');
    return toDto(spec, (await this.runCounts.all()).get(spec.id) ?? 0);
  }

  /**
   * Runs a model on the uploaded file (ModelRunService: queue + worker) and returns the stored result as the JSON bytes
   * the worker wrote, sent unchanged. The model id is resolved before the upload moves; the worker validates the input.
   */
  async run(principal: Principal, upload: MultipartUpload<ReceivedInput>, batch: boolean, freshRequestId = false): Promise<Buffer> {
    const file = upload.file?.content;
    try {
      const model = upload.fields.model;
      if (!model) throw invalid(['body', 'model'], 'Field required: the model id, e.g. coulomb-blockade-peak-detector-v2', 'missing');
      if (!upload.file || !file) throw invalid(['body', 'data'], 'Field required: a .npy or .pt file in the multipart field "data"', 'missing');
      const plot = boolField(upload.fields.plot, ['body', 'plot']);
      const darkMode = boolField(upload.fields.dark_mode, ['body', 'dark_mode']);
      this.runs.resolveModel(model, batch);
      const response = await this.runs.run({
        ownerId: principal.ownerId,
        model,
        input: file.input,
        inputSha256: file.sha256,
        inputFileName: upload.file.fileName,
        inputFileSize: file.size,
        flags: { batch, plot, darkMode },
        freshRequestId,
      });
      const result = await this.payloads.fromBinaryRef(response.result);
      return Buffer.from(result.buffer, result.byteOffset, result.byteLength);
    } catch (error) {
      // A stored file that will never be a result's input (the request or the file was refused) goes now; any other
      // (a run that may still finish) is left to the results service's sweep of unreferenced inputs.
      if (file && 'inputBlob' in file.input && isFinalRefusal(error)) void this.inputs.remove(file.input.inputBlob).catch(() => undefined);
      throw error;
    }
  }
}

const isFinalRefusal = (error: unknown): boolean =>
  error instanceof RpcError ? error.code === 'invalid_input' || error.code === 'not_found' : error instanceof HttpException && error.getStatus() < 500;

function toDto(spec: ModelSpec, numberOfRuns: number): ModelDto {
  return {
    id: spec.id,
    name: spec.name,
    description: spec.description,
    released: spec.released,
    number_of_runs: numberOfRuns,
    input_shape_requirements: spec.inputShapeRequirements,
    nn_input_shape_requirements: spec.nnInputShapeRequirements,
    nn_output_shape_requirements: spec.nnOutputShapeRequirements,
  };
}
