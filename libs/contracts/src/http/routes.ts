import { z } from 'zod';
import type { Scope } from '../scopes.js';
import {
  ApiKeyCreateHttpRequest,
  ApiKeyHttp,
  ApiKeyHttpParams,
  ApiKeysHttpQuery,
  ApiKeysHttpResponse,
  CreatedApiKeyHttp,
  CreatedLabCredentialHttp,
  LabCredentialCreateHttpRequest,
  LabCredentialHttpParams,
  LabCredentialsHttpResponse,
  LabStreamCreateHttpRequest,
  LabStreamDeleteHttpResponse,
  LabStreamEventHttp,
  LabStreamEventsHttpHeaders,
  LabStreamEventsHttpParams,
  LabStreamHttp,
  LabStreamHttpParams,
  LabStreamResultHttpParams,
  LabStreamsHttpQuery,
  LabStreamsHttpResponse,
  QpuBudgetHttp,
  QpuBudgetHttpParams,
  QpuBudgetHttpRequest,
  RevokedLabCredentialHttp,
} from './admin.js';
import { AssistantAgentsHttpResponse, AssistantEventHttp, AssistantHttpHeaders, AssistantRequestHttp } from './assistant.js';
import {
  CodeHttpRequest,
  EstimateResourcesHttpResponse,
  SimulateHttpRequest,
  SimulateHttpResponse,
  SplitCircuitHttpRequest,
  SplitCircuitHttpResponse,
  ToOpenQasm3HttpResponse,
  TranspileHttpRequest,
  TranspileHttpResponse,
} from './coda-tools.js';
import {
  QpuCancelHttpResponse,
  QpuDevicesHttpResponse,
  QpuEstimateHttpResponse,
  QpuJobHttpRequest,
  QpuJobEventHttp,
  QpuJobEventsHttpHeaders,
  QpuJobEventsHttpParams,
  QpuJobIdHttpRequest,
  QpuJobsHttpQuery,
  QpuJobsHttpResponse,
  QpuStatusHttpResponse,
  QpuSubmitHttpHeaders,
  QpuSubmitHttpRequest,
  QpuSubmitHttpResponse,
} from './coda-qpus.js';
import { CalibrationAgentHttpRequest, CalibrationAgentHttpResponse, ControlAgentHttpParams, ControlAgentsHttpResponse } from './control-agents.js';
import { ModelBatchResultHttp, ModelHttp, ModelHttpParams, ModelResultHttp, ModelRunHttpForm, ModelsHttpResponse, PageHttpQuery } from './control-models.js';
import {
  MaskedModelResultsHttpResponse,
  ModelResultHttpParams,
  ModelResultsHttpQuery,
  StoredModelResultHttp,
  VoteHttpRequest,
  VoteResponseHttp,
} from './control-results.js';
import { CodaErrorHttpResponse, DetailHttpResponse, HttpErrorResponse, HttpValidationErrorResponse } from './errors.js';
import { HealthHttpResponse, ReadinessHttpResponse } from './system.js';
import {
  WebhookCreateHttpRequest,
  WebhookDeliveriesHttpQuery,
  WebhookDeliveriesHttpResponse,
  WebhookHttpParams,
  WebhooksHttpResponse,
  WebhookWithSecretHttp,
} from './webhooks.js';

/**
 * The HTTP API as data: every route the gateway serves, with its paths (canonical first, then aliases), scope,
 * request and answers by status. The OpenAPI document is generated from it (openapi.ts), the gateway validates bodies
 * with the same schema objects, and two tests hold it to what is served: a unit test compares it with the gateway's
 * registered routes, a medium test calls every route and checks each answer against the schema of its status.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpResponseSpec {
  description: string;
  /** The body; absent for an answer without one. */
  schema?: z.ZodType;
  /** Default `application/json`. */
  contentType?: string;
  /** Response headers worth documenting (name → description). */
  headers?: Record<string, string>;
}

export interface HttpRouteSpec {
  /** operationId of the canonical path. */
  id: string;
  method: HttpMethod;
  /** OpenAPI path templates (`{param}`): the canonical path first, then the aliases that answer the same. */
  paths: readonly string[];
  summary: string;
  description?: string;
  tag: string;
  /** The scope the API key needs; `any` = any valid key; null = no key (health, probes, metrics, removed routes). */
  scope: Scope | 'any' | null;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: { schema: z.ZodType; contentType: 'application/json' | 'multipart/form-data' };
  responses: Readonly<Record<number, HttpResponseSpec>>;
  deprecated?: boolean;
}

