import { MODEL_CATALOGUE } from '#qdc/characterization';

/**
 * The OpenAPI 3 description of the control API (SPEC §3), written by hand so it states the
 * wire contract exactly (field names, status codes, FastAPI-style errors).
 */
const error = { $ref: '#/components/schemas/HTTPError' };
const validation = { $ref: '#/components/schemas/HTTPValidationError' };
const json = (schema: object) => ({ 'application/json': { schema } });
const responses = (ok: object, extra: Record<string, string> = {}) => ({
  200: { description: 'OK', content: json(ok) },
  401: { description: 'Missing, malformed, unknown or revoked API key', content: json(error) },
  403: { description: 'The key lacks the needed scope', content: json(error) },
  429: { description: 'Rate limit exceeded (see Retry-After)', content: json(error) },
  ...Object.fromEntries(Object.entries(extra).map(([code, description]) => [code, { description, content: json(code === '422' ? validation : error) }])),
});
const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const query = (name: string, schema: object, description?: string) => ({ name, in: 'query', required: false, schema, description });
const upload = {
  'multipart/form-data': {
    schema: {
      type: 'object',
      required: ['model', 'data'],
      properties: {
        model: { type: 'string', enum: MODEL_CATALOGUE.map((m) => m.id) },
        data: { type: 'string', format: 'binary', description: '.npy (v1/v2/v3) or .pt (torch.save zip) file holding one array' },
        plot: { type: 'boolean', default: false },
        dark_mode: { type: 'boolean', default: false },
      },
    },
  },
};

