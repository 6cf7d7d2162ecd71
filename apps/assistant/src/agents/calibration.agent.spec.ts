import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RpcError } from '#qdc/contracts';
import { loadConfig } from '#qdc/platform';
import { generateCalibrationTrace, tuningSeeds } from '#qdc/device-physics';
import { AgentsService } from './agents.service.js';
import { BUILT_IN_MODEL, CalibrationAgent, MAX_CALIBRATION_POINTS } from './calibration.agent.js';
import { VlmClient } from './vlm.client.js';

const DRAG_PNG = readFileSync(resolve('libs/calibration/src/plot-reader/fixtures/qcaleval-drag-like.png')).toString('base64');

/** A local server speaking OpenAI's chat-completions protocol, recording what it was sent. */
async function fakeVlm(answer: (body: Record<string, unknown>) => { status: number; json: unknown; delayMs?: number }) {
  const requests: { headers: IncomingMessage['headers']; body: Record<string, unknown>; url: string }[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => (text += d));
    req.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      requests.push({ headers: req.headers, body, url: req.url ?? '' });
      const { status, json, delayMs } = answer(body);
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json)), delayMs ?? 0);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function setup(env: Record<string, string> = {}) {
  const config = loadConfig({ ...env } as NodeJS.ProcessEnv);
  const vlm = new VlmClient(config);
  const sut = new CalibrationAgent(vlm);
  return { sut, mocks: { vlm } };
}

const completion = (content: string) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'nvidia/Ising-Calibration-1-35B',
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 812, completion_tokens: 57, total_tokens: 869 },
});

