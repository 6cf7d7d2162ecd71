import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { healthRpc } from '#qdc/contracts';
import { NatsConnection, RpcClient } from '#qdc/platform';
import { Public } from '../auth/auth.decorators.js';
import { ModelRunService } from '../models/model-run.service.js';

@Controller()
@Public()
export class HealthController {
  constructor(
    private readonly nats: NatsConnection,
    private readonly rpc: RpcClient,
    private readonly runs: ModelRunService,
  ) {}

  @Get(['v0/health', 'v0/coda/health', 'health'])
  health() {
    return { status: 'ok' };
  }

  /** Liveness: the process serves HTTP. */
  @Get('livez')
  livez() {
    return { status: 'ok' };
  }

  /**
   * Readiness: NATS and Redis (the inference queue) are up and the services behind the control and coda APIs answer
   * (pinged in parallel). Inference workers are not required: they may be scaled to zero by queue depth.
   */
  @Get('readyz')
  @HttpCode(200)
  async readyz(@Res() reply: FastifyReply) {
    const ping = (service: 'results' | 'qpu-broker') =>
      // noRespondersGraceMs 0: readiness is "answering now"; a request would wait for a restarting service instead.
      this.rpc.call(healthRpc(service), {}, { timeoutMs: 1500, noRespondersGraceMs: 0 }).then(
        () => true,
        () => false,
      );
    const [results, qpuBroker, redis] = await Promise.all([ping('results'), ping('qpu-broker'), this.runs.isQueueReady()]);
    const checks = { nats: this.nats.isConnected, redis, results, 'qpu-broker': qpuBroker };
    const ok = Object.values(checks).every(Boolean);
    await reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  }
}
