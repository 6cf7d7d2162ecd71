import type { z } from 'zod';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { HTTP_ROUTES, type HttpRouteSpec } from '#qdc/contracts';
import { BELL_QISKIT, writeTestDevices } from './qpu.fixtures.js';
import { getSse, postSse } from './sse-client.js';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

/**
 * The generated OpenAPI document against the real stack: every documented method + path is called at least once
 * (success and the main error statuses), and every answer must have a documented status whose schema (the zod object
 * the document is generated from) accepts the body, with no field the schema does not list.
 */
const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';
const GHZ4 = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[4];\ncreg c[4];\nh q[0];\ncx q[0],q[1];\ncx q[1],q[2];\ncx q[2],q[3];\nmeasure q -> c;\n';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface Call {
  /** A path of the route's table entry (a template: `{id}` filled from `params`). */
  path: string;
  params?: Record<string, string>;
  query?: string;
  key: string | null;
  json?: unknown;
  form?: FormData;
  body?: string;
  headers?: Record<string, string>;
  /** Event streams are read to their end, or to their first frame when `firstFrame` (a stream that stays open). */
  firstFrame?: boolean;
}
interface Answer {
  status: number;
  contentType: string;
  // biome-ignore lint/suspicious/noExplicitAny: a JSON answer the cases read field by field after it has been validated
  body: any;
  events: unknown[];
}

/** Fields of `value` that `schema` does not list (zod objects strip unknown keys silently, so parsing alone would not see drift). */
function undocumentedFields(schema: z.ZodType, value: unknown, at = '$'): string[] {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const inner = (key: string) => def[key] as z.ZodType;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      return value === undefined || value === null ? [] : undocumentedFields(inner('innerType'), value, at);
    case 'pipe':
      return undocumentedFields(inner('in'), value, at);
    case 'array':
      return Array.isArray(value) ? value.flatMap((v, i) => undocumentedFields(inner('element'), v, `${at}[${i}]`)) : [];
    case 'tuple':
      return Array.isArray(value) ? (def.items as z.ZodType[]).flatMap((s, i) => undocumentedFields(s, value[i], `${at}[${i}]`)) : [];
    case 'record':
      return value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => undocumentedFields(inner('valueType'), v, `${at}.${k}`)) : [];
    case 'union': {
      const fits = (def.options as z.ZodType[]).filter((o) => o.safeParse(value).success).map((o) => undocumentedFields(o, value, at));
      return fits.length ? fits.reduce((a, b) => (b.length < a.length ? b : a)) : [];
    }
    case 'object': {
      if (!value || typeof value !== 'object') return [];
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.entries(value).flatMap(([k, v]) => (shape[k] ? undocumentedFields(shape[k], v, `${at}.${k}`) : [`${at}.${k}`]));
    }
    default:
      return [];
  }
}

