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
      responses: responses(
        { $ref: '#/components/schemas/ModelResult' },
        { 404: 'Model not found', 413: 'Upload over the limit (64 MiB)', 422: 'Unreadable file, wrong shape, NaN/Inf, …' },
      ),
    },
  },
  '/models/batch': {
    post: {
      summary: 'Run a batching model on a (batch_size, trace_length) array',
      requestBody: { required: true, content: upload },
      responses: responses(
        { $ref: '#/components/schemas/ModelBatchResult' },
        { 404: 'Model not found', 413: 'Upload over the limit', 422: 'Not a batching model, or bad input' },
      ),
    },
  },
  '/models/{model_id}': {
    get: {
      summary: 'Get a model',
      parameters: [idParam('model_id')],
      responses: responses({ $ref: '#/components/schemas/Model' }, { 404: 'Model not found' }),
    },
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
    get: {
      summary: 'Get a result',
      parameters: [idParam('id')],
      responses: responses({ $ref: '#/components/schemas/ModelResult' }, { 404: 'Not found (or not yours)' }),
    },
    delete: { summary: 'Delete a result, its votes and its stored input', parameters: [idParam('id')], responses: responses(error, { 404: 'Not found' }) },
  },
  '/model-results/{id}/download': {
    get: {
      summary: 'Zip of result.json and the original input file',
      parameters: [idParam('id')],
      responses: {
        200: { description: 'zip', content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } } },
        404: { description: 'Not found', content: json(error) },
      },
    },
  },
  '/model-results/{id}/vote': {
    put: {
      summary: "Create or replace the caller's vote",
      parameters: [idParam('id')],
      requestBody: {
        required: true,
        content: json({
          type: 'object',
          required: ['vote'],
          properties: { vote: { type: 'integer', enum: [1, -1] }, feedback: { type: 'string', maxLength: 4000 } },
        }),
      },
      responses: responses({ $ref: '#/components/schemas/Vote' }, { 404: 'Not found', 422: 'vote is not 1 or -1, or feedback too long' }),
    },
    delete: { summary: "Remove the caller's vote", parameters: [idParam('id')], responses: responses(error, { 404: 'No such result or no vote' }) },
  },
};

