import { Injectable } from '@nestjs/common';
import {
  CircuitToolsRpc,
  type CircuitsCodeRequest,
  type CircuitsSimulateRequest,
  type CircuitsSplitRequest,
  type CircuitsTranspileRequest,
} from '#qdc/contracts';
import { RpcHandler, type RpcContext } from '#qdc/platform';
import { CircuitToolsService } from './circuit-tools.service.js';

/** NATS consumers of the circuit tools: parse, delegate, reply. */
@Injectable()
export class CircuitToolsHandlers {
  constructor(private readonly tools: CircuitToolsService) {}

  @RpcHandler(CircuitToolsRpc.transpile)
  transpile(msg: CircuitsTranspileRequest) {
    return this.tools.transpile(msg);
  }

  @RpcHandler(CircuitToolsRpc.toOpenQasm3)
  toOpenQasm3(msg: CircuitsCodeRequest) {
    return this.tools.toOpenQasm3(msg);
  }

  @RpcHandler(CircuitToolsRpc.estimateResources)
  estimateResources(msg: CircuitsCodeRequest) {
    return this.tools.estimateResources(msg);
  }

  @RpcHandler(CircuitToolsRpc.split)
  split(msg: CircuitsSplitRequest) {
    return this.tools.split(msg);
  }

  @RpcHandler(CircuitToolsRpc.simulate)
  simulate(msg: CircuitsSimulateRequest, ctx: RpcContext) {
    return this.tools.simulate(msg, ctx.requestId);
  }
}
