import { EventStream, type EventStreamOptions, type StreamEvent } from './event.stream.js';
import { HttpTransport, sleep, type CallOptions, type TransportOptions } from './http.transport.js';
import { toUploadFile, type ModelInput } from './model-input.js';
import type {
  ApiKey,
  ApiKeyCreateRequest,
  AssistantAgentsResponse,
  AssistantEvent,
  AssistantRequest,
  CalibrationAgentRequest,
  CalibrationAgentResponse,
  CodeRequest,
  ControlAgent,
  CreatedApiKey,
  CreatedLabCredential,
  DetailResponse,
  EstimateResourcesResponse,
  LabCredential,
  LabCredentialCreateRequest,
  LabStream,
  LabStreamCreateRequest,
  LabStreamDeleteResponse,
  LabStreamEvent,
  Health,
  MaskedModelResult,
  Model,
  ModelBatchResult,
  ModelResult,
  ModelResultsQuery,
  PageQuery,
  QpuBudget,
  QpuCancelResponse,
  QpuDevicesResponse,
  QpuEstimateRequest,
  QpuEstimateResponse,
  QpuJobEvent,
  Webhook,
  WebhookCreateRequest,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookWithSecret,
  QpuJobsQuery,
  QpuJobsResponse,
  QpuJobStatus,
  QpuStatusResponse,
  QpuSubmitRequest,
  QpuSubmitResponse,
  RevokedLabCredential,
  SimulateRequest,
  SimulateResponse,
  SplitCircuitRequest,
  SplitCircuitResponse,
  StoredModelResult,
  ToOpenQasm3Response,
  TranspileRequest,
  TranspileResponse,
  Vote,
  VoteResponse,
} from './wire.types.js';

export type ClientOptions = TransportOptions;

export interface ModelRunRequest {
  /** A model id from `models.list()`, e.g. `coulomb-blockade-peak-detector-v2`. */
  model: string;
  data: ModelInput;
  /** Adds `output.plot`, a `data:` URL of the input with the detections drawn. */
  plot?: boolean;
  darkMode?: boolean;
  /** The name stored with the input (`input_file_name`); default `data.npy` for arrays. */
  fileName?: string;
}

export interface ModelBatchRunRequest {
  model: string;
  /** A 2-D `(batch_size, trace_length)` array, or a `.npy`/`.pt` file of one. */
  data: ModelInput;
  fileName?: string;
}

export interface QpuWaitOptions {
  /** Called with every status answer whose `status` differs from the previous one (the first one too). */
  onStatus?: (status: QpuStatusResponse) => void;
  /** Between polls; default 500 ms. */
  intervalMs?: number;
  signal?: AbortSignal;
}

const TERMINAL_JOB_STATUSES: ReadonlySet<QpuJobStatus> = new Set(['completed', 'failed', 'cancelled']);
const TERMINAL_ASSISTANT_EVENTS: ReadonlySet<string> = new Set(['completed', 'error', 'cancelled']);

/** The assistant's answer: `token`s, `files`, then exactly one of `completed`, `error`, `cancelled`. */
export type AssistantStream = EventStream<AssistantEvent>;
export type AssistantStreamEvent = StreamEvent<AssistantEvent>;
/** A QPU job's changes: `status` per change, then `results` (completed) or `error` (failed); a cancelled job ends on its status. */
export type QpuJobEventStream = EventStream<QpuJobEvent>;

const enc = encodeURIComponent;

/**
 * A client of the QDC HTTP API (control, coda and admin routes). `baseUrl` is the server root
 * (`http://127.0.0.1:8000`); every call uses the canonical path. Failures throw QdcApiError.
 *
 * ```ts
 * const qdc = createClient({ baseUrl: 'http://127.0.0.1:8000', token: process.env.QDC_API_KEY });
 * const result = await qdc.models.run({ model: 'coulomb-blockade-peak-detector-v2', data: trace });
 * ```
 */