const json = (description: string, schema: z.ZodType): HttpResponseSpec => ({ description, schema });
const binary = z.custom<Uint8Array>().meta({ type: 'string', format: 'binary' });

/** Every authenticated route can answer these (API key, scope, rate limit, a service behind the gateway down). */
function authErrors(scope: Scope | 'any', error: z.ZodType): Record<number, HttpResponseSpec> {
  const errors: Record<number, HttpResponseSpec> = {
    401: { description: 'Missing, malformed, unknown or revoked API key (`WWW-Authenticate: Bearer`)', schema: error },
    429: { description: 'Rate limit of the key exceeded', schema: error, headers: { 'Retry-After': 'seconds to wait' } },
    503: { description: 'A service behind the gateway is not answering; retry', schema: error, headers: { 'Retry-After': 'seconds to wait' } },
  };
  if (scope !== 'any') errors[403] = { description: `The key lacks the \`${scope}\` scope`, schema: error };
  return errors;
}

/** Control and admin routes: FastAPI-style errors; 422 is `HTTPValidationError`, everything else `HTTPError`. */
function fastApi(scope: Scope | 'any', ok: Record<number, HttpResponseSpec>, errors: Record<number, string> = {}): Record<number, HttpResponseSpec> {
  const described = Object.fromEntries(
    Object.entries(errors).map(([status, description]) => [status, json(description, status === '422' ? HttpValidationErrorResponse : HttpErrorResponse)]),
  );
  return { ...ok, ...authErrors(scope, HttpErrorResponse), ...described };
}

/** Coda routes (tools, QPUs, assistant): every failure is `{success: false, error, detail}`. */
function coda(ok: Record<number, HttpResponseSpec>, errors: Record<number, string> = {}): Record<number, HttpResponseSpec> {
  const described = Object.fromEntries(Object.entries(errors).map(([status, description]) => [status, json(description, CodaErrorHttpResponse)]));
  return { ...ok, ...authErrors('coda', CodaErrorHttpResponse), ...described };
}

/** `/v0/control<path>` and its `/v0<path>` alias (SPEC §1). */
const control = (path: string) => [`/v0/control${path}`, `/v0${path}`];
/** Circuit tools: canonical `/v0/coda/tools/<tool>`, legacy `/v0/coda/<tool>`, and both under the legacy coda root `/v0`. */
const tool = (name: string) => [`/v0/coda/tools/${name}`, `/v0/coda/${name}`, `/v0/tools/${name}`, `/v0/${name}`];
/** QPU routes: canonical names, then the legacy `/qpu/*` name, each under `/v0/coda` and the legacy coda root `/v0`. */
const qpu = (...names: string[]) => [...names.map((n) => `/v0/coda/${n}`), ...names.map((n) => `/v0/${n}`)];

const CODE_422 = 'Bad body, or source outside the supported subset (line and construct in the answer)';
const CODE_413 = 'Body over the JSON limit, or a circuit larger than the configured limits';

