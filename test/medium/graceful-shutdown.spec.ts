import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { SHUTTING_DOWN_DETAIL } from '../../apps/gateway/src/http/draining.js';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

/** A batch that keeps a worker busy for a while (tens to hundreds of ms), so SIGTERM finds jobs in flight. */
function batchBytes(rows: number): Uint8Array {
  const trace = generateCoulombPeakTrace(tuningSeeds(1, 9090)[0]!, { length: 128, kind: 'peaks', snrRange: [30, 40] }).trace;
  const flat = new Float32Array(rows * 128);
  for (let r = 0; r < rows; r++) flat.set(trace, r * 128);
  return encodeNpy({ shape: [rows, 128], data: flat }, { dtype: 'f4' });
}

interface Answer {
  status: number | 'connection-error';
  at: number;
  body: string;
  retryAfter?: string | null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const exited = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve({ code: child.exitCode, signal: child.signalCode })
      : child.once('exit', (code, signal) => resolve({ code, signal })),
  );

/**
 * SIGTERM under load drains instead of dropping work: an inference worker finishes its job before it exits (no
 * failed request, one result per answer); the gateway answers the requests in flight, refuses new ones with the
 * documented 503 (`{detail}`, Retry-After, Connection: close) or not at all (its port is closed), and nothing is stored that no client got.
 */
describe('graceful shutdown (SIGTERM under load)', () => {
  let sut: TestSystem;
  let key: string;
  const bytes = batchBytes(4000);

  beforeAll(async () => {
    sut = await startSystem({ workers: 2, env: { QDC_SHUTDOWN_GRACE_MS: '20000' } });
    key = await sut.createKey('shutdown-lab', 'control');
  });
  afterAll(async () => {
    await sut?.stop();
  });

  /** `clients` loops of batch runs against `baseUrl` until `stop()`; each answer with the time it came. */
  let loadRuns = 0;
  const load = (baseUrl: string, clients: number) => {
    const answers: Answer[] = [];
    let running = true;
    let n = 0;
    const prefix = `shutdown-${loadRuns++}`; // request ids unique across loads (a reused one is an idempotent replay)
    const loops = Array.from({ length: clients }, async () => {
      while (running) {
        const requestId = `${prefix}-${n++}`;
        try {
          const res = await fetch(`${baseUrl}/v0/models/batch`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId },
            body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: `${requestId}.npy`, bytes }),
          });
          answers.push({ status: res.status, at: Date.now(), body: await res.text(), retryAfter: res.headers.get('retry-after') });
        } catch {
          answers.push({ status: 'connection-error', at: Date.now(), body: '' });
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });
    const stop = async () => {
      running = false;
      await Promise.all(loops);
    };
    return { answers, stop };
  };

  const storedResults = async () => (await sut.query<{ n: number }>('SELECT count(*)::int AS n FROM model_results'))[0]!.n;

  it('an inference worker finishes its current job on SIGTERM: every request answered 200, one result each', async () => {
    const before = await storedResults();
    const traffic = load(sut.baseUrl, 4);
    await new Promise((r) => setTimeout(r, 3000));
    const victim = sut.processes.get('worker-0')!;
    const sentAt = Date.now();
    victim.kill('SIGTERM');
    const exit = await exited(victim);
    const drainedMs = Date.now() - sentAt;
    await new Promise((r) => setTimeout(r, 2000)); // the other worker keeps serving
    await traffic.stop();

    expect(drainedMs).toBeLessThan(20_000); // within the grace period, not killed by it
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    const statuses = traffic.answers.map((a) => a.status);
    expect(statuses.length).toBeGreaterThan(4);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect((await storedResults()) - before).toBe(statuses.length);
  });

  it('a gateway replica drains on SIGTERM: in-flight requests answered, new ones 503 or refused, nothing stored unanswered', async () => {
    const port = await freePort();
    const second = sut.launch('gateway-2', 'dist/apps/gateway/src/main.js', { PORT: String(port) });
    const secondUrl = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 60_000; ; ) {
      if (
        await fetch(`${secondUrl}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (Date.now() > deadline) throw new Error('second gateway did not become ready');
      await new Promise((r) => setTimeout(r, 200));
    }
    const before = await storedResults();
    const traffic = load(sut.baseUrl, 6);
    await new Promise((r) => setTimeout(r, 3000));
    const victim = sut.processes.get('gateway')!;
    const sentAt = Date.now();
    victim.kill('SIGTERM');
    const exit = await exited(victim);
    await traffic.stop();

    expect(Date.now() - sentAt).toBeLessThan(20_000);
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    const byStatus = new Map<Answer['status'], number>();
    for (const a of traffic.answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
    // Only 200, the documented shutdown 503, or no connection (the port is closed): never a 500.
    expect([...byStatus.keys()].filter((s) => s !== 200 && s !== 503 && s !== 'connection-error')).toEqual([]);
    for (const a of traffic.answers.filter((x) => x.status === 503)) {
      expect(JSON.parse(a.body)).toEqual({ detail: SHUTTING_DOWN_DETAIL });
      expect(a.retryAfter).toBe('2');
    }
    // Requests in flight at the signal were answered after it, not cut off.
    expect(traffic.answers.some((a) => a.status === 200 && a.at > sentAt)).toBe(true);
    expect((await storedResults()) - before).toBe(byStatus.get(200) ?? 0);

    // The other replica serves on.
    const res = await fetch(`${secondUrl}/v0/models/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 'after.npy', bytes: batchBytes(10) }),
    });
    expect(res.status).toBe(200);
    second.kill('SIGTERM');
  });
});
