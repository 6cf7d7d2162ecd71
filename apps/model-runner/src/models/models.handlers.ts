import { Injectable } from '@nestjs/common';
import { MODEL_CATALOGUE, findModel } from '#qdc/characterization';
import { ModelsRunRequest, RpcError, Subjects, type ModelsRunResponse } from '#qdc/contracts';
import { RpcHandler, type RpcContext } from '#qdc/platform';
import { InferenceProducer } from '../inference/inference.producer.js';

const BATCH_MODELS = MODEL_CATALOGUE.filter((m) => m.batch).map((m) => m.id);

@Injectable()
export class ModelsHandlers {
  constructor(private readonly inference: InferenceProducer) {}

  @RpcHandler(Subjects.ModelsRun, ModelsRunRequest)
  async run(msg: ModelsRunRequest, ctx: RpcContext): Promise<ModelsRunResponse> {
    const spec = findModel(msg.model);
    if (!spec) throw new RpcError('not_found', 'Model not found');
    if (msg.batch && !spec.batch) {
      throw new RpcError('invalid_input', `model ${msg.model} does not support batch runs; models that batch: ${BATCH_MODELS.join(', ')}`, { type: 'value_error.batch', loc: ['body', 'model'] });
    }
    const outcome = await this.inference.run({ ...msg, requestId: ctx.requestId }, this.inference.jobIdFor(msg, ctx.requestId));
    if (!outcome.ok) throw new RpcError(outcome.error.code, outcome.error.message, outcome.error.details);
    return outcome.response;
  }
}
