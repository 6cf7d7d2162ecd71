import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { encodeNpy } from '#qdc/arrays';
import { runModel } from '#qdc/characterization';
import { generatePinchOffTrace } from '#qdc/device-physics';
import { labFrameStream, labStreamSubjects, type LabStreamEvent } from '#qdc/contracts';
import { startSystem, type TestSystem } from './system.harness.js';

/**
 * Live instrument streams (SPEC §6) through the real services: a stream declared over HTTP, frames published on
 * JetStream by an "instrument" connection, analysed by the inference workers, stored as lab-a's model results and
 * answered on the stream's results subject in frame order.
 */
describe('live instrument streams (real lab-streams, workers, results, JetStream)', () => {
  let sut: TestSystem;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let admin: string;
  let labKey: string;
  const events: LabStreamEvent[] = [];
  const ns = () => sut.namespace;
  const subjects = () => labStreamSubjects(ns(), 'lab-a', 'pinchoff-b8');
  const http = (path: string, key: string, init: RequestInit = {}) =>
    fetch(`${sut.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const trace = (seed: number) => Array.from(generatePinchOffTrace(seed, { length: 100 }).trace);
  const publishJson = (id: string, body: unknown) => {
    const h = natsHeaders();
    h.set('Nats-Msg-Id', id);
    return js.publish(subjects().frames, JSON.stringify(body), { headers: h });
  };
  const waitForEvents = async (count: number, timeoutMs = 120_000) => {
    const deadline = Date.now() + timeoutMs;
    while (events.length < count) {
      if (Date.now() > deadline) throw new Error(`${events.length} of ${count} events; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const storedCount = async () =>
    Number((await sut.query<{ n: string }>("SELECT count(*) AS n FROM model_results r JOIN owners o ON o.id = r.owner_id WHERE o.name = 'lab-a'"))[0]!.n);

  beforeAll(async () => {
    sut = await startSystem({ workers: 2 });
    admin = await sut.createKey('ops', 'admin');
    labKey = await sut.createKey('lab-a', 'control');
    nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    js = jetstream(nc);
  }, 120_000);

  afterAll(async () => {
    await nc?.drain();
    await sut?.stop();
  });

  it('declares a stream over the admin route (422 for an unknown model, 403 without admin)', async () => {
    const bad = await http('/v0/admin/lab-streams', admin, { method: 'POST', body: JSON.stringify({ lab: 'lab-a', name: 'x', models: ['no-such-model'] }) });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      detail: [{ loc: ['body', 'models'], msg: expect.stringContaining('unknown model(s) no-such-model'), type: 'value_error' }],
    });
    const badName = await http('/v0/admin/lab-streams', admin, {
      method: 'POST',
      body: JSON.stringify({ lab: 'lab-a', name: 'a.b', models: ['pinch-off-classifier-v0'] }),
    });
    expect(badName.status).toBe(422);
    expect((await http('/v0/admin/lab-streams', labKey, { method: 'POST', body: '{}' })).status).toBe(403);
    const res = await http('/v0/admin/lab-streams', admin, {
      method: 'POST',
      body: JSON.stringify({ lab: 'lab-a', name: 'pinchoff-b8', models: ['pinch-off-classifier-v0'] }),
    });
    expect(res.status).toBe(201);
    const dto = await res.json();
    expect(dto).toMatchObject({
      lab: 'lab-a',
      name: 'pinchoff-b8',
      models: ['pinch-off-classifier-v0'],
      subjects: { frames: `${ns()}.lab.lab-a.streams.pinchoff-b8.frames`, results: `${ns()}.lab.lab-a.streams.pinchoff-b8.results` },
      jetstream: { stream: labFrameStream(ns(), 'lab-a', 'pinchoff-b8'), consumer: 'analyser' },
    });
    expect(await (await http('/v0/admin/lab-streams?lab=lab-a', admin)).json()).toEqual([dto]);
    nc.subscribe(subjects().results, {
      callback: (_e, m) => {
        events.push(m.json<LabStreamEvent>());
      },
    });
    await nc.flush();
    // The consumer starts when the definition arrives (KV watch); wait for it before timing frames.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const info = await (await js.jetstreamManager()).consumers.info(dto.jetstream.stream, 'analyser').catch(() => null);
      if (info && info.num_waiting > 0) break;
      if (Date.now() > deadline) throw new Error(`consumer never pulled; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 60_000);

  it('analyses 1 000 frames published at the instrument’s pace: 1 000 stored results, none twice, events in frame order', async () => {
    const before = await storedCount();
    const expected = new Map<string, boolean>();
    for (let i = 0; i < 1000; i++) {
      const data = trace(10_000 + i);
      expected.set(`f${i}`, runModel('pinch-off-classifier-v0', { shape: [100], data: Float64Array.from(data) }).classification as boolean);
      const ack = await publishJson(`f${i}`, { frame_id: `f${i}`, data, axes: [{ name: 'V_gate', unit: 'V', start: -1, stop: 0 }] });
      expect(ack.duplicate).toBe(false);
    }
    await waitForEvents(1000, 240_000);
    expect(events.map((e) => e.type)).toEqual(Array(1000).fill('result'));
    expect(events.map((e) => e.frame_id)).toEqual(Array.from({ length: 1000 }, (_, i) => `f${i}`));
    const seqs = events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const resultIds = events.flatMap((e) => (e.type === 'result' ? e.results.map((r) => ('result_id' in r ? r.result_id : 'error')) : []));
    expect(new Set(resultIds).size).toBe(1000);
    // Each event carries the model's answer for that frame (ground truth: the model run here on the same trace).
    for (const e of events)
      if (e.type === 'result') expect(e.results[0]).toMatchObject({ model: 'pinch-off-classifier-v0', output: { classification: expected.get(e.frame_id) } });
    expect((await storedCount()) - before).toBe(1000);
    const info = await (await js.jetstreamManager()).streams.info(labFrameStream(ns(), 'lab-a', 'pinchoff-b8'));
    expect(info.state.messages).toBe(0); // every frame acked (work queue emptied)
  }, 300_000);

  it('stores the results as lab-a’s model results: listed, downloadable, votable', async () => {
    const last = events.at(-1)!;
    const id = last.type === 'result' && 'result_id' in last.results[0]! ? last.results[0].result_id : '';
    const got = await http(`/v0/model-results/${id}`, labKey);
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({
      id,
      model: 'pinch-off-classifier-v0',
      input_file_name: 'pinchoff-b8-f999.npy',
      input_file_size: 928,
      user_vote: null,
    });
    const download = await http(`/v0/model-results/${id}/download`, labKey);
    expect(download.status).toBe(200);
    const vote = await http(`/v0/model-results/${id}/vote`, labKey, { method: 'PUT', body: '{"vote":1}' });
    expect(vote.status).toBe(200);
    expect((await (await http(`/v0/model-results/${id}`, labKey)).json()).user_vote).toBe(1);
    const other = await sut.createKey('lab-b', 'control');
    expect((await http(`/v0/model-results/${id}`, other)).status).toBe(404);
  });

  it('analyses a duplicated frame id once', async () => {
    const before = await storedCount();
    const start = events.length;
    const first = await publishJson('dup-1', { data: trace(1) });
    const second = await publishJson('dup-1', { data: trace(1) });
    expect([first.duplicate, second.duplicate]).toEqual([false, true]);
    await publishJson('after-dup', { data: trace(2) });
    await waitForEvents(start + 2);
    await new Promise((r) => setTimeout(r, 500));
    expect(events.slice(start).map((e) => [e.type, e.frame_id])).toEqual([
      ['result', 'dup-1'],
      ['result', 'after-dup'],
    ]);
    expect((await storedCount()) - before).toBe(2);
  }, 60_000);

  it('answers a frame that is not an array with an error event, stores nothing, and keeps going (.npy frames too)', async () => {
    const before = await storedCount();
    const start = events.length;
    await publishJson('text', { data: 'hello' });
    const h = natsHeaders();
    h.set('Nats-Msg-Id', 'broken-npy');
    await js.publish(subjects().frames, new Uint8Array([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, 4, 0]), { headers: h });
    const npy = natsHeaders();
    npy.set('Nats-Msg-Id', 'npy-ok');
    await js.publish(subjects().frames, encodeNpy({ shape: [100], data: trace(3) }, { dtype: 'f4' }), { headers: npy });
    await waitForEvents(start + 3);
    const [text, broken, ok] = events.slice(start);
    expect(text).toEqual({
      type: 'error',
      lab: 'lab-a',
      stream: 'pinchoff-b8',
      frame_id: 'text',
      seq: expect.any(Number),
      error: { code: 'invalid_input', message: 'expected "data" to be a non-empty array of numbers (1-D trace) or of equal-length rows (2-D map); got string' },
    });
    expect(broken).toMatchObject({
      type: 'error',
      frame_id: 'broken-npy',
      error: { code: 'invalid_input', message: expect.stringMatching(/^pinch-off-classifier-v0: /) },
    });
    expect(ok).toMatchObject({
      type: 'result',
      frame_id: 'npy-ok',
      results: [{ model: 'pinch-off-classifier-v0', output: { classification: expect.any(Boolean) } }],
    });
    expect((await storedCount()) - before).toBe(1);
  }, 60_000);

  it('qdc stream create/list and qdc lab remove delete the lab’s streams and consumers', async () => {
    const cli = (args: string[]) => spawnSync(process.execPath, [resolve('dist/apps/cli/src/main.js'), ...args], { env: sut.env, encoding: 'utf8' });
    const created = cli(['stream', 'create', '--owner', 'lab-a', '--name', 'map-1', '--models', 'charge-stability-diagram-segmenter-v0,no-such']);
    expect(created.status).toBe(2);
    expect(created.stderr).toContain('unknown model(s) no-such');
    const ok = cli(['stream', 'create', '--owner', 'lab-a', '--name', 'map-1', '--models', 'charge-stability-diagram-segmenter-v0']);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain(`${ns()}.lab.lab-a.streams.map-1.frames`);
    expect(cli(['stream', 'list', '--owner', 'lab-a']).stdout).toMatch(/stream lab-a\/map-1[\s\S]*stream lab-a\/pinchoff-b8/);
    const jsm = await js.jetstreamManager();
    expect((await jsm.streams.info(labFrameStream(ns(), 'lab-a', 'map-1'))).config.subjects).toEqual([`${ns()}.lab.lab-a.streams.map-1.frames`]);
    const removed = cli(['lab', 'remove', '--owner', 'lab-a', '--dir', resolve(sut.logDir, 'nats-auth')]);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain('removed stream map-1, stream pinchoff-b8');
    await expect(jsm.streams.info(labFrameStream(ns(), 'lab-a', 'map-1'))).rejects.toThrow(/stream not found/);
    await expect(jsm.streams.info(labFrameStream(ns(), 'lab-a', 'pinchoff-b8'))).rejects.toThrow(/stream not found/);
    expect(await (await http('/v0/admin/lab-streams?lab=lab-a', admin)).json()).toEqual([]);
    // A frame published now is refused by JetStream (no stream listens): the instrument learns it at once.
    await expect(publishJson('late', { data: trace(4) })).rejects.toThrow(/no responders|jetstream is not enabled/i);
  }, 60_000);
});