const TOOLS: HttpRouteSpec[] = [
  {
    id: 'transpile',
    method: 'POST',
    paths: tool('transpile'),
    summary: 'Convert a circuit between frameworks',
    tag: 'coda tools',
    scope: 'coda',
    body: { schema: TranspileHttpRequest, contentType: 'application/json' },
    responses: coda({ 200: json('Converted', TranspileHttpResponse) }, { 413: CODE_413, 422: CODE_422 }),
  },
  {
    id: 'simulate',
    method: 'POST',
    paths: tool('simulate'),
    summary: 'Simulate a circuit (counts little-endian: classical bit 0 rightmost)',
    tag: 'coda tools',
    scope: 'coda',
    body: { schema: SimulateHttpRequest, contentType: 'application/json' },
    responses: coda(
      { 200: json('Counts (and the state vector for method statevector)', SimulateHttpResponse) },
      {
        413: CODE_413,
        422: CODE_422,
        504: 'The simulation did not finish within the simulation timeout',
      },
    ),
  },
  {
    id: 'toOpenQasm3',
    method: 'POST',
    paths: tool('to-openqasm3'),
    summary: 'Convert a circuit to OpenQASM 3',
    tag: 'coda tools',
    scope: 'coda',
    body: { schema: CodeHttpRequest, contentType: 'application/json' },
    responses: coda({ 200: json('OpenQASM 3', ToOpenQasm3HttpResponse) }, { 413: CODE_413, 422: CODE_422 }),
  },
  {
    id: 'estimateResources',
    method: 'POST',
    paths: tool('estimate-resources'),
    summary: 'Count qubits, clbits, depth and gates',
    tag: 'coda tools',
    scope: 'coda',
    body: { schema: CodeHttpRequest, contentType: 'application/json' },
    responses: coda({ 200: json('Resource counts', EstimateResourcesHttpResponse) }, { 413: CODE_413, 422: CODE_422 }),
  },
  {
    id: 'splitCircuit',
    method: 'POST',
    paths: tool('split-circuit'),
    summary: 'Cut a circuit into subcircuits of at most max_subcircuit_qubits qubits',
    description:
      'A well-formed circuit that cannot be split under the limit answers 200 with `success: false` (SPEC §6); 422 only for bodies that do not parse.',
    tag: 'coda tools',
    scope: 'coda',
    body: { schema: SplitCircuitHttpRequest, contentType: 'application/json' },
    responses: coda({ 200: json('The split, or why there is none', SplitCircuitHttpResponse) }, { 413: CODE_413, 422: CODE_422 }),
  },
];

const QPUS: HttpRouteSpec[] = [
  {
    id: 'qpuDevices',
    method: 'GET',
    paths: qpu('qpus', 'qpu/devices'),
    summary: 'List QPU devices',
    tag: 'coda QPUs',
    scope: 'coda',
    responses: coda({ 200: json('Devices', QpuDevicesHttpResponse) }),
  },
  {
    id: 'qpuSubmit',
    method: 'POST',
    paths: qpu('qpus', 'qpu/submit'),
    summary: 'Submit a QPU job (idempotent with the Idempotency-Key header, 24 h)',
    tag: 'coda QPUs',
    scope: 'coda',
    headers: QpuSubmitHttpHeaders,
    body: { schema: QpuSubmitHttpRequest, contentType: 'application/json' },
    responses: coda(
      { 200: json('Submitted', QpuSubmitHttpResponse) },
      {
        402: 'The estimate exceeds the owner’s remaining budget (send accept_overage)',
        404: 'Unknown device',
        409: 'Idempotency-Key reused with a different body',
        413: CODE_413,
        422: CODE_422,
      },
    ),
  },
  {
    id: 'qpuStatus',
    method: 'POST',
    paths: qpu('qpus/status', 'qpu/status'),
    summary: 'Status (and results once completed) of one of your jobs',
    tag: 'coda QPUs',
    scope: 'coda',
    body: { schema: QpuJobIdHttpRequest, contentType: 'application/json' },
    responses: coda({ 200: json('The job', QpuStatusHttpResponse) }, { 404: 'Unknown job (or another owner’s)', 422: 'Bad body' }),
  },
  {
    id: 'qpuEstimateCost',
    method: 'POST',
    paths: qpu('qpus/estimate-cost', 'qpu/estimate-cost'),
    summary: 'Estimate a job’s cost (per task + shots × per shot)',
    tag: 'coda QPUs',
    scope: 'coda',
    body: { schema: QpuJobHttpRequest, contentType: 'application/json' },
    responses: coda({ 200: json('The estimate', QpuEstimateHttpResponse) }, { 404: 'Unknown device', 413: CODE_413, 422: CODE_422 }),
  },
  {
    id: 'qpuCancel',
    method: 'POST',
    paths: qpu('qpus/cancel'),
    summary: 'Cancel a queued or running job',
    tag: 'coda QPUs',
    scope: 'coda',
    body: { schema: QpuJobIdHttpRequest, contentType: 'application/json' },
    responses: coda(
      { 200: json('Cancelled', QpuCancelHttpResponse) },
      {
        404: 'Unknown job (or another owner’s)',
        409: 'The job has already ended',
        422: 'Bad body',
      },
    ),
  },
  {
    id: 'qpuJobs',
    method: 'GET',
    paths: qpu('qpus/jobs'),
    summary: 'Your jobs, newest first',
    tag: 'coda QPUs',
    scope: 'coda',
    query: QpuJobsHttpQuery,
    responses: coda({ 200: json('Jobs', QpuJobsHttpResponse) }, { 422: 'Bad query parameter' }),
  },
  {
    id: 'qpuJobEvents',
    method: 'GET',
    paths: qpu('qpus/jobs/{job_id}/events'),
    summary: 'A job’s state changes, then its results, as server-sent events',
    description:
      'One `status` event per state change, then `results` or `error`; the stream ends after that terminal event. Each event is `id: <n>` and `data: <QpuJobEvent JSON>`; `: keepalive` comments every 15 s. Resume with Last-Event-ID. Open streams per key are bounded (429).',
    tag: 'coda QPUs',
    scope: 'coda',
    params: QpuJobEventsHttpParams,
    headers: QpuJobEventsHttpHeaders,
    responses: coda(
      { 200: { description: 'Event stream; each `data:` line is one QpuJobEvent', schema: QpuJobEventHttp, contentType: 'text/event-stream' } },
      { 404: 'Unknown job (or another owner’s)', 422: 'Bad Last-Event-ID' },
    ),
  },
];

