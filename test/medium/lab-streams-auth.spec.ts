import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { generatePinchOffTrace } from '#qdc/device-physics';
import { labStreamSubjects, type LabStreamEvent } from '#qdc/contracts';
import { startNatsServer, type NatsServer } from './nats-server.fixture.js';
import { startSystem, type TestSystem } from './system.harness.js';

/**
 * Live streams under the per-lab nkey users of `qdc lab add`, on a second nats-server started here: lab A's
 * instrument publishes frames and reads results with lab A's credentials only; the server denies lab B (and lab A
 * forging its own results); `qdc lab remove` revokes a lab at the server's reload; the admin routes
 * `/v0/admin/lab-credentials` issue and revoke the same users, reloading the server by its pid file.
 */
describe('live streams with per-lab credentials (nats-server with the generated nkey users)', () => {
  let server: NatsServer;
  let sut: TestSystem;
  let url: string;
  let dir: string;
  const namespace = `ts${Date.now().toString(36)}`;
  const seeds: Record<string, Uint8Array> = {};
  const open: NatsConnection[] = [];
  const cli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [resolve('dist/apps/cli/src/main.js'), ...args], {
      env: { ...process.env, QDC_NAMESPACE: namespace, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  const labConnection = async (lab: string, violations: string[] = []) => {
    const nc = await connect({ servers: url, authenticator: nkeyAuthenticator(seeds[lab]!), inboxPrefix: `_INBOX_${lab}` });
    open.push(nc);
    void (async () => {
      for await (const s of nc.status()) if (s.type === 'error') violations.push(String((s as { error?: Error }).error?.message));
    })();
    return nc;
  };
  const subjectsA = () => labStreamSubjects(namespace, 'lab-a', 'trace');
  const frame = (seed: number) => JSON.stringify({ data: Array.from(generatePinchOffTrace(seed, { length: 100 }).trace) });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qdc-nats-auth-'));
    const first = cli(['lab', 'add', '--owner', 'lab-a', '--dir', dir]);
    expect(first.status).toBe(0);
    expect(cli(['lab', 'add', '--owner', 'lab-b', '--dir', dir]).status).toBe(0);
    for (const lab of ['lab-a', 'lab-b'])
      seeds[lab] = new TextEncoder().encode(JSON.parse(readFileSync(join(dir, `${lab}.credentials.json`), 'utf8')).nkey_seed);
    server = await startNatsServer({ dir, configLines: ['include ./auth.conf', `pid_file: "${join(dir, 'nats.pid')}"`] });
    url = server.url;
    const servicesUrl = /NATS_URL=(\S+)/.exec(first.stdout)![1]!.replace('<nats-host>:4222', `127.0.0.1:${server.port}`);
    sut = await startSystem({
      env: { NATS_URL: servicesUrl, QDC_NAMESPACE: namespace, QDC_NATS_AUTH_DIR: dir, QDC_NATS_PID_FILE: join(dir, 'nats.pid') },
    });
    const created = cli(['stream', 'create', '--owner', 'lab-a', '--name', 'trace', '--models', 'pinch-off-classifier-v0'], sut.env);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
  }, 240_000); // startSystem alone may wait 120 s for seven processes on a loaded CI machine

  afterAll(async () => {
    for (const nc of open) await nc.close().catch(() => undefined);
    await sut?.stop();
    await server?.stop();
  });

  it('lets lab A publish frames and read their analysis with its own credentials only', async () => {
    const nc = await labConnection('lab-a');
    const events: LabStreamEvent[] = [];
    nc.subscribe(subjectsA().results, {
      callback: (_e, m) => {
        events.push(m.json<LabStreamEvent>());
      },
    });
    await nc.flush();
    const js = jetstream(nc);
    for (const id of ['a-1', 'a-2']) {
      const h = natsHeaders();
      h.set('Nats-Msg-Id', id);
      expect((await js.publish(subjectsA().frames, frame(id === 'a-1' ? 1 : 2), { headers: h })).duplicate).toBe(false);
    }
    const deadline = Date.now() + 60_000;
    while (events.length < 2) {
      if (Date.now() > deadline) throw new Error(`no results; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(events.map((e) => [e.type, e.frame_id])).toEqual([
      ['result', 'a-1'],
      ['result', 'a-2'],
    ]);
  }, 90_000);

  it('denies lab B lab A’s stream subjects and lab A the forging of its own results', async () => {
    const violationsB: string[] = [];
    const labB = await labConnection('lab-b', violationsB);
    const subscribeErrors: string[] = [];
    labB.subscribe(subjectsA().results, {
      callback: (err) => {
        if (err) subscribeErrors.push(err.message);
      },
    });
    await expect(jetstream(labB).publish(subjectsA().frames, frame(3))).rejects.toThrow(/Permissions Violation for Publish/);
    const violationsA: string[] = [];
    const labA = await labConnection('lab-a', violationsA);
    labA.publish(subjectsA().results, JSON.stringify({ type: 'result', forged: true }));
    await labA.flush();
    await labB.flush();
    await new Promise((r) => setTimeout(r, 300));
    expect(subscribeErrors).toEqual([`Permissions Violation for Subscription to "${subjectsA().results}"`]);
    expect(violationsB).toEqual(expect.arrayContaining([`Permissions Violation for Publish to "${subjectsA().frames}"`]));
    expect(violationsA).toEqual([`Permissions Violation for Publish to "${subjectsA().results}"`]);
  }, 30_000);

  it('qdc lab remove revokes lab B at the server’s reload', async () => {
    const removed = cli(['lab', 'remove', '--owner', 'lab-b', '--dir', dir], sut.env);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain('lab lab-b: NATS user removed');
    server.process.kill('SIGHUP'); // nats-server reloads its configuration
    await new Promise((r) => setTimeout(r, 800));
    await expect(
      connect({ servers: url, authenticator: nkeyAuthenticator(seeds['lab-b']!), inboxPrefix: '_INBOX_lab-b', maxReconnectAttempts: 0 }),
    ).rejects.toThrow(/Authorization Violation/i);
    const stillA = await labConnection('lab-a');
    await stillA.flush();
  }, 30_000);

  it('issues lab credentials over HTTP (admin only, seed once) with which a node connects, and revokes them: the server closes the lab’s connection', async () => {
    const admin = await sut.createKey('cred-admin', 'admin');
    const coda = await sut.createKey('cred-user', 'coda');
    const call = (key: string, method: string, path: string, body?: unknown) =>
      fetch(`${sut.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    expect((await call(coda, 'POST', '/v0/admin/lab-credentials', { lab: 'lab-c' })).status).toBe(403);
    expect((await call(coda, 'GET', '/v0/admin/lab-credentials')).status).toBe(403);
    const bad = await call(admin, 'POST', '/v0/admin/lab-credentials', { lab: 'Lab.C' });
    expect(bad).toEqual({ status: 422, body: { detail: [{ loc: ['body', 'lab'], msg: expect.stringContaining('lower-case'), type: 'invalid_format' }] } });
    expect((await call(admin, 'POST', '/v0/admin/lab-credentials', {})).body.detail[0].loc).toEqual(['body', 'lab']);

    const created = await call(admin, 'POST', '/v0/admin/lab-credentials', { lab: 'lab-c' });
    expect(created).toMatchObject({ status: 201, body: { lab: 'lab-c', reloaded: true, credentials: { lab: 'lab-c', namespace } } });
    expect((await call(admin, 'POST', '/v0/admin/lab-credentials', { lab: 'lab-c' })).status).toBe(409);
    const listed = (await call(admin, 'GET', '/v0/admin/lab-credentials')).body as { lab: string; public_key: string }[];
    expect(listed.find((c) => c.lab === 'lab-c')).toEqual({ lab: 'lab-c', public_key: created.body.public_key, added_at: created.body.added_at });
    expect(JSON.stringify(listed)).not.toContain(created.body.credentials.nkey_seed);

    const seed = new TextEncoder().encode(created.body.credentials.nkey_seed);
    const connectC = () => connect({ servers: url, authenticator: nkeyAuthenticator(seed), inboxPrefix: '_INBOX_lab-c', maxReconnectAttempts: 0 });
    let nodeC: NatsConnection | undefined;
    for (const deadline = Date.now() + 5000; !nodeC; ) {
      nodeC = await connectC().catch((error: Error) => {
        if (Date.now() > deadline) throw error; // the reload is asynchronous: the user may not be there yet
        return new Promise<undefined>((r) => setTimeout(() => r(undefined), 100));
      });
    }
    open.push(nodeC);
    nodeC.publish(`${namespace}.lab.lab-c.heartbeat.v1`, '{}');
    await nodeC.flush();

    const closed = nodeC.closed();
    const revoked = await call(admin, 'DELETE', '/v0/admin/lab-credentials/lab-c');
    expect(revoked).toMatchObject({ status: 200, body: { lab: 'lab-c', public_key: created.body.public_key, reloaded: true } });
    await expect(Promise.race([closed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 5000))])).resolves.toBe('closed');
    await expect(connectC()).rejects.toThrow(/Authorization Violation/i);
    expect((await call(admin, 'DELETE', '/v0/admin/lab-credentials/lab-c')).status).toBe(404);
    expect((await call(admin, 'DELETE', '/v0/admin/lab-credentials/Lab.C')).status).toBe(422);
  }, 30_000);
});
