/**
 * The monolith baseline of bench:perf (b): what a user would build instead of QDC — ONE process doing the run's work
 * with QDC's own model code and nothing between processes: Fastify `POST /v0/models` (multipart, @fastify/multipart)
 * → bearer-key check (SHA-256 of the key against the key's hash) → `.npy` decode with the model's limits → the model →
 * one `INSERT` committed in Postgres → the result's JSON. No queue, no retries, no idempotency, no persistence before
 * an acknowledgement of the job, no workers scaled apart from the front: what the distributed design's guarantees cost
 * is QDC's numbers divided by this one's.
 * `node dist/bench/perf/monolith.js`; env: DATABASE_URL, MONOLITH_KEY (the bearer key it accepts). Prints its port.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
import pg from 'pg';
import { decodeArray } from '#qdc/arrays';
import { inputDecodeLimits, runModel } from '#qdc/characterization';

const UPLOAD_LIMIT_BYTES = 64 * 1024 * 1024;
const keyHash = createHash('sha256')
  .update(process.env.MONOLITH_KEY ?? '')
  .digest();
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 8 });
await pool.query(`CREATE TABLE IF NOT EXISTS bench_monolith_results (
  id uuid PRIMARY KEY, owner_id text, model text, input_file_name text, input_file_size int, output json, input bytea,
  created_at timestamptz DEFAULT now())`);

const app = Fastify({ logger: false, bodyLimit: UPLOAD_LIMIT_BYTES });
await app.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES } });

app.post('/v0/models', async (request, reply) => {
  const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
  if (!timingSafeEqual(createHash('sha256').update(token).digest(), keyHash)) return reply.status(401).send({ detail: 'Invalid API key' });
  let model = '';
  let fileName = '';
  let bytes: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      fileName = part.filename;
      bytes = await part.toBuffer();
    } else if (part.fieldname === 'model') model = String(part.value);
  }
  if (!model || !bytes) return reply.status(422).send({ detail: 'model and data are required' });
  let output: Record<string, unknown>;
  try {
    output = runModel(model, decodeArray(bytes, inputDecodeLimits(model, UPLOAD_LIMIT_BYTES)));
  } catch (error) {
    return reply.status(422).send({ detail: (error as Error).message });
  }
  const id = randomUUID();
  const outputJson = JSON.stringify(output);
  const { rows } = await pool.query<{ created_at: Date }>(
    'INSERT INTO bench_monolith_results (id, owner_id, model, input_file_name, input_file_size, output, input) VALUES ($1, $2, $3, $4, $5, $6::json, $7) RETURNING created_at',
    [id, 'bench', model, fileName, bytes.length, outputJson, bytes],
  );
  const result = {
    id,
    model,
    created_at: rows[0]!.created_at.toISOString(),
    input_file_name: fileName,
    input_file_size: bytes.length,
    output,
    user_vote: null,
  };
  return reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(result));
});

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${(app.server.address() as { port: number }).port}\n`);