const ASSISTANT: HttpRouteSpec[] = [
  {
    id: 'assistantAgents',
    method: 'GET',
    paths: ['/v0/coda/agents', '/v0/agents'],
    summary: 'List the assistant agents',
    tag: 'coda assistant',
    scope: 'coda',
    responses: coda({ 200: json('Agents', AssistantAgentsHttpResponse) }),
  },
  {
    id: 'assistantRun',
    method: 'POST',
    paths: ['/v0/coda/agents', '/v0/agents'],
    summary: 'Ask the assistant; answers as server-sent events',
    description:
      'Each event is `id: <run>:<n>` and `data: <AssistantEvent JSON>` followed by a blank line; `: keepalive` comments every 15 s while idle. `token` events while generating, one `files` event with code_mode=file, then exactly one terminal event: `completed`, `error` or `cancelled`. Reconnect with Last-Event-ID to resume a run.',
    tag: 'coda assistant',
    scope: 'coda',
    headers: AssistantHttpHeaders,
    body: { schema: AssistantRequestHttp, contentType: 'application/json' },
    responses: coda(
      { 200: { description: 'Event stream; each `data:` line is one AssistantEvent', schema: AssistantEventHttp, contentType: 'text/event-stream' } },
      { 404: 'Last-Event-ID names an unknown run, another owner’s, or one older than the replay window', 413: 'Body over the JSON limit', 422: 'Bad body' },
    ),
  },
];

const MODEL_RUN_ERRORS = {
  404: 'Model not found',
  413: 'Upload over the limit (64 MiB by default)',
  415: 'Not a multipart/form-data body',
  422: 'Unreadable file, wrong shape, NaN/Inf, over the model’s element limit, …',
  504: 'The run did not finish in time',
};