/** Control agents (SPEC §3, §6): the list only at /v0/control (GET /v0/agents is the coda assistant's); runs at both bases. */
const agentRun = {
  post: {
    summary: 'Run a control agent (ising-calibration-v1: calibration plot or arrays → fit and assessment); JSON up to 8 MiB',
    parameters: [idParam('agent_id')],
    requestBody: {
      required: true,
      content: json({
        type: 'object',
        properties: {
          image_base64: { type: 'string', description: 'PNG or JPEG, base64 or data: URL' },
          prompt: { type: 'string' },
          max_tokens: { type: 'integer', minimum: 1 },
          data: {
            type: 'object',
            required: ['x', 'y'],
            properties: {
              experiment: { type: 'string' },
              x: { type: 'array', items: { type: 'number' } },
              y: { type: 'array' },
              x_label: { type: 'string' },
              y_label: { type: 'string' },
              units: {},
            },
          },
        },
      }),
    },
    responses: responses(
      { type: 'object', properties: { content: { type: 'string' }, model: { type: 'string' }, usage: { type: 'object' }, assessment: { type: 'object' } } },
      {
        404: 'Agent not found',
        413: 'Body over 8 MiB',
        422: 'Body not what the agent expects',
        503: 'Configured VLM not reachable',
        504: 'Configured VLM timed out',
      },
    ),
  },
};
const agentPaths: Record<string, object> = {
  '/v0/control/agents': {
    get: {
      summary: 'List control agents',
      parameters: [query('skip', { type: 'integer', minimum: 0, default: 0 }), query('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 })],
      responses: responses(
        { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' } } } },
        { 422: 'Bad skip/limit' },
      ),
    },
  },
  '/v0/control/agents/{agent_id}': agentRun,
  '/v0/agents/{agent_id}': agentRun,
};

function withBases(paths: Record<string, object>, bases: string[]): Record<string, object> {
  const out: Record<string, object> = {};
  for (const base of bases) for (const [path, item] of Object.entries(paths)) out[`${base}${path}`] = item;
  return out;
}

const codaError = { type: 'object', properties: { success: { const: false }, error: { type: 'string' } } };
const codaResponses = (ok: object) => ({
  200: { description: 'OK', content: json(ok) },
  401: { description: 'Missing, malformed, unknown or revoked API key', content: json(error) },
  403: { description: 'The key lacks the coda scope', content: json(error) },
  413: { description: 'Circuit or statevector larger than the configured limits', content: json(codaError) },
  422: { description: 'Bad body, or source outside the supported subset (line and construct in `error`)', content: json(codaError) },
  429: { description: 'Rate limit exceeded (see Retry-After)', content: json(error) },
});
const codeProperty = {
  type: 'string',
  description: 'Qiskit or Cirq Python source (parsed, never executed), OpenQASM 2 or OpenQASM 3; the framework is detected',
};
const entryPointProperty = {
  type: ['string', 'null'],
  pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
  description:
    'Python only: the module-level function whose returned circuit is meant (callable without arguments). Without it: the circuit built at top level, else the single function that returns one',
};
const frameworks = ['qiskit', 'cirq', 'openqasm2', 'openqasm3', 'pennylane', 'braket'];
const tool = (summary: string, body: object, ok: object) => ({
  post: { summary, tags: ['coda tools'], requestBody: { required: true, content: json(body) }, responses: codaResponses(ok) },
});

/** Circuit tools (SPEC §4): canonical /v0/coda/tools/<tool>; legacy /v0/coda/<tool>, /v0/tools/<tool>, /v0/<tool>. */
const codaToolPaths: Record<string, object> = {
  '/transpile': tool(
    'Convert a circuit between frameworks',
    {
      type: 'object',
      required: ['source_code', 'target'],
      properties: { source_code: codeProperty, target: { type: 'string', enum: frameworks }, entry_point: entryPointProperty },
    },
    {
      type: 'object',
      properties: { success: { const: true }, source_framework: { type: 'string' }, target_framework: { type: 'string' }, converted_code: { type: 'string' } },
    },
  ),
  '/simulate': tool(
    'Simulate a circuit (statevector simulator; counts are little-endian: classical bit 0 rightmost)',
    {
      type: 'object',
      required: ['code'],
      properties: {
        code: codeProperty,
        method: { type: 'string', enum: ['qasm', 'statevector'], default: 'qasm' },
        shots: { type: 'integer', minimum: 1, default: 1024 },
        backend: { type: 'string', default: 'auto' },
        seed_simulator: { type: ['integer', 'null'] },
        entry_point: entryPointProperty,
      },
    },
    {
      type: 'object',
      properties: {
        success: { const: true },
        method: { type: 'string' },
        counts: { type: 'object', additionalProperties: { type: 'integer' } },
        statevector: {
          type: 'array',
          items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
          description: 'amplitudes as [re, im] (method=statevector)',
        },
      },
    },
  ),
  '/to-openqasm3': tool(
    'Convert a circuit to OpenQASM 3',
    { type: 'object', required: ['code'], properties: { code: codeProperty, entry_point: entryPointProperty } },
    { type: 'object', properties: { success: { const: true }, openqasm3: { type: 'string' } } },
  ),
  '/estimate-resources': tool(
    'Count qubits, clbits, depth and gates',
    { type: 'object', required: ['code'], properties: { code: codeProperty, entry_point: entryPointProperty } },
    {
      type: 'object',
      properties: {
        success: { const: true },
        qubit_count: { type: 'integer' },
        clbit_count: { type: 'integer' },
        depth: { type: 'integer' },
        gate_counts: { type: 'object', additionalProperties: { type: 'integer' } },
        two_qubit_gate_count: { type: 'integer' },
      },
    },
  ),
  '/split-circuit': tool(
    'Cut a circuit into subcircuits of at most max_subcircuit_qubits qubits',
    {
      type: 'object',
      required: ['code'],
      properties: { code: codeProperty, max_subcircuit_qubits: { type: ['integer', 'null'], minimum: 1 }, entry_point: entryPointProperty },
    },
    {
      type: 'object',
      properties: {
        success: { type: 'boolean' },
        original_qubit_count: { type: 'integer' },
        subcircuits: { type: 'array', items: { type: 'object' } },
        error: { type: 'string' },
      },
    },
  ),
};

/** The unified assistant (SPEC §4): canonical /v0/coda/agents, legacy /v0/agents. */
const assistantPath = {
  get: {
    summary: 'List the assistant agents',
    tags: ['coda assistant'],
    responses: codaResponses({
      type: 'object',
      properties: { agents: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, description: { type: 'string' } } } } },
    }),
  },
  post: {
    summary: 'Ask the assistant; answers as server-sent events (`id: <run>:<n>`, `data: <json>`; reconnect with Last-Event-ID to resume)',
    tags: ['coda assistant'],
    parameters: [
      {
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        schema: { type: 'string' },
        description: 'the last event id received: replays the rest of that run',
      },
    ],
    requestBody: {
      required: true,
      content: json({
        type: 'object',
        required: ['messages'],
        properties: {
          messages: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['role', 'content'],
              properties: { role: { type: 'string', enum: ['user', 'assistant', 'system'] }, content: { type: 'string' } },
            },
          },
          thread_id: { type: ['string', 'null'] },
          budget: { type: 'string', enum: ['low', 'medium', 'high'], default: 'high' },
          code_mode: { type: 'string', enum: ['inline', 'file'], default: 'inline' },
          mode: { description: 'deprecated; any value accepted and ignored' },
          fast: { description: 'deprecated; accepted and ignored' },
        },
      }),
    },
    responses: {
      ...codaResponses({}),
      200: {
        description:
          'Event stream: `token {content}`, `files {files: [{path, language, content}]}` (code_mode=file), then one of `completed {thread_id, usage, verification}`, `error {error}`, `cancelled`; `: keepalive` comments while idle',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      404: { description: "Last-Event-ID names an unknown run, another owner's, or one older than the replay window", content: json(codaError) },
      503: { description: 'The assistant service is not answering', content: json(codaError) },
    },
  },
};

