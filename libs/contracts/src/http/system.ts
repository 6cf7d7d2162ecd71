import { z } from 'zod';

/** `GET /v0/health` (also `/v0/coda/health`, `/health`) and the liveness probe `/livez`. */
export const HealthHttpResponse = z.object({ status: z.literal('ok') }).meta({ id: 'Health' });
export type HealthHttpResponse = z.infer<typeof HealthHttpResponse>;

/** `GET /readyz`: 200 when NATS, Redis and the services behind the API answer, else 503 with the same body. */
export const ReadinessHttpResponse = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    checks: z.object({ nats: z.boolean(), redis: z.boolean(), results: z.boolean(), 'qpu-broker': z.boolean() }),
  })
  .meta({ id: 'Readiness' });
export type ReadinessHttpResponse = z.infer<typeof ReadinessHttpResponse>;