describe(CalibrationAgent.name, () => {
  it('fits data with the built-in reader and counts tokens by the documented approximation', async () => {
    const { sut } = setup();
    const trace = generateCalibrationTrace('ramsey', tuningSeeds(1, 8400)[0]!, { relativeNoise: 0.01 });
    const answer = await sut.run({ prompt: 'Ramsey', data: { x: trace.series[0]!.x, y: trace.series[0]!.y, x_label: 'Delay (µs)' } });
    expect(answer.model).toBe(BUILT_IN_MODEL);
    expect(answer.assessment.experiment).toBe('ramsey');
    expect(answer.assessment.fit!.parameters.detuning!.unit).toBe('1/µs');
    expect(answer.usage).toEqual({
      prompt_tokens: 2,
      completion_tokens: Math.ceil([...answer.content].length / 4),
      total_tokens: 2 + Math.ceil([...answer.content].length / 4),
    });
  });

  it('fits every row of a 2-D y as its own series (DRAG)', async () => {
    const { sut } = setup();
    const trace = generateCalibrationTrace('drag', tuningSeeds(1, 8401)[0]!);
    const answer = await sut.run({ data: { experiment: 'drag', x: trace.series[0]!.x, y: trace.series.map((s) => s.y) } });
    expect(answer.assessment.series).toBe(2);
    expect(answer.assessment.fit!.parameters.crossing!.value).toBeCloseTo(trace.truth.value, 0);
  });

  it(`refuses more than ${MAX_CALIBRATION_POINTS} points before fitting, naming the limit (50 000 points blocked the assistant for minutes)`, async () => {
    const { sut } = setup();
    const x = Array.from({ length: 50_000 }, (_, i) => i);
    const error = await sut.run({ data: { x, y: x.map((v) => Math.sin(v / 100)) } }).catch((e: unknown) => e);
    expect(error).toEqual(
      new RpcError('invalid_input', 'expected at most 4096 points in all (x values × y series); got 50000 × 1 = 50000: bin or decimate the sweep', {
        loc: ['body', 'data'],
        type: 'value_error',
      }),
    );
    const rows = await sut.run({ data: { x: x.slice(0, 100), y: Array.from({ length: 41 }, () => x.slice(0, 100)) } }).catch((e: unknown) => e);
    expect((rows as RpcError).message).toBe('expected at most 4096 points in all (x values × y series); got 100 × 41 = 4100: bin or decimate the sweep');
  });

  it('rejects a body without image or data as invalid_input at loc body', async () => {
    const { sut } = setup();
    await expect(sut.run({ prompt: 'x' })).rejects.toMatchObject({ code: 'invalid_input', details: { loc: ['body'] } });
  });

  describe('with a VLM configured (OpenAI-compatible server)', () => {
    it('sends the prompt and image, returns its text and usage, keeps the built-in assessment and flags disagreement', async () => {
      const server = await fakeVlm(() => ({ status: 200, json: completion('This is a Rabi oscillation; the calibration looks successful.') }));
      try {
        const { sut } = setup({ QDC_VLM_BASE_URL: server.url, QDC_VLM_MODEL: 'nvidia/Ising-Calibration-1-35B', QDC_VLM_API_KEY: 'sk-test' });
        const answer = await sut.run({ image_base64: DRAG_PNG, prompt: 'Describe this calibration plot.', max_tokens: 64 });
        const sent = server.requests[0]!;
        expect(sent.url).toBe('/v1/chat/completions');
        expect(sent.headers.authorization).toBe('Bearer sk-test');
        expect(sent.body).toMatchObject({ model: 'nvidia/Ising-Calibration-1-35B', max_tokens: 64 });
        const content = (sent.body.messages as { content: { type: string; text?: string; image_url?: { url: string } }[] }[])[0]!.content;
        expect(content[0]).toEqual({ type: 'text', text: 'Describe this calibration plot.' });
        expect(content[1]!.image_url!.url).toBe(`data:image/png;base64,${DRAG_PNG}`);
        expect(answer.model).toBe('nvidia/Ising-Calibration-1-35B');
        expect(answer.usage).toEqual({ prompt_tokens: 812, completion_tokens: 57, total_tokens: 869 });
        expect(answer.content.startsWith('This is a Rabi oscillation')).toBe(true);
        expect(answer.assessment.experiment).toBe('drag');
        expect(answer.disagreements).toEqual(['the VLM describes a rabi-amplitude experiment; the built-in reader fitted drag']);
        expect(answer.content).toContain('Disagreements with the VLM');
      } finally {
        await server.close();
      }
    });

    it('reports no disagreement when the VLM agrees', async () => {
      const server = await fakeVlm(() => ({ status: 200, json: completion('A DRAG calibration: the two lines cross inside the scan.') }));
      try {
        const { sut } = setup({ QDC_VLM_BASE_URL: server.url, QDC_VLM_MODEL: 'm' });
        const answer = await sut.run({ image_base64: DRAG_PNG });
        expect(answer.disagreements).toEqual([]);
        expect(server.requests[0]!.headers.authorization).toBeUndefined();
      } finally {
        await server.close();
      }
    });

    it('answers unavailable, naming the VLM, when it is down or errs, and timeout when it is too slow', async () => {
      const closed = await fakeVlm(() => ({ status: 200, json: {} }));
      await closed.close();
      const down = setup({ QDC_VLM_BASE_URL: closed.url, QDC_VLM_MODEL: 'm' });
      await expect(down.sut.run({ image_base64: DRAG_PNG })).rejects.toThrow(`The configured VLM (m at ${closed.url}) is not reachable (ECONNREFUSED)`);
      const failing = await fakeVlm(() => ({ status: 500, json: { error: { message: 'CUDA out of memory' } } }));
      const slow = await fakeVlm(() => ({ status: 200, json: completion('late'), delayMs: 500 }));
      try {
        const error = await setup({ QDC_VLM_BASE_URL: failing.url, QDC_VLM_MODEL: 'm' })
          .sut.run({ image_base64: DRAG_PNG })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RpcError);
        expect(error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('answered HTTP 500: {"error":{"message":"CUDA out of memory"}}') });
        await expect(
          setup({ QDC_VLM_BASE_URL: slow.url, QDC_VLM_MODEL: 'm', QDC_VLM_TIMEOUT_MS: '100' }).sut.run({ image_base64: DRAG_PNG }),
        ).rejects.toMatchObject({ code: 'timeout' });
      } finally {
        await failing.close();
        await slow.close();
      }
    });

    it('treats empty settings (as a ConfigMap writes them) as no VLM', () => {
      expect(setup({ QDC_VLM_BASE_URL: '', QDC_VLM_MODEL: '' }).mocks.vlm.configured).toBe(false);
    });

    it('does not call the VLM for data without an image', async () => {
      const server = await fakeVlm(() => ({ status: 200, json: completion('x') }));
      try {
        const { sut } = setup({ QDC_VLM_BASE_URL: server.url, QDC_VLM_MODEL: 'm' });
        const trace = generateCalibrationTrace('t1', tuningSeeds(1, 8402)[0]!);
        const answer = await sut.run({ data: { experiment: 't1', x: trace.series[0]!.x, y: trace.series[0]!.y } });
        expect(answer.model).toBe(BUILT_IN_MODEL);
        expect(server.requests).toHaveLength(0);
      } finally {
        await server.close();
      }
    });
  });
});

describe(AgentsService.name, () => {
  const sut = new AgentsService(new CalibrationAgent(new VlmClient(loadConfig({} as NodeJS.ProcessEnv))));

  it('lists the catalogue with skip and limit', () => {
    expect(sut.list({ skip: 0, limit: 10 }).map((a) => a.id)).toEqual(['ising-calibration-v1']);
    expect(sut.list({ skip: 1, limit: 10 })).toEqual([]);
  });

  it('answers not_found for an unknown agent', async () => {
    await expect(sut.run({ ownerId: 'o', agentId: 'nope', body: {} })).rejects.toMatchObject({ code: 'not_found', message: 'Agent not found' });
  });
});
