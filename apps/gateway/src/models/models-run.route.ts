import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ArrayDecodeError, checkNpyPrefix } from '#qdc/arrays';
import { inputDecodeLimits } from '#qdc/characterization';
import { InputBlobStore, QDC_CONFIG, type QdcConfig, withRequestId } from '#qdc/platform';
import { Authenticator } from '../auth/authenticator.js';
import { invalid } from '../http/api-errors.js';
import { sendException } from '../http/exception.filter.js';
import { EarlyRefusal, drainAfterRefusal, readMultipart, type UploadInspector } from '../http/multipart-upload.js';
import { ModelRunService } from './model-run.service.js';
import { MODELS_LIST_PATHS } from './models-list.route.js';
import { ModelsService } from './models.service.js';

/**
 * `POST /models` and `POST /models/batch` (both bases) as plain Fastify routes, like `GET /models`: a small run is a
 * few milliseconds end to end, and Nest's per-request pipeline (guard, interceptor, parameter factories, response
 * handling through RxJS) was about a tenth of the gateway's CPU per run (bench:perf (b), CPU profile). Same
 * Authenticator (401/403/429), request-id context and error mapping as the Nest routes, including errors raised
 * before the handler (a body that is not the multipart it claims to be).
 */
/** Room for the text fields and the multipart framing besides the file itself (16 fields of ≤ 64 KiB). */
const MULTIPART_ALLOWANCE_BYTES = 16 * 64 * 1024 + 64 * 1024;
/** Forms up to this size are read whole and split without busboy (readMultipart): every small run's is. */
const SMALL_FORM_BYTES = 64 * 1024;

@Injectable()
export class ModelsRunRoute implements OnModuleInit {
  private readonly logger = new Logger('HTTP');

  constructor(
    private readonly host: HttpAdapterHost,
    private readonly authenticator: Authenticator,
    private readonly models: ModelsService,
    private readonly runs: ModelRunService,
    private readonly inputs: InputBlobStore,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.host.httpAdapter.getInstance<FastifyInstance>();
    for (const base of MODELS_LIST_PATHS) {
      for (const batch of [false, true]) {
        fastify.route({
          method: 'POST',
          url: batch ? `${base}/batch` : base,
          handler: (request, reply) => withRequestId(request.id, () => this.run(request, reply, batch)),
          errorHandler: (error: FastifyError, request, reply) => this.fail(error, request, reply),
        });
      }
    }
  }

  private async run(request: FastifyRequest, reply: FastifyReply, batch: boolean): Promise<FastifyReply> {
    try {
      const principal = await this.authenticator.authenticate(request.headers.authorization, 'control');
      // A body that says it is larger than any accepted upload is refused before it is read.
      const declared = Number(request.headers['content-length']);
      if (declared > this.config.QDC_UPLOAD_LIMIT_BYTES + MULTIPART_ALLOWANCE_BYTES) {
        throw new EarlyRefusal(
          Object.assign(new Error(`${declared} bytes declared; uploads are limited to ${this.config.QDC_UPLOAD_LIMIT_BYTES} bytes`), { statusCode: 413 }),
        );
      }
      // A request id the client did not send was made here (requestIdFor): no earlier job can have it.
      const sent = request.headers['x-request-id'];
      const fresh = (Array.isArray(sent) ? sent[0] : sent) !== request.id;
      // The file streams into the input store as it arrives (a small one stays inline), hashed on the way.
      const upload = await readMultipart(
        request,
        'data',
        (chunks) => this.inputs.receive(chunks),
        this.inspector(batch),
        Math.min(SMALL_FORM_BYTES, this.config.QDC_UPLOAD_LIMIT_BYTES),
      );
      const result = await this.models.run(principal, upload, batch, fresh);
      return reply.status(200).header('content-type', 'application/json; charset=utf-8').send(result);
    } catch (exception) {
      if (!(exception instanceof EarlyRefusal)) return this.fail(exception, request, reply);
      // Answered now; the rest of the body is read and dropped (not buffered, stored or queued).
      const sent = this.fail(exception.refusal, request, reply);
      drainAfterRefusal(request);
      return sent;
    }
  }

  /**
   * What the start of an upload already decides: an unknown model (or a batch run of one that does not batch) as
   * soon as the `model` field has come, and a .npy file whose header declares more elements than the model takes
   * (the worker's own decode limit, the same 422) as soon as its header has come — not after all of it.
   */
  private inspector(batch: boolean): UploadInspector {
    return (fields, prefix) => {
      const model = fields.model;
      if (!model) return true;
      this.runs.resolveModel(model, batch);
      try {
        return checkNpyPrefix(prefix, inputDecodeLimits(model, this.config.QDC_UPLOAD_LIMIT_BYTES)) !== 'more';
      } catch (error) {
        if (error instanceof ArrayDecodeError) throw invalid(['body', 'data'], error.message, error.type);
        throw error;
      }
    };
  }

  private fail(exception: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    return sendException(reply, exception, request, this.logger);
  }
}