const controlPaths: Record<string, object> = {
  '/models': {
    get: {
      summary: 'List models',
      parameters: [query('skip', { type: 'integer', minimum: 0, default: 0 }), query('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 })],
      responses: responses({ type: 'array', items: { $ref: '#/components/schemas/Model' } }, { 422: 'Bad skip/limit' }),
    },
    post: {
      summary: 'Run a model on an uploaded array',
      requestBody: { required: true, content: upload },
      responses: responses({ $ref: '#/components/schemas/ModelResult' }, { 404: 'Model not found', 413: 'Upload over the limit (64 MiB)', 422: 'Unreadable file, wrong shape, NaN/Inf, …' }),
    },
  },
  '/models/batch': {
    post: {
      summary: 'Run a batching model on a (batch_size, trace_length) array',
      requestBody: { required: true, content: upload },
      responses: responses({ $ref: '#/components/schemas/ModelBatchResult' }, { 404: 'Model not found', 413: 'Upload over the limit', 422: 'Not a batching model, or bad input' }),
    },
  },
  '/models/{model_id}': {
    get: { summary: 'Get a model', parameters: [idParam('model_id')], responses: responses({ $ref: '#/components/schemas/Model' }, { 404: 'Model not found' }) },
  },
  '/model-results': {
    get: {
      summary: "List the caller's results, newest first",
      parameters: [
        query('skip', { type: 'integer', minimum: 0, default: 0 }),
        query('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }),
        query('model_str_id', { type: 'string' }),
        query('start_date', { type: 'string' }, 'ISO date or date-time, inclusive'),
        query('end_date', { type: 'string' }, 'ISO date or date-time, inclusive'),
      ],
      responses: responses({ type: 'array', items: { $ref: '#/components/schemas/MaskedModelResult' } }, { 422: 'Bad query parameter' }),
    },
  },
  '/model-results/{id}': {
    get: { summary: 'Get a result', parameters: [idParam('id')], responses: responses({ $ref: '#/components/schemas/ModelResult' }, { 404: 'Not found (or not yours)' }) },
    delete: { summary: 'Delete a result, its votes and its stored input', parameters: [idParam('id')], responses: responses(error, { 404: 'Not found' }) },
  },
  '/model-results/{id}/download': {
    get: {
      summary: 'Zip of result.json and the original input file',
      parameters: [idParam('id')],
      responses: { 200: { description: 'zip', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } }, 404: { description: 'Not found', content: json(error) } },
    },
  },
  '/model-results/{id}/vote': {
    put: {
      summary: "Create or replace the caller's vote",
      parameters: [idParam('id')],
      requestBody: { required: true, content: json({ type: 'object', required: ['vote'], properties: { vote: { type: 'integer', enum: [1, -1] }, feedback: { type: 'string', maxLength: 4000 } } }) },
      responses: responses({ $ref: '#/components/schemas/Vote' }, { 404: 'Not found', 422: 'vote is not 1 or -1, or feedback too long' }),
    },
    delete: { summary: "Remove the caller's vote", parameters: [idParam('id')], responses: responses(error, { 404: 'No such result or no vote' }) },
  },
};

function withBases(paths: Record<string, object>, bases: string[]): Record<string, object> {
  const out: Record<string, object> = {};
  for (const base of bases) for (const [path, item] of Object.entries(paths)) out[`${base}${path}`] = item;
  return out;
}

export function openApiDocument(): object {
  return {
    openapi: '3.1.0',
    info: {
      title: 'QDC — quantum device characterization',
      version: '0.1.0',
      description: 'Self-hostable, wire-compatible with the Conductor Quantum control API. Authenticate with `Authorization: Bearer coda_…`.',
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }],
    paths: {
      ...withBases(controlPaths, ['/v0/control', '/v0']),
      '/v0/health': { get: { summary: 'Health', security: [], responses: { 200: { description: 'ok', content: json({ type: 'object', properties: { status: { type: 'string' } } }) } } } },
      '/v0/admin/keys': {
        get: { summary: 'List API keys (admin)', parameters: [query('owner', { type: 'string' })], responses: responses({ type: 'array', items: { $ref: '#/components/schemas/ApiKey' } }) },
        post: {
          summary: 'Create an API key (admin); the token is returned once',
          requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' }, owner: { type: 'string' }, scopes: { type: 'array', items: { type: 'string', enum: ['control', 'coda', 'admin'] } } } }) },
          responses: responses({ $ref: '#/components/schemas/ApiKey' }, { 422: 'Bad body' }),
        },
      },
      '/v0/admin/keys/{id}': { delete: { summary: 'Revoke an API key (admin)', parameters: [idParam('id')], responses: responses({ $ref: '#/components/schemas/ApiKey' }, { 404: 'Not found' }) } },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        HTTPError: { type: 'object', properties: { detail: { type: 'string' }, error_id: { type: 'string' } } },
        HTTPValidationError: {
          type: 'object',
          properties: { detail: { type: 'array', items: { type: 'object', properties: { loc: { type: 'array', items: { type: ['string', 'integer'] } }, msg: { type: 'string' }, type: { type: 'string' } } } } },
        },
        Model: {
          type: 'object',
          required: ['id', 'name', 'description', 'released', 'number_of_runs', 'input_shape_requirements', 'nn_input_shape_requirements', 'nn_output_shape_requirements'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            description: { type: 'string' },
            released: { type: 'string', format: 'date-time' },
            number_of_runs: { type: 'integer' },
            input_shape_requirements: { type: 'string' },
            nn_input_shape_requirements: { type: ['array', 'null'], items: { type: 'string' } },
            nn_output_shape_requirements: { type: ['array', 'null'], items: { type: 'string' } },
          },
        },
        ModelResult: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid' },
            model: { type: 'string' },
            created_at: { type: 'string', format: 'date-time' },
            input_file_name: { type: 'string' },
            input_file_size: { type: 'integer' },
            output: { type: 'object' },
            user_vote: { type: ['integer', 'null'], enum: [1, -1, null] },
          },
        },
        ModelBatchResult: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid' },
            model: { type: 'string' },
            created_at: { type: 'string', format: 'date-time' },
            input_file_name: { type: 'string' },
            batch_size: { type: 'integer' },
            output: { type: 'object', properties: { outputs: { type: 'array', items: { type: 'object' } } } },
          },
        },
        MaskedModelResult: { type: 'object', properties: { id: { type: 'string' }, model: { type: 'string' }, created_at: { type: 'string' }, output: { type: 'object' } } },
        Vote: { type: 'object', properties: { model_result_id: { type: 'string' }, vote: { type: 'integer' }, feedback: { type: ['string', 'null'] } } },
        ApiKey: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            owner: { type: 'string' },
            scopes: { type: 'array', items: { type: 'string' } },
            token_hint: { type: 'string' },
            created_at: { type: 'string' },
            revoked_at: { type: ['string', 'null'] },
            token: { type: 'string', description: 'only in the creation reply' },
          },
        },
      },
    },
  };
}