const CONTROL: HttpRouteSpec[] = [
  {
    id: 'listModels',
    method: 'GET',
    paths: control('/models'),
    summary: 'List models',
    tag: 'control models',
    scope: 'control',
    query: PageHttpQuery,
    responses: fastApi('control', { 200: json('Models', ModelsHttpResponse) }, { 422: 'Bad skip/limit' }),
  },
  {
    id: 'runModel',
    method: 'POST',
    paths: control('/models'),
    summary: 'Run a model on an uploaded array',
    tag: 'control models',
    scope: 'control',
    body: { schema: ModelRunHttpForm, contentType: 'multipart/form-data' },
    responses: fastApi('control', { 200: json('The stored result', ModelResultHttp) }, MODEL_RUN_ERRORS),
  },
  {
    id: 'runModelBatch',
    method: 'POST',
    paths: control('/models/batch'),
    summary: 'Run a batching model on a (batch_size, trace_length) array',
    tag: 'control models',
    scope: 'control',
    body: { schema: ModelRunHttpForm, contentType: 'multipart/form-data' },
    responses: fastApi(
      'control',
      { 200: json('The stored batch result', ModelBatchResultHttp) },
      { ...MODEL_RUN_ERRORS, 422: 'Not a batching model, or bad input' },
    ),
  },
  {
    id: 'getModel',
    method: 'GET',
    paths: control('/models/{model_id}'),
    summary: 'Get a model',
    tag: 'control models',
    scope: 'control',
    params: ModelHttpParams,
    responses: fastApi('control', { 200: json('The model', ModelHttp) }, { 404: 'Model not found' }),
  },
  {
    id: 'listModelResults',
    method: 'GET',
    paths: control('/model-results'),
    summary: 'List your results, newest first',
    tag: 'control results',
    scope: 'control',
    query: ModelResultsHttpQuery,
    responses: fastApi('control', { 200: json('Results (without file fields and vote)', MaskedModelResultsHttpResponse) }, { 422: 'Bad query parameter' }),
  },
  {
    id: 'getModelResult',
    method: 'GET',
    paths: control('/model-results/{id}'),
    summary: 'Get a result',
    tag: 'control results',
    scope: 'control',
    params: ModelResultHttpParams,
    responses: fastApi('control', { 200: json('The result (a batch result for batch runs)', StoredModelResultHttp) }, { 404: 'Not found (or not yours)' }),
  },
  {
    id: 'deleteModelResult',
    method: 'DELETE',
    paths: control('/model-results/{id}'),
    summary: 'Delete a result, its votes and its stored input',
    tag: 'control results',
    scope: 'control',
    params: ModelResultHttpParams,
    responses: fastApi('control', { 200: json('`{"detail": "Model result deleted"}`', DetailHttpResponse) }, { 404: 'Not found (or not yours)' }),
  },
  {
    id: 'downloadModelResult',
    method: 'GET',
    paths: control('/model-results/{id}/download'),
    summary: 'Zip of result.json and the original input file',
    tag: 'control results',
    scope: 'control',
    params: ModelResultHttpParams,
    responses: fastApi('control', { 200: { description: 'The zip', schema: binary, contentType: 'application/zip' } }, { 404: 'Not found (or not yours)' }),
  },
  {
    id: 'putVote',
    method: 'PUT',
    paths: control('/model-results/{id}/vote'),
    summary: 'Create or replace your vote',
    tag: 'control results',
    scope: 'control',
    params: ModelResultHttpParams,
    body: { schema: VoteHttpRequest, contentType: 'application/json' },
    responses: fastApi(
      'control',
      { 200: json('The vote', VoteResponseHttp) },
      { 404: 'Not found (or not yours)', 422: 'vote is not 1 or -1, or feedback too long' },
    ),
  },
  {
    id: 'deleteVote',
    method: 'DELETE',
    paths: control('/model-results/{id}/vote'),
    summary: 'Remove your vote',
    tag: 'control results',
    scope: 'control',
    params: ModelResultHttpParams,
    responses: fastApi('control', { 200: json('`{"detail": "Vote removed"}`', DetailHttpResponse) }, { 404: 'No such result, or no vote' }),
  },
  {
    id: 'listControlAgents',
    method: 'GET',
    // Only the canonical path: `GET /v0/agents` is the coda assistant's list (SPEC §1).
    paths: ['/v0/control/agents'],
    summary: 'List control agents',
    tag: 'control agents',
    scope: 'control',
    query: PageHttpQuery,
    responses: fastApi('control', { 200: json('Agents', ControlAgentsHttpResponse) }, { 422: 'Bad skip/limit' }),
  },
  {
    id: 'runControlAgent',
    method: 'POST',
    paths: control('/agents/{agent_id}'),
    summary: 'Run a control agent (ising-calibration-v1: calibration plot or arrays → fit and assessment); JSON up to 8 MiB',
    tag: 'control agents',
    scope: 'control',
    params: ControlAgentHttpParams,
    body: { schema: CalibrationAgentHttpRequest, contentType: 'application/json' },
    responses: fastApi(
      'control',
      { 200: json('The agent’s answer', CalibrationAgentHttpResponse) },
      {
        404: 'Agent not found',
        413: 'Body over 8 MiB',
        422: 'Body not what the agent expects',
        504: 'The configured VLM timed out',
      },
    ),
  },
];