/** QPU devices and jobs (SPEC §4/§6): canonical /v0/coda/qpus…, legacy /v0/coda/qpu/…, both also under /v0. */
const qpuResponses = (ok: object, extra: Record<number, string>) => ({
  ...codaResponses(ok),
  ...Object.fromEntries(Object.entries(extra).map(([status, description]) => [status, { description, content: json(codaError) }])),
});
const jobSpec = {
  type: 'object',
  required: ['code', 'backend'],
  properties: {
    code: codeProperty,
    source_framework: { type: 'string', enum: ['qiskit', 'cirq', 'openqasm2', 'openqasm3'] },
    backend: { type: 'string', description: 'device id from GET /qpus' },
    shots: { type: 'integer', minimum: 1, default: 100 },
    braket_execution_mode_hint: { type: ['string', 'null'] },
    entry_point: entryPointProperty,
  },
};
const submitBody = { ...jobSpec, properties: { ...jobSpec.properties, accept_overage: { type: 'boolean', default: false } } };
const jobIdBody = { type: 'object', required: ['job_id'], properties: { job_id: { type: 'string' } } };
const compiledStats = {
  type: 'object',
  properties: {
    native_gate_count: { type: 'integer' },
    two_qubit_gate_count: { type: 'integer' },
    swap_count: { type: 'integer' },
    depth: { type: 'integer' },
  },
};
const qpuJob = {
  type: 'object',
  properties: {
    job_id: { type: 'string' },
    status: { type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
    device: { type: 'string' },
    shots: { type: 'integer' },
    compiled: compiledStats,
    estimated_cost_cents: { type: 'number' },
    cost_cents: { type: ['number', 'null'] },
    counts: { type: 'object', additionalProperties: { type: 'integer' } },
    error: { type: 'string' },
    queue_position: { type: 'integer' },
    submitted_at: { type: 'string', format: 'date-time' },
    started_at: { type: 'string', format: 'date-time' },
    completed_at: { type: 'string', format: 'date-time' },
  },
};
const devicesGet = {
  get: {
    summary: 'List QPU devices',
    tags: ['coda QPUs'],
    responses: codaResponses({ type: 'object', properties: { success: { const: true }, devices: { type: 'array', items: { type: 'object' } } } }),
  },
};
const submitPost = {
  post: {
    summary: 'Submit a QPU job (idempotent with the Idempotency-Key header, 24 h)',
    tags: ['coda QPUs'],
    parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } }],
    requestBody: { required: true, content: json(submitBody) },
    responses: qpuResponses(
      {
        type: 'object',
        properties: {
          success: { const: true },
          job_id: { type: 'string' },
          status: { type: 'string' },
          estimated_cost_cents: { type: 'number' },
          idempotent_replay: { type: 'boolean' },
        },
      },
      { 402: 'Estimate exceeds the remaining budget (send accept_overage)', 404: 'Unknown device', 409: 'Idempotency-Key reused with a different body' },
    ),
  },
};
const statusPost = {
  post: {
    summary: 'Status (and counts) of one of your jobs',
    tags: ['coda QPUs'],
    requestBody: { required: true, content: json(jobIdBody) },
    responses: qpuResponses(qpuJob, { 404: 'Unknown job (or another owner’s)' }),
  },
};
const estimatePost = {
  post: {
    summary: 'Estimate a job’s cost (per task + shots × per shot)',
    tags: ['coda QPUs'],
    requestBody: { required: true, content: json(jobSpec) },
    responses: qpuResponses(
      {
        type: 'object',
        properties: {
          success: { const: true },
          estimated_cost_cents: { type: 'number' },
          compiled: compiledStats,
          budget_cents: { type: ['number', 'null'] },
          remaining_cents: { type: ['number', 'null'] },
        },
      },
      { 404: 'Unknown device' },
    ),
  },
};
const qpuPaths: Record<string, object> = {
  '/qpus': { ...devicesGet, ...submitPost },
  '/qpu/devices': devicesGet,
  '/qpu/submit': submitPost,
  '/qpus/status': statusPost,
  '/qpu/status': statusPost,
  '/qpus/estimate-cost': estimatePost,
  '/qpu/estimate-cost': estimatePost,
  '/qpus/cancel': {
    post: {
      summary: 'Cancel a queued or running job',
      tags: ['coda QPUs'],
      requestBody: { required: true, content: json(jobIdBody) },
      responses: qpuResponses(
        { type: 'object', properties: { success: { const: true }, job_id: { type: 'string' }, status: { const: 'cancelled' } } },
        { 404: 'Unknown job', 409: 'The job has already ended' },
      ),
    },
  },
  '/qpus/jobs': {
    get: {
      summary: 'Your jobs, newest first',
      tags: ['coda QPUs'],
      parameters: [
        query('skip', { type: 'integer', minimum: 0, default: 0 }),
        query('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }),
        query('status', { type: 'string', enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] }),
        query('device', { type: 'string' }),
      ],
      responses: codaResponses({ type: 'object', properties: { success: { const: true }, jobs: { type: 'array', items: qpuJob } } }),
    },
  },
};

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
      ...agentPaths,
      ...withBases(codaToolPaths, ['/v0/coda/tools', '/v0/coda', '/v0/tools', '/v0']),
      '/v0/coda/agents': assistantPath,
      '/v0/agents': assistantPath,
      ...withBases(qpuPaths, ['/v0/coda', '/v0']),
      '/v0/health': {
        get: {
          summary: 'Health',
          security: [],
          responses: { 200: { description: 'ok', content: json({ type: 'object', properties: { status: { type: 'string' } } }) } },
        },
      },
      '/v0/admin/keys': {
        get: {
          summary: 'List API keys (admin)',
          parameters: [query('owner', { type: 'string' })],
          responses: responses({ type: 'array', items: { $ref: '#/components/schemas/ApiKey' } }),
        },
        post: {
          summary: 'Create an API key (admin); the token is returned once',
          requestBody: {
            required: true,
            content: json({
              type: 'object',
              required: ['name'],
              properties: {
                name: { type: 'string' },
                owner: { type: 'string' },
                scopes: { type: 'array', items: { type: 'string', enum: ['control', 'coda', 'admin'] } },
              },
            }),
          },
          responses: responses({ $ref: '#/components/schemas/ApiKey' }, { 422: 'Bad body' }),
        },
      },
      '/v0/admin/budgets/{owner}': {
        get: {
          summary: 'An owner’s QPU budget, spending and what is left (admin)',
          parameters: [idParam('owner')],
          responses: responses({ type: 'object' }, { 404: 'Unknown owner' }),
        },
        put: {
          summary: 'Set an owner’s QPU budget in cents, null = unlimited (admin)',
          parameters: [idParam('owner')],
          requestBody: {
            required: true,
            content: json({ type: 'object', required: ['budget_cents'], properties: { budget_cents: { type: ['integer', 'null'], minimum: 0 } } }),
          },
          responses: responses({ type: 'object' }, { 404: 'Unknown owner', 422: 'Bad body' }),
        },
      },
      '/v0/admin/keys/{id}': {
        delete: {
          summary: 'Revoke an API key (admin)',
          parameters: [idParam('id')],
          responses: responses({ $ref: '#/components/schemas/ApiKey' }, { 404: 'Not found' }),
        },
      },
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        HTTPError: { type: 'object', properties: { detail: { type: 'string' }, error_id: { type: 'string' } } },
        HTTPValidationError: {
          type: 'object',
          properties: {
            detail: {
              type: 'array',
              items: {
                type: 'object',
                properties: { loc: { type: 'array', items: { type: ['string', 'integer'] } }, msg: { type: 'string' }, type: { type: 'string' } },
              },
            },
          },
        },
        Model: {
          type: 'object',
          required: [
            'id',
            'name',
            'description',
            'released',
            'number_of_runs',
            'input_shape_requirements',
            'nn_input_shape_requirements',
            'nn_output_shape_requirements',
          ],
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
        MaskedModelResult: {
          type: 'object',
          properties: { id: { type: 'string' }, model: { type: 'string' }, created_at: { type: 'string' }, output: { type: 'object' } },
        },
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