export function createClient(options: ClientOptions) {
  const http = new HttpTransport(options);
  const control = '/v0/control';
  const coda = '/v0/coda';

  const models = {
    /** `GET /models`: the catalogue, with run counts. */
    list: (page: PageQuery = {}, call: CallOptions = {}) =>
      http.json<Model[]>({ method: 'GET', path: `${control}/models`, query: { skip: page.skip, limit: page.limit }, retry: true, ...call }),
    get: (id: string, call: CallOptions = {}) => http.json<Model>({ method: 'GET', path: `${control}/models/${enc(id)}`, retry: true, ...call }),
    /** `POST /models`: runs a model on one input. A retry with the same `requestId` answers the same stored result. */
    run: (request: ModelRunRequest, call: CallOptions = {}) => {
      const form = new FormData();
      const file = toUploadFile(request.data, request.fileName);
      form.append('model', request.model);
      form.append('data', file.blob, file.fileName);
      if (request.plot !== undefined) form.append('plot', String(request.plot));
      if (request.darkMode !== undefined) form.append('dark_mode', String(request.darkMode));
      return http.json<ModelResult>({ method: 'POST', path: `${control}/models`, form, retry: true, ...call });
    },
    /** `POST /models/batch`: one output per row, in row order. */
    runBatch: (request: ModelBatchRunRequest, call: CallOptions = {}) => {
      const form = new FormData();
      const file = toUploadFile(request.data, request.fileName);
      form.append('model', request.model);
      form.append('data', file.blob, file.fileName);
      return http.json<ModelBatchResult>({ method: 'POST', path: `${control}/models/batch`, form, retry: true, ...call });
    },
  };

  const results = {
    /** `GET /model-results`: the caller's results, newest first (filters: model_str_id, start_date, end_date). */
    list: (query: ModelResultsQuery = {}, call: CallOptions = {}) =>
      http.json<MaskedModelResult[]>({ method: 'GET', path: `${control}/model-results`, query: { ...query }, retry: true, ...call }),
    get: (id: string, call: CallOptions = {}) =>
      http.json<StoredModelResult>({ method: 'GET', path: `${control}/model-results/${enc(id)}`, retry: true, ...call }),
    delete: (id: string, call: CallOptions = {}) =>
      http.json<DetailResponse>({ method: 'DELETE', path: `${control}/model-results/${enc(id)}`, retry: true, ...call }),
    /** Creates or replaces the caller's vote (1 or -1) with optional feedback (≤ 4000 characters). */
    vote: (id: string, vote: Vote, feedback?: string | null, call: CallOptions = {}) =>
      http.json<VoteResponse>({
        method: 'PUT',
        path: `${control}/model-results/${enc(id)}/vote`,
        json: feedback === undefined ? { vote } : { vote, feedback },
        retry: true,
        ...call,
      }),
    unvote: (id: string, call: CallOptions = {}) =>
      http.json<DetailResponse>({ method: 'DELETE', path: `${control}/model-results/${enc(id)}/vote`, retry: true, ...call }),
    /** The zip of `result.json` and the input file, as bytes. */
    download: (id: string, call: CallOptions = {}) =>
      http.bytes({
        method: 'GET',
        path: `${control}/model-results/${enc(id)}/download`,
        headers: { accept: 'application/zip, application/json' },
        retry: true,
        ...call,
      }),
  };

  const status = (jobId: string, call: CallOptions = {}) =>
    http.json<QpuStatusResponse>({ method: 'POST', path: `${coda}/qpus/status`, json: { job_id: jobId }, retry: true, ...call });

  const qpus = {
    /** `GET /qpus`: devices with status, queue depth and pricing. */
    list: (call: CallOptions = {}) => http.json<QpuDevicesResponse>({ method: 'GET', path: `${coda}/qpus`, retry: true, ...call }),
    estimate: (body: QpuEstimateRequest, call: CallOptions = {}) =>
      http.json<QpuEstimateResponse>({ method: 'POST', path: `${coda}/qpus/estimate-cost`, json: body, retry: true, ...call }),
    /**
     * `POST /qpus`. With an `idempotencyKey` a retried submission (same key, same body, 24 h) answers the first job
     * instead of charging again, so only then is it retried on 503.
     */
    submit: (body: QpuSubmitRequest, call: CallOptions & { idempotencyKey?: string } = {}) => {
      const { idempotencyKey, ...rest } = call;
      return http.json<QpuSubmitResponse>({
        method: 'POST',
        path: `${coda}/qpus`,
        json: body,
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined,
        retry: idempotencyKey !== undefined,
        ...rest,
      });
    },
    status,
    cancel: (jobId: string, call: CallOptions = {}) =>
      http.json<QpuCancelResponse>({ method: 'POST', path: `${coda}/qpus/cancel`, json: { job_id: jobId }, retry: true, ...call }),
    /** `GET /qpus/jobs`: the caller's jobs, newest first. */
    jobs: (query: QpuJobsQuery = {}, call: CallOptions = {}) =>
      http.json<QpuJobsResponse>({ method: 'GET', path: `${coda}/qpus/jobs`, query: { ...query }, retry: true, ...call }),
    /**
     * `GET /qpus/jobs/{job_id}/events` (SPEC §7): the job's state changes as they happen (from the first, or after
     * `lastEventId`), then its results or error; iteration ends with the job.
     */
    events: (jobId: string, options: EventStreamOptions = {}): QpuJobEventStream =>
      new EventStream<QpuJobEvent>(
        http,
        { method: 'GET', path: `${coda}/qpus/jobs/${enc(jobId)}/events` },
        {
          isTerminal: (e) => e.type === 'results' || e.type === 'error' || (e.type === 'status' && e.status === 'cancelled'),
          mayEndAfter: (e) => e.type === 'status' && TERMINAL_JOB_STATUSES.has(e.status),
        },
        options,
      ),
    /** Polls status until the job is completed, failed or cancelled; answers that last status (a failed job does not throw). */
    wait: async (jobId: string, wait: QpuWaitOptions = {}): Promise<QpuStatusResponse> => {
      let previous: string | undefined;
      for (;;) {
        const answer = await status(jobId, { signal: wait.signal });
        if (answer.status !== previous) {
          previous = answer.status;
          wait.onStatus?.(answer);
        }
        if (TERMINAL_JOB_STATUSES.has(answer.status)) return answer;
        await sleep(wait.intervalMs ?? 500, wait.signal);
      }
    },
  };

  const tool =
    <Req, Res>(name: string) =>
    (body: Req, call: CallOptions = {}) =>
      http.json<Res>({ method: 'POST', path: `${coda}/tools/${name}`, json: body, retry: true, ...call });

  const tools = {
    simulate: tool<SimulateRequest, SimulateResponse>('simulate'),
    transpile: tool<TranspileRequest, TranspileResponse>('transpile'),
    toOpenqasm3: tool<CodeRequest, ToOpenQasm3Response>('to-openqasm3'),
    estimateResources: tool<CodeRequest, EstimateResourcesResponse>('estimate-resources'),
    /** A circuit that cannot be split under the limit answers `{success: false, error}` (200), not an exception. */
    splitCircuit: tool<SplitCircuitRequest, SplitCircuitResponse>('split-circuit'),
  };

  const agents = {
    /** `GET /v0/coda/agents`: the unified assistant's agents. */
    list: (call: CallOptions = {}) => http.json<AssistantAgentsResponse>({ method: 'GET', path: `${coda}/agents`, retry: true, ...call }),
    /**
     * `POST /v0/coda/agents`: the assistant's answer as typed events, each with its `eventId`. After a drop
     * (QdcStreamInterruptedError), the same body with `{ lastEventId }` replays the rest of the run.
     */
    stream: (body: AssistantRequest, options: EventStreamOptions = {}): AssistantStream =>
      new EventStream<AssistantEvent>(
        http,
        { method: 'POST', path: `${coda}/agents`, json: body },
        { isTerminal: (e) => TERMINAL_ASSISTANT_EVENTS.has(e.type) },
        options,
      ),
    /** Control agents (`/v0/control/agents`), e.g. `ising-calibration-v1`. */
    control: {
      list: (page: PageQuery = {}, call: CallOptions = {}) =>
        http.json<ControlAgent[]>({ method: 'GET', path: `${control}/agents`, query: { skip: page.skip, limit: page.limit }, retry: true, ...call }),
      run: (agentId: string, body: CalibrationAgentRequest, call: CallOptions = {}) =>
        http.json<CalibrationAgentResponse>({ method: 'POST', path: `${control}/agents/${enc(agentId)}`, json: body, retry: true, ...call }),
    },
  };

  const admin = {
    keys: {
      list: (query: { owner?: string } = {}, call: CallOptions = {}) =>
        http.json<ApiKey[]>({ method: 'GET', path: '/v0/admin/keys', query: { owner: query.owner }, retry: true, ...call }),
      /** The answer holds the token, once (only its hash is stored). */
      create: (body: ApiKeyCreateRequest, call: CallOptions = {}) =>
        http.json<CreatedApiKey>({ method: 'POST', path: '/v0/admin/keys', json: body, retry: false, ...call }),
      revoke: (id: string, call: CallOptions = {}) => http.json<ApiKey>({ method: 'DELETE', path: `/v0/admin/keys/${enc(id)}`, retry: true, ...call }),
    },
    /**
     * Labs' NATS credentials (docs/lab-integration.md): `create` answers the lab's credentials file (its nkey seed), once;
     * `revoke` takes the lab's user out of the server's authorization (`reloaded`: the server already applied it).
     */
    labCredentials: {
      list: (call: CallOptions = {}) => http.json<LabCredential[]>({ method: 'GET', path: '/v0/admin/lab-credentials', retry: true, ...call }),
      create: (body: LabCredentialCreateRequest, call: CallOptions = {}) =>
        http.json<CreatedLabCredential>({ method: 'POST', path: '/v0/admin/lab-credentials', json: body, retry: false, ...call }),
      revoke: (lab: string, call: CallOptions = {}) =>
        http.json<RevokedLabCredential>({ method: 'DELETE', path: `/v0/admin/lab-credentials/${enc(lab)}`, retry: true, ...call }),
    },
    /** Live instrument streams: every declared stream (or one lab's), declare or redefine one, remove one. */
    labStreams: {
      list: (query: { lab?: string } = {}, call: CallOptions = {}) =>
        http.json<LabStream[]>({ method: 'GET', path: '/v0/admin/lab-streams', query: { lab: query.lab }, retry: true, ...call }),
      create: (body: LabStreamCreateRequest, call: CallOptions = {}) =>
        http.json<LabStream>({ method: 'POST', path: '/v0/admin/lab-streams', json: body, retry: true, ...call }),
      remove: (lab: string, name: string, call: CallOptions = {}) =>
        http.json<LabStreamDeleteResponse>({ method: 'DELETE', path: `/v0/admin/lab-streams/${enc(lab)}/${enc(name)}`, retry: true, ...call }),
      /** A stream result's zip (result.json and the frame) whoever owns the lab: `results.download` for the admin. */
      downloadResult: (lab: string, name: string, resultId: string, call: CallOptions = {}) =>
        http.bytes({
          method: 'GET',
          path: `/v0/admin/lab-streams/${enc(lab)}/${enc(name)}/results/${enc(resultId)}/download`,
          headers: { accept: 'application/zip, application/json' },
          retry: true,
          ...call,
        }),
    },
    /**
     * `GET /v0/lab-streams/{lab}/{name}/events` (SPEC §7; the lab's owner or admin keys): each frame's event as the
     * lab's results subject carries it, live, resumable by `lastEventId` (the event's seq). It does not end by itself:
     * stop with the signal or by leaving the loop.
     */
    labStreamEvents: (lab: string, name: string, options: EventStreamOptions = {}): EventStream<LabStreamEvent> =>
      new EventStream<LabStreamEvent>(http, { method: 'GET', path: `/v0/lab-streams/${enc(lab)}/${enc(name)}/events` }, { isTerminal: () => false }, options),
    budgets: {
      get: (owner: string, call: CallOptions = {}) => http.json<QpuBudget>({ method: 'GET', path: `/v0/admin/budgets/${enc(owner)}`, retry: true, ...call }),
      /** Cents, or null for unlimited. */
      set: (owner: string, budgetCents: number | null, call: CallOptions = {}) =>
        http.json<QpuBudget>({ method: 'PUT', path: `/v0/admin/budgets/${enc(owner)}`, json: { budget_cents: budgetCents }, retry: true, ...call }),
    },
  };

  /** Signed webhooks of the key's owner (docs/webhooks.md): the signing secret is in the create and rotate answers only. */
  const webhooks = {
    create: (body: WebhookCreateRequest, call: CallOptions = {}) =>
      http.json<WebhookWithSecret>({ method: 'POST', path: '/v0/webhooks', json: body, retry: false, ...call }),
    list: (call: CallOptions = {}) => http.json<Webhook[]>({ method: 'GET', path: '/v0/webhooks', retry: true, ...call }),
    delete: (id: string, call: CallOptions = {}) => http.json<DetailResponse>({ method: 'DELETE', path: `/v0/webhooks/${enc(id)}`, retry: true, ...call }),
    rotateSecret: (id: string, call: CallOptions = {}) =>
      http.json<WebhookWithSecret>({ method: 'POST', path: `/v0/webhooks/${enc(id)}/rotate-secret`, retry: false, ...call }),
    /** Newest first, with each delivery's last status, attempts and next retry. */
    deliveries: (id: string, query: WebhookDeliveriesQuery = {}, call: CallOptions = {}) =>
      http.json<WebhookDelivery[]>({
        method: 'GET',
        path: `/v0/webhooks/${enc(id)}/deliveries`,
        query: { skip: query.skip, limit: query.limit, status: query.status },
        retry: true,
        ...call,
      }),
  };

  return {
    /** The server root the client talks to. */
    baseUrl: http.baseUrl,
    models,
    results,
    qpus,
    tools,
    agents,
    admin,
    webhooks,
    /** `GET /v0/coda/health`: `{status: "ok"}`. */
    health: (call: CallOptions = {}) => http.json<Health>({ method: 'GET', path: `${coda}/health`, retry: true, ...call }),
  };
}

export type QdcClient = ReturnType<typeof createClient>;
