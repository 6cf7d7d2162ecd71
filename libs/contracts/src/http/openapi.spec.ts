import { HTTP_ROUTES } from './routes.js';
import { openApiDocument, type JsonSchema } from './openapi.js';

/** The paths of the hand-written document this one replaced (clients and medium tests rely on them). */
const FORMER_PATHS = [
  ...[
    '/models',
    '/models/batch',
    '/models/{model_id}',
    '/model-results',
    '/model-results/{id}',
    '/model-results/{id}/download',
    '/model-results/{id}/vote',
  ].flatMap((p) => [`/v0/control${p}`, `/v0${p}`]),
  '/v0/control/agents',
  '/v0/control/agents/{agent_id}',
  '/v0/agents/{agent_id}',
  ...['transpile', 'simulate', 'to-openqasm3', 'estimate-resources', 'split-circuit'].flatMap((t) => [
    `/v0/coda/tools/${t}`,
    `/v0/coda/${t}`,
    `/v0/tools/${t}`,
    `/v0/${t}`,
  ]),
  '/v0/coda/agents',
  '/v0/agents',
  ...['/qpus', '/qpu/devices', '/qpu/submit', '/qpus/status', '/qpu/status', '/qpus/estimate-cost', '/qpu/estimate-cost', '/qpus/cancel', '/qpus/jobs'].flatMap(
    (p) => [`/v0/coda${p}`, `/v0${p}`],
  ),
  '/v0/health',
  '/v0/admin/keys',
  '/v0/admin/keys/{id}',
  '/v0/admin/budgets/{owner}',
];

const refsIn = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(refsIn)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([k, v]) => (k === '$ref' && typeof v === 'string' ? [v] : refsIn(v)))
      : [];

describe(openApiDocument.name, () => {
  const sut = openApiDocument();
  const operations = Object.entries(sut.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

  it('is OpenAPI 3.1 and keeps every path of the former hand-written document, plus /v0/admin/lab-streams', () => {
    expect(sut.openapi).toBe('3.1.0');
    expect(Object.keys(sut.paths)).toEqual(expect.arrayContaining([...FORMER_PATHS, '/v0/admin/lab-streams', '/v0/admin/lab-streams/{lab}/{name}']));
  });

  it('has one operation per route and path, each operationId once (aliases name their canonical path instead)', () => {
    expect(operations).toHaveLength(HTTP_ROUTES.reduce((n, r) => n + r.paths.length, 0));
    const ids = operations.map(({ op }) => op.operationId).filter(Boolean);
    expect(ids).toHaveLength(HTTP_ROUTES.length);
    expect(new Set(ids).size).toBe(ids.length);
    const aliases = operations.filter(({ op }) => op['x-qdc-alias-of']);
    for (const { op } of aliases) expect(sut.paths[op['x-qdc-alias-of'] as string]).toBeDefined();
  });

  it('resolves every $ref to a component', () => {
    const missing = refsIn(sut).filter((ref) => !sut.components.schemas[ref.replace('#/components/schemas/', '')]);
    expect(missing).toEqual([]);
  });

  it('declares exactly the parameters of each path template', () => {
    for (const { path, op } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters as JsonSchema[]).filter((p) => p.in === 'path').map((p) => p.name);
      expect({ path, declared }).toEqual({ path, declared: inPath });
    }
  });

  it('answers validation errors FastAPI-style on control routes and in the coda shape on coda routes', () => {
    const schemaOf = (path: string, method: string, status: number) =>
      ((sut.paths[path]![method]!.responses as Record<string, JsonSchema>)[status]!.content as Record<string, JsonSchema>)['application/json']!.schema;
    expect(schemaOf('/v0/control/model-results/{id}/vote', 'put', 422)).toEqual({ $ref: '#/components/schemas/HTTPValidationError' });
    expect(schemaOf('/v0/coda/qpus', 'post', 422)).toEqual({ $ref: '#/components/schemas/CodaError' });
    expect(schemaOf('/v0/coda/tools/simulate', 'post', 401)).toEqual({ $ref: '#/components/schemas/CodaError' });
    expect(schemaOf('/v0/models', 'get', 401)).toEqual({ $ref: '#/components/schemas/HTTPError' });
  });

  it('takes the QPU shapes from libs/contracts/src/qpu.ts (shots 10–10000, submit says submitted)', () => {
    const { schemas } = sut.components;
    expect((schemas.QpuSubmitRequest!.properties as Record<string, JsonSchema>).shots).toMatchObject({
      type: 'integer',
      minimum: 10,
      maximum: 10000,
      default: 100,
    });
    expect(schemas.QpuSubmitRequest!.required).toEqual(['code', 'backend']);
    expect((schemas.QpuSubmitResponse!.properties as Record<string, JsonSchema>).status).toMatchObject({ const: 'submitted' });
    expect(schemas.QpuSubmitResponse!.required).toEqual(
      expect.arrayContaining(['success', 'job_id', 'status', 'backend', 'shots', 'estimated_cost_cents', 'credits_applied', 'overage_cents']),
    );
    expect(Object.keys(schemas.QpuStatusResponse!.properties as object)).toEqual(expect.arrayContaining(['results', 'counts', 'submitted_at', 'cost_cents']));
  });

  it('is the same document every time (deterministic: served once per boot, diffable)', () => {
    expect(JSON.stringify(openApiDocument())).toBe(JSON.stringify(sut));
  });
});
