import { createHash } from 'node:crypto';
import { strFromU8, unzipSync } from 'fflate';
import { encodeNpy } from '#qdc/arrays';
import { runModelBatch } from '#qdc/characterization';
import { generateCoulombPeakTrace, generateResonatorNotchTrace, tuningSeeds } from '#qdc/device-physics';
import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { inputsBucket } from '#qdc/platform';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';
const npy = (data: ArrayLike<number>, shape: number[] = [data.length]) => encodeNpy({ shape, data });

describe('control API (real gateway, inference worker, results, Postgres, Redis, NATS)', () => {
  let sut: TestSystem;
  let alice: string;
  let bob: string;
  let codaOnly: string;
  let admin: string;

  const call = (path: string, token: string | null, init: RequestInit = {}) =>
    fetch(`${sut.baseUrl}${path}`, {
      ...init,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) },
    });
  const run = (token: string, model: string, bytes: Uint8Array, extra: Record<string, string> = {}, name = 'trace.npy', path = '/v0/control/models') =>
    call(path, token, { method: 'POST', body: multipart({ model, ...extra }, { name, bytes }) });

  beforeAll(async () => {
    sut = await startSystem();
    [alice, bob, codaOnly, admin] = await Promise.all([
      sut.createKey('alice-lab', 'control,coda'),
      sut.createKey('bob-lab', 'control'),
      sut.createKey('carol-lab', 'coda'),
      sut.createKey('ops', 'control,admin'),
    ]);
  });
  afterAll(async () => {
    await sut?.stop();
  });

  describe('auth', () => {
    it('answers 401 with WWW-Authenticate when the header is missing or malformed', async () => {
      for (const header of [undefined, 'Basic abc', 'Bearer']) {
        const res = await fetch(`${sut.baseUrl}/v0/models`, { headers: header ? { authorization: header } : {} });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(await res.json()).toEqual({ detail: 'Not authenticated' });
      }
    });

    it('answers 401 for unknown keys and 403 for a key without the scope', async () => {
      const unknown = await call('/v0/models', `coda_${'A'.repeat(43)}`);
      expect(unknown.status).toBe(401);
      expect(await unknown.json()).toEqual({ detail: 'Invalid or revoked API key' });
      const forbidden = await call('/v0/control/models', codaOnly);
      expect(forbidden.status).toBe(403);
      expect((await forbidden.json()).detail).toMatch(/lacks the 'control' scope/);
    });

    it('stops accepting a key as soon as it is revoked', async () => {
      const key = await sut.createKey('temp-lab', 'control');
      expect((await call('/v0/models', key)).status).toBe(200);
      const keys = await (await call('/v0/admin/keys?owner=temp-lab', admin)).json();
      expect(keys).toHaveLength(1);
      expect(keys[0]).not.toHaveProperty('token');
      const revoked = await call(`/v0/admin/keys/${keys[0].id}`, admin, { method: 'DELETE' });
      expect(revoked.status).toBe(200);
      expect((await revoked.json()).revoked_at).not.toBeNull();
      await new Promise((r) => setTimeout(r, 200));
      expect((await call('/v0/models', key)).status).toBe(401);
    });

    it('lets admin keys create keys over HTTP, and nobody else', async () => {
      expect((await call('/v0/admin/keys', alice)).status).toBe(403);
      const res = await call('/v0/admin/keys', admin, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'dave', scopes: ['control'] }),
      });
      expect(res.status).toBe(201);
      const created = await res.json();
      expect(created.token).toMatch(/^coda_[A-Za-z0-9_-]{43}$/);
      expect((await call('/v0/models', created.token)).status).toBe(200);
      const bad = await call('/v0/admin/keys', admin, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'x', scopes: ['root'] }),
      });
      expect(bad.status).toBe(422);
      expect((await bad.json()).detail[0].loc).toEqual(['body', 'scopes', 0]);
    });
  });

  describe('models', () => {
    it('lists the catalogue at /v0/models and /v0/control/models with every SPEC field', async () => {
      const a = await (await call('/v0/models', alice)).json();
      const b = await (await call('/v0/control/models', alice)).json();
      expect(a.map((m: { id: string }) => m.id)).toEqual(b.map((m: { id: string }) => m.id));
      const ids = a.map((m: { id: string }) => m.id);
      for (const id of [
        'coulomb-blockade-peak-detector-v0',
        'coulomb-blockade-peak-detector-v1',
        'coulomb-blockade-peak-detector-v1-mini',
        PEAK_V2,
        'resonator-dip-finder-v0',
      ]) {
        expect(ids).toContain(id);
      }
      for (const m of a) {
        expect(Object.keys(m).sort()).toEqual(
          [
            'description',
            'id',
            'input_shape_requirements',
            'name',
            'nn_input_shape_requirements',
            'nn_output_shape_requirements',
            'number_of_runs',
            'released',
          ].sort(),
        );
        expect(m.released).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
        expect(Number.isNaN(Date.parse(m.released))).toBe(false);
        expect(Number.isInteger(m.number_of_runs)).toBe(true);
      }
    });

    it('sends the list gzipped to clients that accept gzip, the same JSON as uncompressed', async () => {
      const plain = await call('/v0/control/models', alice, { headers: { 'accept-encoding': 'identity' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      const zipped = await call('/v0/control/models', alice, { headers: { 'accept-encoding': 'gzip, deflate' } });
      expect(zipped.headers.get('content-encoding')).toBe('gzip');
      expect(zipped.headers.get('vary')).toMatch(/accept-encoding/i);
      expect(await zipped.json()).toEqual(await plain.json()); // fetch inflates it
    });

    it('pages with skip/limit and rejects bad values with 422', async () => {
      const all = await (await call('/v0/models', alice)).json();
      const page = await (await call('/v0/models?skip=1&limit=2', alice)).json();
      expect(page.map((m: { id: string }) => m.id)).toEqual(all.slice(1, 3).map((m: { id: string }) => m.id));
      for (const q of ['limit=0', 'limit=1001', 'skip=-1', 'limit=abc']) {
        const res = await call(`/v0/models?${q}`, alice);
        expect(res.status).toBe(422);
        const body = await res.json();
        expect(body.detail[0].loc[0]).toBe('query');
      }
    });

    it('gets one model, or 404 {"detail": "Model not found"}', async () => {
      const res = await call(`/v0/control/models/${PEAK_V2}`, alice);
      expect((await res.json()).id).toBe(PEAK_V2);
      const missing = await call('/v0/control/models/no-such-model-v9', alice);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ detail: 'Model not found' });
    });
  });

  describe('runs', () => {
    it('finds the simulated Coulomb peaks end to end, stores the result and counts the run', async () => {
      const before = (await (await call(`/v0/models/${PEAK_V2}`, alice)).json()).number_of_runs;
      const truth = generateCoulombPeakTrace(tuningSeeds(1, 501)[0]!, { length: 128, kind: 'peaks', peakCount: 4, snrRange: [40, 60] });
      const bytes = npy(truth.trace);
      const res = await run(alice, PEAK_V2, bytes, {}, 'sweep-01.npy');
      expect(res.status).toBe(200);
      const result = await res.json();
      expect(Object.keys(result).sort()).toEqual(['created_at', 'id', 'input_file_name', 'input_file_size', 'model', 'output', 'user_vote']);
      expect(result).toMatchObject({ model: PEAK_V2, input_file_name: 'sweep-01.npy', input_file_size: bytes.length, user_vote: null });
      const found: number[] = result.output.peak_indices;
      expect(found).toHaveLength(truth.peakIndices.length);
      found.forEach((index, i) => {
        expect(Math.abs(index - truth.peakIndices[i]!)).toBeLessThanOrEqual(2);
      });
      const rows = await sut.query('SELECT id, model, input_file_size FROM model_results WHERE id = $1', [result.id]);
      expect(rows).toEqual([{ id: result.id, model: PEAK_V2, input_file_size: bytes.length }]);
      const after = (await (await call(`/v0/models/${PEAK_V2}`, alice)).json()).number_of_runs;
      expect(after).toBe(before + 1);
    });

    it('accepts the /v0 alias and finds the simulated resonator dips', async () => {
      const truth = generateResonatorNotchTrace(tuningSeeds(1, 777)[0]!, { length: 501, dipCount: 2, snrRange: [100, 200] });
      const res = await run(bob, 'resonator-dip-finder-v0', npy(truth.trace), {}, 'res.npy', '/v0/models');
      expect(res.status).toBe(200);
      const out = (await res.json()).output;
      expect(out.dip_indices).toHaveLength(truth.dips.length);
      expect(out).toHaveProperty('linewidths');
      expect(out).toHaveProperty('depths');
    });

    it('returns a plot of the detections when plot=true (dark theme with dark_mode=1)', async () => {
      const truth = generateCoulombPeakTrace(tuningSeeds(1, 502)[0]!, { length: 128, kind: 'peaks', snrRange: [30, 40] });
      const light = await (await run(alice, PEAK_V2, npy(truth.trace), { plot: 'true' })).json();
      const dark = await (await run(alice, PEAK_V2, npy(truth.trace), { plot: 'true', dark_mode: '1' })).json();
      for (const r of [light, dark]) expect(r.output.plot).toMatch(/^data:image\/(png|svg\+xml);base64,/);
      expect(light.output.plot).not.toBe(dark.output.plot);
      const plain = await (await run(alice, PEAK_V2, npy(truth.trace))).json();
      expect(plain.output).not.toHaveProperty('plot');
      expect(plain.output.peak_indices).toEqual(light.output.peak_indices);
    });

    it('answers pure noise with nothing found rather than an error', async () => {
      let state = 42;
      const noise = Float64Array.from({ length: 128 }, () => {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        return state / 2 ** 31 - 0.5;
      });
      const res = await run(alice, PEAK_V2, npy(noise));
      expect(res.status).toBe(200);
      expect(Array.isArray((await res.json()).output.peak_indices)).toBe(true);
    });

    it('rejects bad uploads with FastAPI-style 422 bodies that say what was expected', async () => {
      const cases: [Uint8Array, string, RegExp][] = [
        [new TextEncoder().encode('hello, not an array'), PEAK_V2, /expected/i],
        [npy([1, 2, Number.NaN, 4]), PEAK_V2, /finite/i],
        [npy([1, 2, Number.POSITIVE_INFINITY, 4]), PEAK_V2, /finite/i],
        [npy(new Float64Array(12), [3, 4]), 'resonator-dip-finder-v0', /expected/i],
        [npy(new Float64Array(4)), 'resonator-dip-finder-v0', /expected/i],
      ];
      for (const [bytes, model, msg] of cases) {
        const res = await run(alice, model, bytes);
        expect(res.status).toBe(422);
        const body = await res.json();
        expect(body.detail).toHaveLength(1);
        expect(body.detail[0].loc).toEqual(['body', 'data']);
        expect(body.detail[0].msg).toMatch(msg);
        expect(typeof body.detail[0].type).toBe('string');
      }
    });

    it('answers 404 for an unknown model and 422 for missing fields', async () => {
      const unknown = await run(alice, 'nope-v0', npy([1, 2, 3]));
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ detail: 'Model not found' });
      const noFile = await call('/v0/models', alice, { method: 'POST', body: multipart({ model: PEAK_V2 }) });
      expect(noFile.status).toBe(422);
      expect((await noFile.json()).detail[0].loc).toEqual(['body', 'data']);
      const noModel = await call('/v0/models', alice, { method: 'POST', body: multipart({}, { name: 'a.npy', bytes: npy([1, 2]) }) });
      expect(noModel.status).toBe(422);
      expect((await noModel.json()).detail[0].loc).toEqual(['body', 'model']);
      const badBool = await run(alice, PEAK_V2, npy(new Float64Array(128)), { plot: 'maybe' });
      expect(badBool.status).toBe(422);
      expect((await badBool.json()).detail[0].loc).toEqual(['body', 'plot']);
    });
  });

  describe('batch', () => {
    it('equals single runs element by element, and has batch_size but no input_file_size', async () => {
      const traces = Array.from({ length: 6 }, (_, i) => generateCoulombPeakTrace(tuningSeeds(1, 600 + i)[0]!, { length: 128 }).trace);
      const flat = new Float64Array(6 * 128);
      traces.forEach((t, i) => {
        flat.set(t, i * 128);
      });
      const res = await run(alice, PEAK_V2, npy(flat, [6, 128]), {}, 'batch.npy', '/v0/control/models/batch');
      expect(res.status).toBe(200);
      const batch = await res.json();
      expect(Object.keys(batch).sort()).toEqual(['batch_size', 'created_at', 'id', 'input_file_name', 'model', 'output']);
      expect(batch.batch_size).toBe(6);
      expect(batch.output.outputs).toHaveLength(6);
      for (let i = 0; i < 6; i++) {
        const single = await (await run(alice, PEAK_V2, npy(traces[i]!))).json();
        expect(batch.output.outputs[i]).toEqual(single.output);
      }
    });

    it('refuses models that do not batch, and non-2-D arrays', async () => {
      const res = await run(alice, 'resonator-dip-finder-v0', npy(new Float64Array(2 * 64), [2, 64]), {}, 'b.npy', '/v0/models/batch');
      expect(res.status).toBe(422);
      expect((await res.json()).detail[0].msg).toMatch(/does not support batch/);
      const oneD = await run(alice, PEAK_V2, npy(new Float64Array(128)), {}, 'b.npy', '/v0/models/batch');
      expect(oneD.status).toBe(422);
      expect((await oneD.json()).detail[0].msg).toMatch(/2-D/);
    });

    it('moves a large batch (~24 MiB) through the object store, split across the worker’s threads in row order', async () => {
      const rows = 24_000;
      const flat = new Float64Array(rows * 128);
      const distinct = tuningSeeds(97, 700).map((seed) => generateCoulombPeakTrace(seed, { length: 128 }).trace);
      for (let r = 0; r < rows; r++) flat.set(distinct[r % distinct.length]!, r * 128);
      // Row r repeats distinct trace r mod 700: the expected answer is the 700 traces' answers, repeated (computed before
      // the request, so the test's own CPU time never sits between the run and the read-back on a busy machine).
      const distinctFlat = new Float64Array(distinct.length * 128);
      for (const [i, trace] of distinct.entries()) distinctFlat.set(trace, i * 128);
      const distinctOutputs = runModelBatch(PEAK_V2, { shape: [distinct.length, 128], data: distinctFlat });
      const expected = Array.from({ length: rows }, (_, r) => distinctOutputs[r % distinct.length]);
      const res = await run(alice, PEAK_V2, npy(flat, [rows, 128]), {}, 'big.npy', '/v0/models/batch');
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.batch_size).toBe(rows);
      expect(body.output.outputs).toEqual(expected);
      // Stored as the JSON text the worker made, and read back the same.
      expect(await (await call(`/v0/model-results/${body.id}`, alice)).json()).toEqual(body);
      // The upload streamed into the input store: Postgres holds its key, size and SHA-256, not its bytes.
      const upload = npy(flat, [rows, 128]);
      const stored = await sut.query<{ size: number; bytes: null; blob_key: string; sha256: string }>(
        'SELECT size, bytes, blob_key, sha256 FROM input_files WHERE result_id = $1',
        [body.id],
      );
      expect(stored).toEqual([{ size: upload.length, bytes: null, blob_key: expect.any(String), sha256: createHash('sha256').update(upload).digest('hex') }]);
      // The download streams it back byte for byte; deleting the result removes its object from the store.
      const zip = await call(`/v0/model-results/${body.id}/download`, alice);
      expect(zip.status).toBe(200);
      expect(Buffer.from(unzipSync(new Uint8Array(await zip.arrayBuffer()))['big.npy']!).equals(Buffer.from(upload))).toBe(true);
      const nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
      try {
        const store = await new Objm(nc).open(inputsBucket(sut.namespace));
        expect((await store.list()).map((o) => o.name)).toContain(stored[0]!.blob_key);
        expect((await call(`/v0/model-results/${body.id}`, alice, { method: 'DELETE' })).status).toBe(200);
        expect((await store.list()).map((o) => o.name)).not.toContain(stored[0]!.blob_key);
      } finally {
        await nc.close();
      }
    });

    it('answers a download whose stored input is missing from the store with 404 and says so (never a 500)', async () => {
      const traces = new Float64Array(600 * 128);
      for (let r = 0; r < 600; r++) traces.set(generateCoulombPeakTrace(tuningSeeds(5, 600)[r]!, { length: 128 }).trace, r * 128);
      const body = await (await run(alice, PEAK_V2, npy(traces, [600, 128]), {}, 'lost.npy', '/v0/models/batch')).json();
      const [row] = await sut.query<{ blob_key: string }>('SELECT blob_key FROM input_files WHERE result_id = $1', [body.id]);
      const nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
      await (await new Objm(nc).open(inputsBucket(sut.namespace))).delete(row!.blob_key);
      await nc.close();
      const res = await call(`/v0/model-results/${body.id}/download`, alice);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: expect.stringMatching(/input file of model result \S+ is missing from the input store/) });
      expect((await call(`/v0/model-results/${body.id}`, alice)).status).toBe(200);
    });
  });

  describe('results and votes', () => {
    let mine: { id: string; output: unknown };

    beforeAll(async () => {
      const trace = generateCoulombPeakTrace(tuningSeeds(1, 800)[0]!, { length: 100 }).trace;
      mine = await (await run(alice, 'coulomb-blockade-peak-detector-v0', npy(trace), {}, 'mine.npy')).json();
    });

    it('lists the owner’s results newest first, filtered by model and dates', async () => {
      const list = await (await call('/v0/control/model-results?limit=1000', alice)).json();
      expect(list[0]).toEqual({ id: mine.id, model: 'coulomb-blockade-peak-detector-v0', created_at: expect.any(String), output: mine.output });
      const times = list.map((r: { created_at: string }) => Date.parse(r.created_at));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      const filtered = await (await call('/v0/model-results?model_str_id=coulomb-blockade-peak-detector-v0', alice)).json();
      expect(filtered.map((r: { id: string }) => r.id)).toEqual([mine.id]);
      const today = new Date().toISOString().slice(0, 10);
      expect((await (await call(`/v0/model-results?start_date=${today}&end_date=${today}&limit=1000`, alice)).json()).length).toBe(list.length);
      expect(await (await call('/v0/model-results?end_date=2000-01-01', alice)).json()).toEqual([]);
      expect((await call('/v0/model-results?start_date=yesterday', alice)).status).toBe(422);
      expect((await (await call('/v0/model-results', bob)).json()).some((r: { id: string }) => r.id === mine.id)).toBe(false);
    });

    it('hides another owner’s result behind 404 on every route', async () => {
      const notFound = { detail: 'Model result not found' };
      expect((await call(`/v0/model-results/${mine.id}`, bob)).status).toBe(404);
      expect(await (await call(`/v0/model-results/${mine.id}`, bob)).json()).toEqual(notFound);
      expect((await call(`/v0/model-results/${mine.id}/download`, bob)).status).toBe(404);
      expect(
        (await call(`/v0/model-results/${mine.id}/vote`, bob, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"vote":1}' })).status,
      ).toBe(404);
      expect((await call(`/v0/model-results/${mine.id}`, bob, { method: 'DELETE' })).status).toBe(404);
      expect((await call('/v0/model-results/not-a-uuid', alice)).status).toBe(404);
      expect((await call(`/v0/model-results/${mine.id}`, alice)).status).toBe(200);
    });

    it('creates, replaces and removes a vote', async () => {
      const put = (body: unknown) =>
        call(`/v0/control/model-results/${mine.id}/vote`, alice, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect(await (await put({ vote: 1, feedback: 'peaks look right' })).json()).toEqual({ model_result_id: mine.id, vote: 1, feedback: 'peaks look right' });
      expect((await (await call(`/v0/model-results/${mine.id}`, alice)).json()).user_vote).toBe(1);
      expect(await (await put({ vote: -1 })).json()).toEqual({ model_result_id: mine.id, vote: -1, feedback: null });
      expect((await (await call(`/v0/model-results/${mine.id}`, alice)).json()).user_vote).toBe(-1);
      expect(await sut.query('SELECT vote FROM votes WHERE result_id = $1', [mine.id])).toEqual([{ vote: -1 }]);
      for (const bad of [{ vote: 0 }, { vote: 2 }, { vote: '1' }, {}, { vote: 1, feedback: 'x'.repeat(4001) }]) {
        const res = await put(bad);
        expect(res.status).toBe(422);
        expect((await res.json()).detail[0].loc[0]).toBe('body');
      }
      const removed = await call(`/v0/model-results/${mine.id}/vote`, alice, { method: 'DELETE' });
      expect(await removed.json()).toEqual({ detail: 'Vote removed' });
      expect((await (await call(`/v0/model-results/${mine.id}`, alice)).json()).user_vote).toBeNull();
      expect((await call(`/v0/model-results/${mine.id}/vote`, alice, { method: 'DELETE' })).status).toBe(404);
    });

    it('downloads a zip with result.json and the original input file', async () => {
      const trace = generateCoulombPeakTrace(tuningSeeds(1, 801)[0]!, { length: 128 }).trace;
      const bytes = npy(trace);
      const created = await (await run(alice, PEAK_V2, bytes, {}, 'my sweep.npy')).json();
      const res = await call(`/v0/model-results/${created.id}/download`, alice);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/zip');
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      expect(Object.keys(files).sort()).toEqual(['my sweep.npy', 'result.json']);
      expect(Buffer.from(files['my sweep.npy']!).equals(Buffer.from(bytes))).toBe(true);
      expect(JSON.parse(strFromU8(files['result.json']!))).toEqual(created);
    });

    it('deletes a result with its votes and stored input', async () => {
      const trace = generateCoulombPeakTrace(tuningSeeds(1, 802)[0]!, { length: 128 }).trace;
      const created = await (await run(alice, PEAK_V2, npy(trace))).json();
      await call(`/v0/model-results/${created.id}/vote`, alice, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"vote":1}' });
      const res = await call(`/v0/control/model-results/${created.id}`, alice, { method: 'DELETE' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ detail: 'Model result deleted' });
      expect((await call(`/v0/model-results/${created.id}`, alice)).status).toBe(404);
      expect(await sut.query('SELECT 1 FROM votes WHERE result_id = $1', [created.id])).toEqual([]);
      expect(await sut.query('SELECT 1 FROM input_files WHERE result_id = $1', [created.id])).toEqual([]);
    });
  });

  describe('edges', () => {
    it('answers 410 for the removed /search and /fetch under every base', async () => {
      for (const path of ['/search', '/fetch', '/v0/search', '/v0/control/fetch', '/v0/coda/search']) {
        const res = await call(path, alice, { method: 'POST' });
        expect(res.status).toBe(410);
        expect((await res.json()).detail).toMatch(/removed/);
      }
    });

    it('answers unknown routes with 404 {"detail": "Not Found"}', async () => {
      const res = await call('/v0/control/nothing-here', alice);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ detail: 'Not Found' });
    });

    it('echoes X-Request-Id, or makes one', async () => {
      const echoed = await call('/v0/health', null, { headers: { 'x-request-id': 'lab-req-123' } });
      expect(echoed.headers.get('x-request-id')).toBe('lab-req-123');
      const made = await call('/v0/models', alice);
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('serves health without a key, and the OpenAPI document and docs page', async () => {
      expect(await (await call('/v0/health', null)).json()).toEqual({ status: 'ok' });
      const doc = await (await call('/v0/openapi.json', null)).json();
      expect(doc.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining(['/v0/control/models', '/v0/models', '/v0/control/model-results/{id}/vote', '/v0/coda/tools/simulate', '/v0/simulate']),
      );
      const docs = await call('/docs', null);
      expect(docs.headers.get('content-type')).toMatch(/text\/html/);
      expect((await call('/docs/assets/swagger-ui-bundle.js', null)).status).toBe(200);
    });

    it('runs the same request id once: a retried request returns the same result', async () => {
      const bytes = npy(generateCoulombPeakTrace(tuningSeeds(1, 900)[0]!, { length: 128 }).trace);
      const send = () =>
        call('/v0/models', alice, { method: 'POST', headers: { 'x-request-id': 'retry-me-1' }, body: multipart({ model: PEAK_V2 }, { name: 'r.npy', bytes }) });
      const first = await (await send()).json();
      const second = await (await send()).json();
      expect(second.id).toBe(first.id);
      expect(await sut.query('SELECT count(*)::int AS n FROM model_results WHERE id = $1', [first.id])).toEqual([{ n: 1 }]);
    });
  });
});
