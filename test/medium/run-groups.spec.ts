import { createHash, randomUUID } from 'node:crypto';
import { encodeNpy } from '#qdc/arrays';
import { runModel } from '#qdc/characterization';
import type { GroupedRun, RunGroupJobData } from '#qdc/contracts';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { EventBus, NatsConnection, PayloadStore, RunGroupProducer, loadConfig } from '#qdc/platform';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

/**
 * Dynamic batching of small runs through the real gateway, Redis (BullMQ), worker, results and Postgres: concurrent
 * runs share jobs, each answered with its own stored result or its own error; a group delivered twice (a worker that
 * died after results stored it) stores nothing twice.
 */
describe('run groups (dynamic batching of concurrent small runs)', () => {
  let sut: TestSystem;
  let key: string;

  beforeAll(async () => {
    // A long wait bound: the groups here form because the worker slots are busy, whatever the machine's speed.
    sut = await startSystem({ workers: 1, env: { QDC_RUN_GROUP_WAIT_MS: '1000' } });
    key = await sut.createKey('group-lab', 'control');
  });
  afterAll(async () => {
    await sut?.stop();
  });

  const groupSize = async (): Promise<{ count: number; sum: number }> => {
    const text = await (await fetch(`${sut.baseUrl}/metrics`)).text();
    const read = (series: string) => Number(text.match(new RegExp(`^${series}\\{[^}]*\\} (\\S+)$`, 'm'))?.[1] ?? 0);
    return { count: read('qdc_run_group_size_count'), sum: read('qdc_run_group_size_sum') };
  };

  it('answers each of 20 concurrent runs its own stored result or its own 422, in fewer jobs than runs', async () => {
    const before = await groupSize();
    const seeds = tuningSeeds(20, 2901);
    const traces = seeds.map((seed, k) =>
      k % 9 === 4 ? new Float64Array(128).fill(Number.NaN) : generateCoulombPeakTrace(seed, { length: 128, kind: 'peaks' }).trace,
    );
    const answers = await Promise.all(
      traces.map(async (trace, k) => {
        const res = await fetch(`${sut.baseUrl}/v0/models`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
          body: multipart({ model: PEAK_V2 }, { name: `t${k}.npy`, bytes: encodeNpy({ shape: [128], data: trace }) }),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      }),
    );

    const bad = answers.flatMap((a, k) => (k % 9 === 4 ? [a] : []));
    expect(bad.map((a) => a.status)).toEqual([422, 422]);
    for (const a of bad) expect(JSON.stringify(a.body.detail)).toMatch(/finite/);
    const good = answers.flatMap((a, k) => (k % 9 === 4 ? [] : [{ ...a, k }]));
    for (const { status, body, k } of good) {
      expect(status).toBe(200);
      expect(body).toMatchObject({ model: PEAK_V2, input_file_name: `t${k}.npy`, input_file_size: 1152, user_vote: null });
      expect(body.output).toEqual(runModel(PEAK_V2, { shape: [128], data: traces[k]! }));
      const stored = await (await fetch(`${sut.baseUrl}/v0/model-results/${body.id}`, { headers: { authorization: `Bearer ${key}` } })).json();
      expect(stored).toEqual(body);
    }
    expect(new Set(good.map((a) => a.body.id)).size).toBe(18);
    const rows = await sut.query<{ n: number; jobs: number }>('SELECT count(*)::int AS n, count(DISTINCT job_id)::int AS jobs FROM model_results');
    expect(rows).toEqual([{ n: 18, jobs: 18 }]);
    expect(await sut.query('SELECT runs FROM model_run_counters WHERE model_id = $1', [PEAK_V2])).toEqual([{ runs: 18 }]);
    // Every run went through a group, and the groups were fewer than the runs.
    const after = await groupSize();
    expect(after.sum - before.sum).toBe(20);
    expect(after.count - before.count).toBeLessThan(20);
  });

  it('stores a group delivered twice once, and answers the second delivery with the same results', async () => {
    const config = loadConfig({ ...sut.env });
    const nats = new NatsConnection(config, 'run-groups-test');
    await nats.connect();
    const producer = new RunGroupProducer(config, new EventBus(nats, new PayloadStore(nats, config)));
    try {
      const [owner] = await sut.query<{ id: string }>("SELECT id FROM owners WHERE name = 'group-lab'");
      const runs: GroupedRun[] = [7, 8, 9].map((n) => {
        const bytes = encodeNpy({ shape: [128], data: generateCoulombPeakTrace(tuningSeeds(1, 2950 + n)[0]!, { length: 128, kind: 'peaks' }).trace });
        return {
          jobId: `run-redelivered-${n}-${randomUUID()}`,
          requestId: `req-${n}`,
          model: PEAK_V2,
          inputFileName: `r${n}.npy`,
          inputFileSize: bytes.length,
          input: { inline: Buffer.from(bytes).toString('base64') },
          inputSha256: createHash('sha256').update(bytes).digest('hex'),
        };
      });
      const data: RunGroupJobData = { ownerId: owner!.id, runs, requestId: 'group-redelivered' };
      const first = await producer.run(data, `group-${randomUUID()}`, { fresh: true });
      const second = await producer.run(data, `group-${randomUUID()}`, { fresh: true });

      const ids = (answer: typeof first) => answer.runs.map((r) => (r.ok ? r.response.resultId : r.error.message));
      expect(ids(second)).toEqual(ids(first));
      const jobIds = runs.map((r) => r.jobId);
      expect(await sut.query('SELECT count(*)::int AS n FROM model_results WHERE job_id = ANY($1::text[])', [jobIds])).toEqual([{ n: 3 }]);
    } finally {
      await producer.close();
      await nats.onApplicationShutdown();
    }
  });
});
