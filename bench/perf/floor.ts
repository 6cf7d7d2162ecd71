/**
 * The floor of bench:perf (b): the run path's hops with nothing of QDC's in them, each in its own process as in QDC,
 * on the same Redis, NATS and Postgres. `node dist/bench/perf/floor.js <role>`:
 *  - front:  bare Fastify `POST /run` (body as bytes) → BullMQ add → waits for the outcome on one NATS subscription
 *  - worker: bare BullMQ Worker (concurrency 1) → NATS request to `store` → publishes the outcome → completes the job
 *  - store:  NATS responder (queue group) → one INSERT (id, bytes, created_at) into Postgres, committed → replies
 * Same libraries and settings that matter (BullMQ defaults, one Redis connection per role, NATS, pg pool), no auth,
 * multipart, validation, logging, request context or model. QDC's path divided by this is what QDC itself adds;
 * what this takes is what the machine charges for the hops the architecture asks for (queue, persist before ack).
 * Env: REDIS_URL, NATS_URL, DATABASE_URL, FLOOR_PREFIX (keys and subjects).
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Queue, Worker } from 'bullmq';
import Fastify from 'fastify';
import pg from 'pg';

const prefix = process.env.FLOOR_PREFIX ?? `floor-${process.pid}`;
const connection = { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', maxRetriesPerRequest: null };
const queueName = 'floor';
const encoder = new TextEncoder();

async function nats(): Promise<NatsConnection> {
  return connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', noAsyncTraces: true });
}

async function front(): Promise<void> {
  const nc = await nats();
  // Completed jobs are removed at once: the floor leaves a few queue keys in Redis, not one per run.
  const queue = new Queue(queueName, { connection, prefix, defaultJobOptions: { removeOnComplete: true } });
  const waiting = new Map<string, (data: Uint8Array) => void>();
  const inbox = `${prefix}.outcome`;
  nc.subscribe(`${inbox}.*`, { callback: (_error, msg) => waiting.get(msg.subject.slice(inbox.length + 1))?.(msg.data) });
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post('/run', async (request, reply) => {
    const jobId = randomUUID();
    const outcome = new Promise<Uint8Array>((resolve) => waiting.set(jobId, resolve));
    await queue.add('run', { input: (request.body as Buffer).toString('base64'), inbox }, { jobId });
    const data = await outcome;
    waiting.delete(jobId);
    return reply.header('content-type', 'application/json').send(Buffer.from(data));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
}

async function worker(): Promise<void> {
  const nc = await nats();
  const work = new Worker(
    queueName,
    async (job) => {
      const stored = await nc.request(`${prefix}.store`, encoder.encode(JSON.stringify({ jobId: job.id, input: job.data.input })), { timeout: 10_000 });
      nc.publish(`${job.data.inbox}.${job.id}`, stored.data);
    },
    { connection, prefix, concurrency: 1 },
  );
  await work.waitUntilReady();
  process.stdout.write('ready\n');
}

async function store(): Promise<void> {
  const nc = await nats();
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  await pool.query('CREATE TABLE IF NOT EXISTS bench_floor_runs (id uuid PRIMARY KEY, job_id text UNIQUE, created_at timestamptz DEFAULT now(), input bytea)');
  nc.subscribe(`${prefix}.store`, {
    queue: 'store',
    callback: (_error, msg) => {
      const { jobId, input } = JSON.parse(new TextDecoder().decode(msg.data)) as { jobId: string; input: string };
      const id = randomUUID();
      pool
        .query('INSERT INTO bench_floor_runs (id, job_id, input) VALUES ($1, $2, $3) RETURNING created_at', [id, jobId, Buffer.from(input, 'base64')])
        .then((r) => msg.respond(encoder.encode(JSON.stringify({ id, createdAt: r.rows[0].created_at }))));
    },
  });
  await nc.flush();
  process.stdout.write('ready\n');
}

const roles: Record<string, () => Promise<void>> = { front, worker, store };
await roles[process.argv[2] ?? '']!();
