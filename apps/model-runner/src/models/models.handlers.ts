import { Injectable } from '@nestjs/common';
import { ModelsRunRequest, Subjects, type ModelsRunResponse } from '#qdc/contracts';
import { RpcHandler, type RpcContext } from '#qdc/platform';
import { InferenceProducer } from '../inference/inference.producer.js';

/** The model id was resolved by the gateway and the input is validated by the worker: this only queues the run. */
@Injectable()
export class ModelsHandlers {
  constructor(private readonly inference: InferenceProducer) {}

  @RpcHandler(Subjects.ModelsRun, ModelsRunRequest)
  run(msg: ModelsRunRequest, ctx: RpcContext): Promise<ModelsRunResponse> {
    return this.inference.run({ ...msg, requestId: ctx.requestId }, this.inference.jobIdFor(msg, ctx.requestId));
  }
}