const ADMIN: HttpRouteSpec[] = [
  {
    id: 'listApiKeys',
    method: 'GET',
    paths: ['/v0/admin/keys'],
    summary: 'List API keys (hints only)',
    tag: 'admin',
    scope: 'admin',
    query: ApiKeysHttpQuery,
    responses: fastApi('admin', { 200: json('Keys', ApiKeysHttpResponse) }),
  },
  {
    id: 'createApiKey',
    method: 'POST',
    paths: ['/v0/admin/keys'],
    summary: 'Create an API key; the token is in this answer only',
    tag: 'admin',
    scope: 'admin',
    body: { schema: ApiKeyCreateHttpRequest, contentType: 'application/json' },
    responses: fastApi('admin', { 201: json('The key, with its token', CreatedApiKeyHttp) }, { 422: 'Bad body' }),
  },
  {
    id: 'revokeApiKey',
    method: 'DELETE',
    paths: ['/v0/admin/keys/{id}'],
    summary: 'Revoke an API key (running gateways drop it at once)',
    tag: 'admin',
    scope: 'admin',
    params: ApiKeyHttpParams,
    responses: fastApi('admin', { 200: json('The revoked key', ApiKeyHttp) }, { 404: 'No such key' }),
  },
  {
    id: 'getBudget',
    method: 'GET',
    paths: ['/v0/admin/budgets/{owner}'],
    summary: 'An owner’s QPU budget, spending and what is left',
    tag: 'admin',
    scope: 'admin',
    params: QpuBudgetHttpParams,
    responses: fastApi('admin', { 200: json('The budget', QpuBudgetHttp) }, { 404: 'Unknown owner' }),
  },
  {
    id: 'setBudget',
    method: 'PUT',
    paths: ['/v0/admin/budgets/{owner}'],
    summary: 'Set an owner’s QPU budget in cents (null = unlimited)',
    tag: 'admin',
    scope: 'admin',
    params: QpuBudgetHttpParams,
    body: { schema: QpuBudgetHttpRequest, contentType: 'application/json' },
    responses: fastApi('admin', { 200: json('The budget', QpuBudgetHttp) }, { 404: 'Unknown owner', 422: 'Bad body' }),
  },
  {
    id: 'listLabCredentials',
    method: 'GET',
    paths: ['/v0/admin/lab-credentials'],
    summary: 'List the labs’ NATS credentials (public keys only)',
    tag: 'admin',
    scope: 'admin',
    responses: fastApi(
      'admin',
      { 200: json('Lab credentials', LabCredentialsHttpResponse) },
      { 503: 'Lab credentials are not managed here (QDC_NATS_AUTH_DIR)' },
    ),
  },
  {
    id: 'createLabCredential',
    method: 'POST',
    paths: ['/v0/admin/lab-credentials'],
    summary: 'Issue a lab’s NATS credentials (an nkey user limited to its lab’s subjects); the seed is in this answer only',
    description:
      'The lab’s public key goes into the generated nats-server authorization (auth.conf in QDC_NATS_AUTH_DIR) and the server is reloaded (QDC_NATS_PID_FILE; `reloaded` says whether it was). `credentials` is the lab node’s credentials file (`qdc node start --credentials`); QDC does not keep the seed.',
    tag: 'admin',
    scope: 'admin',
    body: { schema: LabCredentialCreateHttpRequest, contentType: 'application/json' },
    responses: fastApi(
      'admin',
      { 201: json('The lab’s credentials, with the seed', CreatedLabCredentialHttp) },
      {
        409: 'The lab already has credentials, or none are set up yet (`qdc lab add` creates the services user)',
        422: 'Bad body',
        503: 'Lab credentials are not managed here (QDC_NATS_AUTH_DIR)',
      },
    ),
  },
  {
    id: 'revokeLabCredential',
    method: 'DELETE',
    paths: ['/v0/admin/lab-credentials/{lab}'],
    summary: 'Revoke a lab’s NATS credentials: at the reload the server closes its connections and refuses new ones',
    description:
      'The lab’s devices and streams stay (remove them with DELETE /v0/admin/lab-streams/{lab}/{name} or `qdc lab remove`); issue new credentials with POST.',
    tag: 'admin',
    scope: 'admin',
    params: LabCredentialHttpParams,
    responses: fastApi(
      'admin',
      { 200: json('The revoked credentials', RevokedLabCredentialHttp) },
      { 404: 'The lab has no credentials', 422: 'Bad lab id', 503: 'Lab credentials are not managed here (QDC_NATS_AUTH_DIR)' },
    ),
  },
  {
    id: 'listLabStreams',
    method: 'GET',
    paths: ['/v0/admin/lab-streams'],
    summary: 'List live instrument streams',
    tag: 'admin',
    scope: 'admin',
    query: LabStreamsHttpQuery,
    responses: fastApi('admin', { 200: json('Streams', LabStreamsHttpResponse) }, { 422: 'Bad lab id' }),
  },
  {
    id: 'createLabStream',
    method: 'POST',
    paths: ['/v0/admin/lab-streams'],
    summary: 'Declare (or redefine) a live instrument stream; answers its subjects',
    tag: 'admin',
    scope: 'admin',
    body: { schema: LabStreamCreateHttpRequest, contentType: 'application/json' },
    responses: fastApi('admin', { 201: json('The stream', LabStreamHttp) }, { 422: 'Bad body (unknown model, bad lab id or name)' }),
  },
  {
    id: 'deleteLabStream',
    method: 'DELETE',
    paths: ['/v0/admin/lab-streams/{lab}/{name}'],
    summary: 'Remove a live instrument stream',
    tag: 'admin',
    scope: 'admin',
    params: LabStreamHttpParams,
    responses: fastApi('admin', { 200: json('What was removed', LabStreamDeleteHttpResponse) }, { 404: 'No such stream', 422: 'Bad lab id or name' }),
  },
  {
    id: 'downloadLabStreamResult',
    method: 'GET',
    paths: ['/v0/admin/lab-streams/{lab}/{name}/results/{id}/download'],
    summary: 'Zip of a lab stream result (result.json and the frame), whoever the lab’s owner is',
    description: 'How an admin watching another owner’s stream reads its frames: the same zip as downloadModelResult, read as the stream’s owner.',
    tag: 'admin',
    scope: 'admin',
    params: LabStreamResultHttpParams,
    responses: fastApi(
      'admin',
      { 200: { description: 'The zip', schema: binary, contentType: 'application/zip' } },
      { 404: 'No such stream, or no such result of the lab’s owner' },
    ),
  },
  {
    id: 'labStreamEvents',
    method: 'GET',
    paths: ['/v0/lab-streams/{lab}/{name}/events'],
    summary: 'A live instrument stream’s events (one per frame) as server-sent events',
    description:
      'Each frame’s event exactly as published on the lab’s results subject: `id: <seq>` and `data: <LabStreamEvent JSON>`; `: keepalive` comments every 15 s; resume with Last-Event-ID (the event’s seq). For keys whose owner is the lab’s owner, or admin keys; open streams per key are bounded (429).',
    tag: 'lab streams',
    scope: 'any',
    params: LabStreamEventsHttpParams,
    headers: LabStreamEventsHttpHeaders,
    responses: fastApi(
      'any',
      { 200: { description: 'Event stream; each `data:` line is one LabStreamEvent', schema: LabStreamEventHttp, contentType: 'text/event-stream' } },
      { 404: 'No such stream visible to this key', 422: 'Bad Last-Event-ID' },
    ),
  },
];

