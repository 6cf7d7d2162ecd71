import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { healthSubject } from '#qdc/contracts';
import { NatsService } from '#qdc/platform';
import { Public } from '../auth/auth.decorators.js';

@Controller()
@Public()
export class HealthController {
  constructor(private readonly nats: NatsService) {}

  @Get(['v0/health', 'v0/coda/health', 'health'])
  health() {
    return { status: 'ok' };
  }

  /** Liveness: the process serves HTTP. */
  @Get('livez')
  livez() {
    return { status: 'ok' };
  }

  /** Readiness: NATS is up and the services behind the control and coda APIs answer (pinged in parallel). */
  @Get('readyz')
  @HttpCode(200)
  async readyz(@Res() reply: FastifyReply) {
    const ping = (service: 'results' | 'model-runner' | 'qpu-broker') =>
      this.nats.request(healthSubject(service), {}, { timeoutMs: 1500 }).then(
        () => true,
        () => false,
      );
    const [results, modelRunner, qpuBroker] = await Promise.all([ping('results'), ping('model-runner'), ping('qpu-broker')]);
    const checks = { nats: this.nats.isConnected, results, 'model-runner': modelRunner, 'qpu-broker': qpuBroker };
    const ok = Object.values(checks).every(Boolean);
    await reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  }
}
