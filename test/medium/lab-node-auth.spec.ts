import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { startNatsServer, type NatsServer } from './nats-server.fixture.js';
import { startSystem, type TestSystem } from './system.harness.js';
import { BELL_QISKIT, qpuClient } from './qpu.fixtures.js';
import { killHard, startNode, writeLabDevice } from './lab-node.fixtures.js';

/**
 * Per-lab NATS identity against a second nats-server (started and stopped here) running the authorization
 * block `qdc lab add` generates: the whole QDC connects as the services user, a node with lab A's
 * credentials runs lab A's jobs, and the server itself denies lab A's user every subject of lab B (and the
 * injection of jobs into its own work queue).
 */
describe('lab identity (nats-server with the generated per-lab nkey users)', () => {
  let server: NatsServer;
  let sut: TestSystem;
  let node: ChildProcess;
  let labA: NatsConnection;
  let url: string;
  let dir: string;
  const namespace = `tl${Date.now().toString(36)}`;
  const violations: string[] = [];

  const labConnection = (lab: string) =>
    connect({
      servers: url,
      authenticator: nkeyAuthenticator(new TextEncoder().encode(JSON.parse(readFileSync(join(dir, `${lab}.credentials.json`), 'utf8')).nkey_seed)),
      inboxPrefix: `_INBOX_${lab}`,
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qdc-nats-auth-'));
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [resolve('dist/apps/cli/src/main.js'), ...args], {
        env: { ...process.env, QDC_NAMESPACE: namespace },
        encoding: 'utf8',
        timeout: 60_000,
      });
    const first = cli(['lab', 'add', '--owner', 'lab-a', '--dir', dir]);
    expect(first.status).toBe(0);
    expect(cli(['lab', 'add', '--owner', 'lab-b', '--dir', dir]).status).toBe(0);
    expect(cli(['lab', 'add', '--owner', 'lab-b', '--dir', dir]).stderr).toMatch(/lab lab-b already has credentials/);
    const servicesUrl = /NATS_URL=(\S+)/.exec(first.stdout)![1]!;
    server = await startNatsServer({ dir, configLines: ['include ./auth.conf'] });
    url = server.url;
    sut = await startSystem({ env: { NATS_URL: servicesUrl.replace('<nats-host>:4222', `127.0.0.1:${server.port}`), QDC_NAMESPACE: namespace } });
    labA = await labConnection('lab-a');
    void (async () => {
      for await (const s of labA.status()) if (s.type === 'error') violations.push(String((s as { error?: Error }).error?.message));
    })();
  }, 240_000); // startSystem alone may wait 120 s for seven processes on a loaded CI machine

  afterAll(async () => {
    if (node) await killHard(node);
    await labA?.close();
    await sut?.stop();
    await server?.stop();
  });

  it('runs a job on a node that connects with the lab’s credentials only', async () => {
    const device = writeLabDevice({ id: 'lab-a-secure', lab: 'lab-a', shotTimeUs: 100 });
    node = startNode(sut, 'secure-node', ['--device', device, '--simulate', '--credentials', join(dir, 'lab-a.credentials.json'), '--node-id', 'secure-1'], {
      NATS_URL: url,
    });
    const api = qpuClient(sut);
    const key = await sut.createKey('secure-user', 'coda');
    const deadline = Date.now() + 30_000;
    while (
      !((await api.get('/v0/coda/qpus', key)).body.devices as { id: string; status: string }[]).some((d) => d.id === 'lab-a-secure' && d.status === 'online')
    ) {
      if (Date.now() > deadline) throw new Error(`lab device never online; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const submitted = await api.post('/v0/coda/qpus', key, { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'lab-a-secure', shots: 500 });
    const done = await api.waitFor(key, submitted.body.job_id, (s) => s === 'completed' || s === 'failed', 60_000);
    expect(done).toMatchObject({ status: 'completed' });
    expect(Object.keys(done.counts).sort()).toEqual(['00', '11']);
  }, 90_000);

  it('denies lab A’s user the subjects of lab B (publish, subscribe, request) and job injection', async () => {
    const subscribeErrors: string[] = [];
    labA.subscribe(`${namespace}.lab.lab-b.>`, {
      callback: (err) => {
        if (err) subscribeErrors.push(err.message);
      },
    });
    labA.publish(`${namespace}.lab.lab-b.report.v1`, JSON.stringify({ forged: true }));
    labA.publish(`${namespace}.lab.lab-a.jobs.lab-a-secure.00000000-0000-4000-8000-000000000000`, '{}');
    await expect(labA.request(`${namespace}.lab.lab-b.register.v1`, '{}', { timeout: 2000 })).rejects.toThrow(/Permissions Violation for Publish/);
    await labA.flush();
    await new Promise((r) => setTimeout(r, 300));
    expect(subscribeErrors).toEqual([`Permissions Violation for Subscription to "${namespace}.lab.lab-b.>"`]);
    expect(violations).toEqual(
      expect.arrayContaining([
        `Permissions Violation for Publish to "${namespace}.lab.lab-b.report.v1"`,
        `Permissions Violation for Publish to "${namespace}.lab.lab-a.jobs.lab-a-secure.00000000-0000-4000-8000-000000000000"`,
      ]),
    );
  });

  it('ignores a status report that lab B sends for lab A’s device through its own subjects', async () => {
    const labB = await labConnection('lab-b');
    try {
      const [job] = await sut.query<{ id: string }>("SELECT id FROM qpu_jobs WHERE device_id = 'lab-a-secure'");
      const reply = await labB.request(
        `${namespace}.lab.lab-b.report.v1`,
        JSON.stringify({ type: 'failed', node_id: 'secure-1', device_id: 'lab-a-secure', job_id: job!.id, delivery: 1, error: 'forged' }),
        { timeout: 5000 },
      );
      expect(reply.json()).toEqual({ ok: false, error: { code: 'forbidden', message: 'report rejected: device lab-a-secure belongs to lab lab-a' } });
      expect(await sut.query('SELECT status, error FROM qpu_jobs WHERE id = $1', [job!.id])).toEqual([{ status: 'completed', error: null }]);
    } finally {
      await labB.close();
    }
  });
});
