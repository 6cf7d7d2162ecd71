import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { generateCalibrationTrace, tuningSeeds } from '#qdc/device-physics';
import { encodeRgbPng } from '../../libs/characterization/src/plot/png.js';
import { startSystem, type TestSystem } from './system.harness.js';

const FIXTURES = resolve('libs/calibration/src/plot-reader/fixtures');
const DRAG_PNG = readFileSync(resolve(FIXTURES, 'qcaleval-drag-like.png'));
const DRAG_TRUTH = (JSON.parse(readFileSync(resolve(FIXTURES, 'manifest.json'), 'utf8')) as { file: string; truth: { value: number } }[]).find(
  (f) => f.file === 'qcaleval-drag-like.png',
)!.truth.value;

/** Control agents end to end: gateway → NATS → assistant (ising-calibration-v1, built-in reader, no VLM). */
describe('control agents (real gateway, assistant, NATS)', () => {
  let sut: TestSystem;
  let control: string;
  let codaOnly: string;

  const call = (path: string, token: string | null, init: RequestInit = {}) =>
    fetch(`${sut.baseUrl}${path}`, {
      ...init,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers as Record<string, string>) },
    });
  const post = (path: string, body: unknown, token: string | null = control) =>
    call(path, token, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

  const rawPost = (path: string, body: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${sut.baseUrl}${path}`,
        { method: 'POST', headers: { authorization: `Bearer ${control}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve({ status: 0, body: error.code });
        else reject(error);
      });
      req.end(body);
    });

  beforeAll(async () => {
    sut = await startSystem();
    [control, codaOnly] = await Promise.all([sut.createKey('alice-lab', 'control'), sut.createKey('carol-lab', 'coda')]);
    // The assistant may join NATS after the gateway is ready.
    for (let i = 0; i < 100 && (await call('/v0/control/agents', control)).status !== 200; i++) await new Promise((r) => setTimeout(r, 200));
  });
  afterAll(async () => {
    await sut?.stop();
  });

  describe('GET /v0/control/agents', () => {
    it('lists ising-calibration-v1 as {id, name, description}', async () => {
      const res = await call('/v0/control/agents', control);
      expect(res.status).toBe(200);
      const agents = (await res.json()) as Record<string, string>[];
      expect(agents.map((a) => a.id)).toContain('ising-calibration-v1');
      for (const a of agents) {
        expect(Object.keys(a).sort()).toEqual(['description', 'id', 'name']);
        expect(a.name && a.description).toBeTruthy();
      }
    });

    it('pages with skip and limit, and answers 422 for bad values', async () => {
      expect(await (await call('/v0/control/agents?limit=1', control)).json()).toHaveLength(1);
      expect(await (await call('/v0/control/agents?skip=1&limit=1', control)).json()).toEqual([]);
      const bad = await call('/v0/control/agents?limit=0', control);
      expect(bad.status).toBe(422);
      expect((await bad.json()).detail[0]).toMatchObject({ loc: ['query', 'limit'], type: 'greater_than_equal' });
      expect((await call('/v0/control/agents?skip=-1', control)).status).toBe(422);
    });

    it('is described in the OpenAPI document (and GET /v0/agents is left to the coda assistant)', async () => {
      const paths = Object.keys((await (await call('/v0/openapi.json', null)).json()).paths);
      expect(paths).toEqual(expect.arrayContaining(['/v0/control/agents', '/v0/control/agents/{agent_id}', '/v0/agents/{agent_id}']));
    });

    it('needs a key with the control scope', async () => {
      expect((await call('/v0/control/agents', null)).status).toBe(401);
      expect((await call('/v0/control/agents', codaOnly)).status).toBe(403);
      expect((await post('/v0/agents/ising-calibration-v1', { data: {} }, codaOnly)).status).toBe(403);
    });
  });

  describe('POST /v0/control/agents/{agent_id} (and /v0/agents/{agent_id})', () => {
    it('answers 404 for an unknown agent', async () => {
      for (const path of ['/v0/control/agents/no-such-agent', '/v0/agents/no-such-agent']) {
        const res = await post(path, { prompt: 'hi', data: { x: [1, 2, 3, 4, 5], y: [1, 2, 3, 4, 5] } });
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ detail: 'Agent not found' });
      }
    });

    it('fits measured T1 data and answers content, model, usage and the assessment', async () => {
      const trace = generateCalibrationTrace('t1', tuningSeeds(1, 8300)[0]!, { relativeNoise: 0.01 });
      const res = await post('/v0/agents/ising-calibration-v1', {
        prompt: 'Is this T1 good?',
        data: { experiment: 't1', x: trace.series[0]!.x, y: trace.series[0]!.y, x_label: 'Delay (µs)' },
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.model).toBe('qdc-calibration-reader-v1');
      expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
      expect(body.usage.completion_tokens).toBe(Math.ceil([...body.content].length / 4));
      expect(body.assessment).toMatchObject({ experiment: 't1', status: 'success', series: 1 });
      const t1 = body.assessment.fit.parameters.t1;
      expect(t1.unit).toBe('µs');
      expect(Math.abs(t1.value - trace.truth.value) / trace.truth.value).toBeLessThan(0.05);
      expect(body.content).toContain('T1');
    });

    it('reads the DRAG plot like the official client does (image + prompt + max_tokens) and finds the crossing', async () => {
      const res = await post('/v0/control/agents/ising-calibration-v1', {
        image_base64: DRAG_PNG.toString('base64'),
        prompt: 'Describe this calibration plot.',
        max_tokens: 64,
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(['assessment', 'content', 'model', 'usage']);
      expect(body.assessment).toMatchObject({ experiment: 'drag', status: 'success', series: 2 });
      expect(body.assessment.fit.parameters.crossing.value).toBeCloseTo(DRAG_TRUTH, 0);
      expect(body.usage.completion_tokens).toBeLessThanOrEqual(64);
      expect(body.usage.prompt_tokens).toBe(Math.ceil('Describe this calibration plot.'.length / 4));
    });

    it('accepts bodies above the 1 MiB JSON limit up to 8 MiB, and answers 413 above', async () => {
      // Line-wrapped base64 (as MIME writes it) padded to ~3 MiB: still the same image.
      const wrapped = DRAG_PNG.toString('base64').replace(/.{76}/g, '$&\n') + '\n'.repeat(3 * 1024 * 1024);
      const big = await post('/v0/agents/ising-calibration-v1', { image_base64: wrapped });
      expect(big.status).toBe(200);
      expect((await big.json()).assessment.experiment).toBe('drag');
      // The gateway answers 413 from Content-Length and closes the connection without reading the body (Fastify's
      // behaviour on every route): a client still writing may see the reset before it reads the 413. Either way the
      // body is refused, and the gateway keeps serving.
      const tooBig = await rawPost('/v0/agents/ising-calibration-v1', JSON.stringify({ image_base64: 'A'.repeat(9 * 1024 * 1024) }));
      if (tooBig.status !== 0) {
        expect(tooBig.status).toBe(413);
        expect(JSON.parse(tooBig.body).detail).toMatch(/too large/i);
      }
      expect((await call('/v0/control/agents', control)).status).toBe(200);
    });

    it('answers FastAPI-style 422 for bodies that are not what the agent expects', async () => {
      const cases: [unknown, (string | number)[], RegExp][] = [
        [{ prompt: 'no image' }, ['body'], /at least one of image_base64 and data/],
        [{ data: { x: [1, 2, 3, 4, 5], y: [1, 2] } }, ['body', 'data', 'y'], /.+/],
        [{ data: { x: [1, 2, 3, 4, 5, 6], y: [1, 2, 3, 4, 5] } }, ['body', 'data', 'y'], /expected 6 values \(the length of x\); got 5/],
        [{ image_base64: 'not base64 !!' }, ['body', 'image_base64'], /base64/],
        [{ image_base64: Buffer.from('GIF89a....').toString('base64') }, ['body', 'image_base64'], /expected a PNG or JPEG image/],
        [{ data: { x: [1, 2, 3, 4, 5], y: [1, 2, 3, 4, 5] }, max_tokens: 0 }, ['body', 'max_tokens'], /.+/],
        [[1, 2], ['body'], /expected a JSON object; got an array/],
      ];
      for (const [body, loc, msg] of cases) {
        const res = await post('/v0/agents/ising-calibration-v1', body);
        expect([JSON.stringify(body).slice(0, 60), res.status]).toEqual([JSON.stringify(body).slice(0, 60), 422]);
        const detail = (await res.json()).detail;
        expect(detail[0].loc).toEqual(loc);
        expect(detail[0].msg).toMatch(msg);
      }
      const malformed = await post('/v0/agents/ising-calibration-v1', '{"image_base64": ');
      expect(malformed.status).toBe(422);
    });

    it('answers failed (200) with a clear next step when an image holds no readable plot', async () => {
      const blank = encodeRgbPng(64, 48, new Uint8Array(64 * 48 * 3).fill(255));
      const res = await post('/v0/agents/ising-calibration-v1', { image_base64: Buffer.from(blank).toString('base64') });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.assessment).toEqual({
        experiment: 'unknown',
        status: 'failed',
        fit: null,
        reliability: 0,
        next_step: expect.stringContaining('no plot frame'),
        series: 0,
      });
    });
  });
});