describe('OpenAPI conformance: every documented route against the real stack', () => {
  let sut: TestSystem;
  let control: string; // control + coda
  let codaOnly: string;
  let controlOnly: string;
  let admin: string;
  let broke: string; // coda key of an owner whose QPU budget is 0
  const called = new Set<string>();

  beforeAll(async () => {
    const devices = writeTestDevices([
      { id: 'fast-3', shotTimeUs: 0 },
      { id: 'slow-3', shotTimeUs: 100_000 }, // 100 shots hold it 10 s: a job to cancel
    ]);
    sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: devices, QDC_SSE_KEEPALIVE_MS: '300' } });
    [control, codaOnly, controlOnly, admin, broke] = await Promise.all([
      sut.createKey('conf-lab', 'control,coda'),
      sut.createKey('conf-coda', 'coda'),
      sut.createKey('conf-control', 'control'),
      sut.createKey('conf-ops', 'admin,control,coda'),
      sut.createKey('conf-broke', 'coda'),
    ]);
  }, 180_000);
  afterAll(async () => sut?.stop());

  const route = (id: string): HttpRouteSpec => {
    const found = HTTP_ROUTES.find((r) => r.id === id);
    if (!found) throw new Error(`no route ${id} in the table`);
    return found;
  };

  /** Calls a documented route and checks the answer against the document; returns it for the next step. */
  async function expectAnswer(id: string, call: Call, expected: number | number[]): Promise<Answer> {
    const spec = route(id);
    expect(spec.paths).toContain(call.path);
    called.add(`${spec.method} ${call.path}`);
    const path = call.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(call.params?.[name] ?? ''));
    const url = `${sut.baseUrl}${path}${call.query ? `?${call.query}` : ''}`;
    const sse = spec.responses[200]?.contentType === 'text/event-stream';
    let answer: Answer;
    if (sse && call.key) {
      const stop = call.firstFrame ? { stopAfter: (frames: unknown[]) => frames.length > 0 } : {};
      const read =
        spec.method === 'POST'
          ? await postSse(url, call.key, call.json, { headers: call.headers, ...stop })
          : await getSse(url, call.key, { headers: call.headers, ...stop });
      const isJson = !read.contentType?.startsWith('text/event-stream');
      answer = { status: read.status, contentType: read.contentType ?? '', body: isJson ? JSON.parse(read.raw) : read.raw, events: read.events };
    } else {
      const res = await fetch(url, {
        method: spec.method,
        headers: {
          ...(call.key ? { authorization: `Bearer ${call.key}` } : {}),
          ...(call.json === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
        body: call.json !== undefined ? JSON.stringify(call.json) : (call.form ?? call.body),
      });
      const contentType = res.headers.get('content-type') ?? '';
      const bytes = Buffer.from(await res.arrayBuffer());
      answer = { status: res.status, contentType, body: contentType.includes('json') ? JSON.parse(bytes.toString('utf8')) : bytes, events: [] };
    }
    const where = `${spec.method} ${path} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`;
    expect({ where, status: answer.status }).toEqual({ where, status: [expected].flat().includes(answer.status) ? answer.status : expected });
    const documented = spec.responses[answer.status];
    expect({ where, documented: Boolean(documented) }).toEqual({ where, documented: true });
    const contentType = documented!.contentType ?? 'application/json';
    expect({ where, contentType: answer.contentType.split(';')[0] }).toEqual({ where, contentType });
    if (documented!.schema) {
      const values = contentType === 'text/event-stream' ? answer.events : contentType === 'application/json' ? [answer.body] : [];
      if (contentType === 'text/plain') values.push(answer.body.toString('utf8'));
      for (const value of values) {
        const parsed = documented!.schema.safeParse(value);
        expect({ where, value, issues: parsed.error?.issues ?? [] }).toEqual({ where, value, issues: [] });
        expect({ where, undocumented: undocumentedFields(documented!.schema, value) }).toEqual({ where, undocumented: [] });
      }
    }
    return answer;
  }

  /** The same call on every path of the route (canonical and aliases). */
  async function onEveryPath(id: string, call: (path: string) => Call | Promise<Call>, expected: number | number[]): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (const path of route(id).paths) answers.push(await expectAnswer(id, await call(path), expected));
    return answers;
  }

  const trace = encodeNpy({ shape: [128], data: generateCoulombPeakTrace(tuningSeeds(1, 4242)[0]!, { length: 128 }).trace });
  const runForm = (model = PEAK_V2, bytes: Uint8Array = trace) => multipart({ model, plot: 'false' }, { name: 'trace.npy', bytes });
  const newResult = async (): Promise<string> =>
    (await expectAnswer('runModel', { path: '/v0/control/models', key: control, form: runForm() }, 200)).body.id as string;

  it('control models', async () => {
    await onEveryPath('listModels', (path) => ({ path, key: control, query: 'skip=0&limit=3' }), 200);
    await expectAnswer('listModels', { path: '/v0/models', key: null }, 401);
    await expectAnswer('listModels', { path: '/v0/models', key: codaOnly }, 403);
    await expectAnswer('listModels', { path: '/v0/models', key: control, query: 'limit=0' }, 422);
    await onEveryPath('getModel', (path) => ({ path, params: { model_id: PEAK_V2 }, key: control }), 200);
    await expectAnswer('getModel', { path: '/v0/control/models/{model_id}', params: { model_id: 'no-such-model' }, key: control }, 404);
    await onEveryPath('runModel', (path) => ({ path, key: control, form: runForm() }), 200);
    await expectAnswer('runModel', { path: '/v0/control/models', key: control, form: runForm('no-such-model') }, 404);
    await expectAnswer('runModel', { path: '/v0/control/models', key: control, form: runForm(PEAK_V2, new Uint8Array([1, 2, 3])) }, 422);
    await expectAnswer('runModel', { path: '/v0/control/models', key: control, body: '<a/>', headers: { 'content-type': 'application/xml' } }, 415);
    const batch = encodeNpy({ shape: [2, 128], data: new Float64Array(256).map((_, i) => Math.sin(i / 5)) });
    await onEveryPath('runModelBatch', (path) => ({ path, key: control, form: runForm(PEAK_V2, batch) }), 200);
    await expectAnswer('runModelBatch', { path: '/v0/control/models/batch', key: control, form: runForm('pinch-off-classifier-v0', batch) }, 422);
  });

  it('control results and votes', async () => {
    const id = await newResult();
    await onEveryPath('listModelResults', (path) => ({ path, key: control, query: `limit=2&model_str_id=${PEAK_V2}&start_date=2020-01-01` }), 200);
    await expectAnswer('listModelResults', { path: '/v0/control/model-results', key: control, query: 'start_date=yesterday' }, 422);
    await onEveryPath('getModelResult', (path) => ({ path, params: { id }, key: control }), 200);
    await expectAnswer('getModelResult', { path: '/v0/control/model-results/{id}', params: { id: UNKNOWN_ID }, key: control }, 404);
    await onEveryPath('downloadModelResult', (path) => ({ path, params: { id }, key: control }), 200);
    await expectAnswer('downloadModelResult', { path: '/v0/control/model-results/{id}/download', params: { id: UNKNOWN_ID }, key: control }, 404);
    await onEveryPath('putVote', (path) => ({ path, params: { id }, key: control, json: { vote: -1, feedback: 'missed a peak' } }), 200);
    await expectAnswer('putVote', { path: '/v0/control/model-results/{id}/vote', params: { id }, key: control, json: { vote: 2 } }, 422);
    await expectAnswer('putVote', { path: '/v0/control/model-results/{id}/vote', params: { id: UNKNOWN_ID }, key: control, json: { vote: 1 } }, 404);
    await onEveryPath(
      'deleteVote',
      async (path) => {
        await fetch(`${sut.baseUrl}/v0/control/model-results/${id}/vote`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${control}`, 'content-type': 'application/json' },
          body: JSON.stringify({ vote: 1 }),
        });
        return { path, params: { id }, key: control };
      },
      200,
    );
    await expectAnswer('deleteVote', { path: '/v0/control/model-results/{id}/vote', params: { id }, key: control }, 404);
    await onEveryPath('deleteModelResult', async (path) => ({ path, params: { id: await newResult() }, key: control }), 200);
    await expectAnswer('deleteModelResult', { path: '/v0/control/model-results/{id}', params: { id: UNKNOWN_ID }, key: control }, 404);
  });

  it('control agents', async () => {
    await expectAnswer('listControlAgents', { path: '/v0/control/agents', key: control, query: 'limit=10' }, 200);
    await expectAnswer('listControlAgents', { path: '/v0/control/agents', key: control, query: 'limit=0' }, 422);
    const x = Array.from({ length: 61 }, (_, i) => i / 60);
    const data = { experiment: 'rabi-amplitude', x, y: x.map((v) => 0.5 - 0.45 * Math.cos(2 * Math.PI * 1.5 * v)), x_label: 'amplitude', y_label: 'P(1)' };
    await onEveryPath('runControlAgent', (path) => ({ path, params: { agent_id: 'ising-calibration-v1' }, key: control, json: { data } }), 200);
    await expectAnswer('runControlAgent', { path: '/v0/control/agents/{agent_id}', params: { agent_id: 'no-such-agent' }, key: control, json: { data } }, 404);
    await expectAnswer('runControlAgent', { path: '/v0/control/agents/{agent_id}', params: { agent_id: 'ising-calibration-v1' }, key: control, json: {} }, 422);
  });

  it('coda circuit tools', async () => {
    await onEveryPath('transpile', (path) => ({ path, key: control, json: { source_code: BELL_QISKIT, target: 'openqasm3' } }), 200);
    await expectAnswer('transpile', { path: '/v0/coda/tools/transpile', key: control, json: { target: 'cirq' } }, 422);
    await expectAnswer('transpile', { path: '/v0/coda/tools/transpile', key: null, json: {} }, 401);
    await expectAnswer('transpile', { path: '/v0/coda/tools/transpile', key: controlOnly, json: {} }, 403);
    await expectAnswer(
      'transpile',
      { path: '/v0/coda/tools/transpile', key: control, body: '{"source_code": ', headers: { 'content-type': 'application/json' } },
      422,
    );
    await onEveryPath('simulate', (path) => ({ path, key: control, json: { code: BELL_QISKIT, shots: 100, seed_simulator: 7 } }), 200);
    await expectAnswer('simulate', { path: '/v0/coda/tools/simulate', key: control, json: { code: GHZ4, method: 'statevector' } }, 200);
    await expectAnswer('simulate', { path: '/v0/coda/tools/simulate', key: control, json: { code: 'qc = QuantumCircuit(2)\nqc.foo(0)\n' } }, 422);
    await onEveryPath('toOpenQasm3', (path) => ({ path, key: control, json: { code: BELL_QISKIT } }), 200);
    await onEveryPath('estimateResources', (path) => ({ path, key: control, json: { code: GHZ4 } }), 200);
    await expectAnswer('estimateResources', { path: '/v0/coda/tools/estimate-resources', key: control, json: { code: '' } }, 422);
    await onEveryPath('splitCircuit', (path) => ({ path, key: control, json: { code: GHZ4, max_subcircuit_qubits: 2 } }), 200);
    const refused = await expectAnswer('splitCircuit', { path: '/v0/coda/tools/split-circuit', key: control, json: { code: BELL_QISKIT } }, 200);
    expect(refused.body.success).toBe(false);
  });

  it('coda QPUs', async () => {
    await onEveryPath('qpuDevices', (path) => ({ path, key: control }), 200);
    const job = { code: BELL_QISKIT, source_framework: 'qiskit', backend: 'fast-3', shots: 100 };
    const submitted = await onEveryPath('qpuSubmit', (path) => ({ path, key: control, json: job }), 200);
    await expectAnswer('qpuSubmit', { path: '/v0/coda/qpus', key: control, json: { ...job, shots: 5 } }, 422);
    await expectAnswer('qpuSubmit', { path: '/v0/coda/qpus', key: control, json: { ...job, backend: 'no-such-device' } }, 404);
    await expectAnswer('qpuSubmit', { path: '/v0/coda/qpus', key: control, json: job, headers: { 'Idempotency-Key': 'conformance-1' } }, 200);
    await expectAnswer(
      'qpuSubmit',
      { path: '/v0/coda/qpus', key: control, json: { ...job, shots: 200 }, headers: { 'Idempotency-Key': 'conformance-1' } },
      409,
    );
    await expectAnswer('setBudget', { path: '/v0/admin/budgets/{owner}', params: { owner: 'conf-broke' }, key: admin, json: { budget_cents: 0 } }, 200);
    await expectAnswer('qpuSubmit', { path: '/v0/coda/qpus', key: broke, json: job }, 402);
    const jobId = submitted[0]!.body.job_id as string;
    await onEveryPath('qpuStatus', (path) => ({ path, key: control, json: { job_id: jobId } }), 200);
    await expectAnswer('qpuStatus', { path: '/v0/coda/qpus/status', key: control, json: { job_id: UNKNOWN_ID } }, 404);
    await expectAnswer('qpuStatus', { path: '/v0/coda/qpus/status', key: control, json: {} }, 422);
    // Read to its end: status changes, then the results, validated event by event.
    const events = await onEveryPath('qpuJobEvents', (path) => ({ path, params: { job_id: jobId }, key: control }), 200);
    expect(events[0]!.events.at(-1)).toMatchObject({ type: 'results' });
    await expectAnswer('qpuJobEvents', { path: '/v0/coda/qpus/jobs/{job_id}/events', params: { job_id: UNKNOWN_ID }, key: control }, 404);
    const completed = await expectAnswer('qpuStatus', { path: '/v0/coda/qpus/status', key: control, json: { job_id: jobId } }, 200);
    expect(completed.body).toMatchObject({ status: 'completed', results: expect.any(Object) });
    await onEveryPath('qpuEstimateCost', (path) => ({ path, key: control, json: job }), 200);
    await expectAnswer('qpuEstimateCost', { path: '/v0/coda/qpus/estimate-cost', key: control, json: { ...job, backend: 'no-such-device' } }, 404);
    await onEveryPath(
      'qpuCancel',
      async (path) => {
        const slow = await fetch(`${sut.baseUrl}/v0/coda/qpus`, {
          method: 'POST',
          headers: { authorization: `Bearer ${control}`, 'content-type': 'application/json' },
          body: JSON.stringify({ ...job, backend: 'slow-3' }),
        });
        return { path, key: control, json: { job_id: ((await slow.json()) as { job_id: string }).job_id } };
      },
      200,
    );
    await expectAnswer('qpuCancel', { path: '/v0/coda/qpus/cancel', key: control, json: { job_id: jobId } }, 409);
    await expectAnswer('qpuCancel', { path: '/v0/coda/qpus/cancel', key: control, json: { job_id: UNKNOWN_ID } }, 404);
    await onEveryPath('qpuJobs', (path) => ({ path, key: control, query: 'limit=5' }), 200);
    await expectAnswer('qpuJobs', { path: '/v0/coda/qpus/jobs', key: control, query: 'status=bogus' }, 422);
  });

  it('coda assistant', async () => {
    await onEveryPath('assistantAgents', (path) => ({ path, key: control }), 200);
    const ask = { messages: [{ role: 'user', content: 'Write a Bell state circuit in Qiskit' }] };
    const runs = await onEveryPath('assistantRun', (path) => ({ path, key: control, json: ask }), 200);
    for (const run of runs) expect(run.events.at(-1)).toMatchObject({ type: 'completed' });
    await expectAnswer('assistantRun', { path: '/v0/coda/agents', key: control, json: { messages: [] } }, 422);
    await expectAnswer('assistantRun', { path: '/v0/coda/agents', key: control, json: ask, headers: { 'Last-Event-ID': `${UNKNOWN_ID}:1` } }, 404);
  });

  it('admin: keys, budgets, lab streams', async () => {
    await expectAnswer('listApiKeys', { path: '/v0/admin/keys', key: admin, query: 'owner=conf-lab' }, 200);
    await expectAnswer('listApiKeys', { path: '/v0/admin/keys', key: control }, 403);
    const created = await expectAnswer('createApiKey', { path: '/v0/admin/keys', key: admin, json: { name: 'dave', scopes: ['control'] } }, 201);
    await expectAnswer('createApiKey', { path: '/v0/admin/keys', key: admin, json: { name: 'x', scopes: ['root'] } }, 422);
    await expectAnswer('revokeApiKey', { path: '/v0/admin/keys/{id}', params: { id: created.body.id }, key: admin }, 200);
    await expectAnswer('revokeApiKey', { path: '/v0/admin/keys/{id}', params: { id: UNKNOWN_ID }, key: admin }, 404);
    await expectAnswer('getBudget', { path: '/v0/admin/budgets/{owner}', params: { owner: 'conf-lab' }, key: admin }, 200);
    await expectAnswer('getBudget', { path: '/v0/admin/budgets/{owner}', params: { owner: 'nobody-here' }, key: admin }, 404);
    await expectAnswer('setBudget', { path: '/v0/admin/budgets/{owner}', params: { owner: 'conf-lab' }, key: admin, json: { budget_cents: null } }, 200);
    await expectAnswer('setBudget', { path: '/v0/admin/budgets/{owner}', params: { owner: 'conf-lab' }, key: admin, json: { budget_cents: -1 } }, 422);
    const stream = { lab: 'conf-lab', name: 'sweep-1', models: [PEAK_V2] };
    await expectAnswer('createLabStream', { path: '/v0/admin/lab-streams', key: admin, json: stream }, 201);
    await expectAnswer('createLabStream', { path: '/v0/admin/lab-streams', key: admin, json: { ...stream, models: [] } }, 422);
    await expectAnswer('listLabStreams', { path: '/v0/admin/lab-streams', key: admin, query: 'lab=conf-lab' }, 200);
    const params = { lab: 'conf-lab', name: 'sweep-1' };
    // No frame is sent: the stream stays open; its first frame is a keepalive comment (QDC_SSE_KEEPALIVE_MS).
    await expectAnswer('labStreamEvents', { path: '/v0/lab-streams/{lab}/{name}/events', params, key: control, firstFrame: true }, 200);
    await expectAnswer('labStreamEvents', { path: '/v0/lab-streams/{lab}/{name}/events', params: { ...params, name: 'nope' }, key: admin }, 404);
    const result = { ...params, id: UNKNOWN_ID };
    const download = '/v0/admin/lab-streams/{lab}/{name}/results/{id}/download';
    await expectAnswer('downloadLabStreamResult', { path: download, params: result, key: admin }, 404);
    await expectAnswer('downloadLabStreamResult', { path: download, params: result, key: control }, 403);
    await expectAnswer('deleteLabStream', { path: '/v0/admin/lab-streams/{lab}/{name}', params, key: admin }, 200);
    await expectAnswer('deleteLabStream', { path: '/v0/admin/lab-streams/{lab}/{name}', params, key: admin }, 404);
  });

  it('admin: lab credentials (this stack runs NATS without lab users: no QDC_NATS_AUTH_DIR)', async () => {
    // Issuing and revoking for real, with a lab node connecting and being cut off: lab-streams-auth.spec.ts.
    await expectAnswer('listLabCredentials', { path: '/v0/admin/lab-credentials', key: admin }, 503);
    await expectAnswer('listLabCredentials', { path: '/v0/admin/lab-credentials', key: control }, 403);
    await expectAnswer('createLabCredential', { path: '/v0/admin/lab-credentials', key: admin, json: { lab: 'conf-lab' } }, 503);
    await expectAnswer('createLabCredential', { path: '/v0/admin/lab-credentials', key: admin, json: { lab: 'Not A Lab!' } }, 422);
    await expectAnswer('revokeLabCredential', { path: '/v0/admin/lab-credentials/{lab}', params: { lab: 'conf-lab' }, key: admin }, 503);
    await expectAnswer('revokeLabCredential', { path: '/v0/admin/lab-credentials/{lab}', params: { lab: 'Not A Lab!' }, key: admin }, 422);
  });

  it('webhooks', async () => {
    const hook = { url: 'https://hooks.example.org/conf', events: ['qpu.job.status'] };
    const created = await expectAnswer('createWebhook', { path: '/v0/webhooks', key: control, json: hook }, 201);
    await expectAnswer('createWebhook', { path: '/v0/webhooks', key: control, json: { ...hook, url: 'http://hooks.example.org/conf' } }, 422);
    await expectAnswer('listWebhooks', { path: '/v0/webhooks', key: control }, 200);
    const params = { id: created.body.id };
    await expectAnswer('rotateWebhookSecret', { path: '/v0/webhooks/{id}/rotate-secret', params, key: control }, 200);
    await expectAnswer('rotateWebhookSecret', { path: '/v0/webhooks/{id}/rotate-secret', params: { id: UNKNOWN_ID }, key: control }, 404);
    await expectAnswer('listWebhookDeliveries', { path: '/v0/webhooks/{id}/deliveries', params, key: control, query: 'limit=10' }, 200);
    await expectAnswer('listWebhookDeliveries', { path: '/v0/webhooks/{id}/deliveries', params, key: control, query: 'status=sent' }, 422);
    await expectAnswer('listWebhookDeliveries', { path: '/v0/webhooks/{id}/deliveries', params, key: admin }, 404);
    await expectAnswer('deleteWebhook', { path: '/v0/webhooks/{id}', params, key: control }, 200);
    await expectAnswer('deleteWebhook', { path: '/v0/webhooks/{id}', params, key: control }, 404);
  });

  it('system: health, probes, metrics, removed routes', async () => {
    await onEveryPath('health', (path) => ({ path, key: null }), 200);
    await expectAnswer('livez', { path: '/livez', key: null }, 200);
    await expectAnswer('readyz', { path: '/readyz', key: null }, 200);
    await expectAnswer('metrics', { path: '/metrics', key: null }, 200);
    await onEveryPath('removedSearchFetch', (path) => ({ path, key: null, json: {} }), 410);
  });

  it('called every documented method and path', () => {
    const documented = HTTP_ROUTES.flatMap((r) => r.paths.map((p) => `${r.method} ${p}`));
    expect(documented.filter((d) => !called.has(d))).toEqual([]);
  });
});
