/** Baseline for bench:perf (a): the bare Fastify hello-world, in its own process like the gateway. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
