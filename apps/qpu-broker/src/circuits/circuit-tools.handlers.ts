import { Injectable } from '@nestjs/common';
import { CircuitsCodeRequest, CircuitsSimulateRequest, CircuitsSplitRequest, CircuitsTranspileRequest, Subjects } from '#qdc/contracts';
import { RpcHandler, type RpcContext } from '#qdc/platform';
import { CircuitToolsService } from './circuit-tools.service.js';

/** NATS consumers of the circuit tools: parse, delegate, reply. */
@Injectable()
export class CircuitToolsHandlers {
  constructor(private readonly tools: CircuitToolsService) {}

  @RpcHandler(Subjects.CircuitsTranspile, CircuitsTranspileRequest)
  transpile(msg: CircuitsTranspileRequest) {
    return this.tools.transpile(msg);
  }

  @RpcHandler(Subjects.CircuitsToQasm3, CircuitsCodeRequest)
  toOpenQasm3(msg: CircuitsCodeRequest) {
    return this.tools.toOpenQasm3(msg);
  }

  @RpcHandler(Subjects.CircuitsResources, CircuitsCodeRequest)
  estimateResources(msg: CircuitsCodeRequest) {
    return this.tools.estimateResources(msg);
  }

  @RpcHandler(Subjects.CircuitsSplit, CircuitsSplitRequest)
  split(msg: CircuitsSplitRequest) {
    return this.tools.split(msg);
  }

  @RpcHandler(Subjects.CircuitsSimulate, CircuitsSimulateRequest)
  simulate(msg: CircuitsSimulateRequest, ctx: RpcContext) {
    return this.tools.simulate(msg, ctx.requestId);
  }
}
