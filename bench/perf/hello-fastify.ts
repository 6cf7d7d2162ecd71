/**
 * Baselines for bench:perf (a), in their own process like the gateway: the bare Fastify hello-world at `/`, and
 * at `/same` the bytes of the file BENCH_SAME_BODY (our `GET /v0/models` body), to separate payload from framework.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const same = process.env.BENCH_SAME_BODY ? readFileSync(process.env.BENCH_SAME_BODY) : Buffer.alloc(0);
app.get('/same', (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(same));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
