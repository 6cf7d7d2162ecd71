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

  /** Readiness: NATS is up and the services behind the control API answer. */
  @Get('readyz')
  @HttpCode(200)
  async readyz(@Res() reply: FastifyReply) {
    const ping = (service: 'results' | 'model-runner') =>
      this.nats.request(healthSubject(service), {}, { timeoutMs: 1500 }).then(
        () => true,
        () => false,
      );
    const checks = { nats: this.nats.isConnected, results: await ping('results'), 'model-runner': await ping('model-runner') };
    const ok = Object.values(checks).every(Boolean);
    await reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', checks });
  }
}