/** docs/webhooks.md: any valid key; a webhook is its key owner's (another owner's id answers 404). */
const WEBHOOKS: HttpRouteSpec[] = [
  {
    id: 'createWebhook',
    method: 'POST',
    paths: ['/v0/webhooks'],
    summary: 'Register a URL for events (qpu.job.status, lab_stream.result); the signing secret is in this answer only',
    tag: 'webhooks',
    scope: 'any',
    body: { schema: WebhookCreateHttpRequest, contentType: 'application/json' },
    responses: fastApi(
      'any',
      { 201: json('The webhook, with its signing secret', WebhookWithSecretHttp) },
      { 422: 'Bad body: URL not https (or not allowed), unknown event type' },
    ),
  },
  {
    id: 'listWebhooks',
    method: 'GET',
    paths: ['/v0/webhooks'],
    summary: 'List your webhooks (secret hints only)',
    tag: 'webhooks',
    scope: 'any',
    responses: fastApi('any', { 200: json('Webhooks, newest first', WebhooksHttpResponse) }),
  },
  {
    id: 'deleteWebhook',
    method: 'DELETE',
    paths: ['/v0/webhooks/{id}'],
    summary: 'Delete a webhook and its deliveries (pending ones are not sent)',
    tag: 'webhooks',
    scope: 'any',
    params: WebhookHttpParams,
    responses: fastApi('any', { 200: json('`{"detail": "Webhook deleted"}`', DetailHttpResponse) }, { 404: 'No such webhook (or not yours)' }),
  },
  {
    id: 'rotateWebhookSecret',
    method: 'POST',
    paths: ['/v0/webhooks/{id}/rotate-secret'],
    summary: 'Replace the signing secret; the new one is in this answer only and signs every later attempt',
    tag: 'webhooks',
    scope: 'any',
    params: WebhookHttpParams,
    responses: fastApi('any', { 200: json('The webhook, with its new signing secret', WebhookWithSecretHttp) }, { 404: 'No such webhook (or not yours)' }),
  },
  {
    id: 'listWebhookDeliveries',
    method: 'GET',
    paths: ['/v0/webhooks/{id}/deliveries'],
    summary: 'A webhook’s deliveries, newest first, with their last status, attempts and next retry',
    tag: 'webhooks',
    scope: 'any',
    params: WebhookHttpParams,
    query: WebhookDeliveriesHttpQuery,
    responses: fastApi(
      'any',
      { 200: json('Deliveries', WebhookDeliveriesHttpResponse) },
      { 404: 'No such webhook (or not yours)', 422: 'Bad skip, limit or status' },
    ),
  },
];

const SYSTEM: HttpRouteSpec[] = [
  {
    id: 'health',
    method: 'GET',
    paths: ['/v0/health', '/v0/coda/health', '/health'],
    summary: 'Health',
    tag: 'system',
    scope: null,
    responses: { 200: json('Up', HealthHttpResponse) },
  },
  {
    id: 'livez',
    method: 'GET',
    paths: ['/livez'],
    summary: 'Liveness probe: the process serves HTTP',
    tag: 'system',
    scope: null,
    responses: { 200: json('Alive', HealthHttpResponse) },
  },
  {
    id: 'readyz',
    method: 'GET',
    paths: ['/readyz'],
    summary: 'Readiness probe: NATS, Redis and the services behind the API answer',
    tag: 'system',
    scope: null,
    responses: { 200: json('Ready', ReadinessHttpResponse), 503: json('Not ready (see checks)', ReadinessHttpResponse) },
  },
  {
    id: 'metrics',
    method: 'GET',
    paths: ['/metrics'],
    summary: 'Prometheus metrics',
    tag: 'system',
    scope: null,
    responses: { 200: { description: 'Prometheus text format', schema: z.string(), contentType: 'text/plain' } },
  },
  {
    id: 'removedSearchFetch',
    method: 'POST',
    paths: ['/search', '/fetch', '/v0/search', '/v0/fetch', '/v0/control/search', '/v0/control/fetch', '/v0/coda/search', '/v0/coda/fetch'],
    summary: 'Removed from the API: 410 Gone under every base',
    tag: 'system',
    scope: null,
    deprecated: true,
    responses: { 410: json('Gone; `detail` says so', DetailHttpResponse) },
  },
];

export const HTTP_ROUTES: readonly HttpRouteSpec[] = [...CONTROL, ...TOOLS, ...QPUS, ...ASSISTANT, ...ADMIN, ...WEBHOOKS, ...SYSTEM];

/**
 * Served but deliberately not in the document: the documentation itself. (Unknown routes answer
 * `404 {"detail": "Not Found"}`; every other route the gateway serves is in HTTP_ROUTES.)
 */
export const UNDOCUMENTED_HTTP_ROUTES: readonly { method: HttpMethod; path: string; reason: string }[] = [
  { method: 'GET', path: '/v0/openapi.json', reason: 'the OpenAPI document itself' },
  { method: 'GET', path: '/docs', reason: 'the Swagger UI page that renders the document' },
  { method: 'GET', path: '/docs/assets/{file}', reason: 'the Swagger UI page’s scripts and styles' },
];
