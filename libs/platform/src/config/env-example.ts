import { CONFIG_KEYS, loadConfig } from './config.js';

/**
 * One line of meaning per setting (what `.env.example` says about it). `example` is shown, commented out, for a
 * setting without a default; `shownDefault` replaces a default that depends on the machine (a path).
 */
export type SettingDoc = string | { meaning: string; example?: string; shownDefault?: string };

/** A titled block of `.env.example`: the keys of one schema (in its order), each with its default and doc. */
export interface SettingGroup {
  title: string;
  /** The keys of the schema (in its order) and what it parses from an empty environment; none for settings read outside the services' schemas. */
  schema?: { keys: readonly string[]; defaults: Readonly<Record<string, unknown>> };
  docs: Readonly<Record<string, SettingDoc>>;
}

export class SettingDocsError extends Error {}

const HEADER = `# QDC settings: every setting the services read, with its built-in default, generated from the config schemas
# (libs/platform/src/config/config.ts and the services' own, named in each section) by \`npm run env:example\`;
# do not edit by hand (a unit test, scripts/env-example.spec.ts, fails when this file and the schemas differ).
#
# Copy to .env and uncomment what you change. \`npm start\` reads .env when present, and docker compose reads it
# (env_file and interpolation); a variable already set in the environment wins over .env.
# In docker-compose.yml, DATABASE_URL / REDIS_URL / NATS_URL / QDC_HEALTH_PORT (and the results service's
# QDC_MIGRATE_ON_BOOT) are set per container and override the values here; QDC_API_KEY_PEPPER must be set here
# (uncommented, openssl rand -hex 32): compose refuses to start without it and the image runs with NODE_ENV=production.
`;

function shownValue(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The keys a group shows: its schema's, less those an earlier group already showed (a setting two services read). */
function ownKeys(group: SettingGroup, shown: Set<string>): string[] {
  return (group.schema ? group.schema.keys : Object.keys(group.docs)).filter((key) => !shown.has(key));
}

function renderGroup(group: SettingGroup, shown: Set<string>): string[] {
  const keys = ownKeys(group, shown);
  for (const key of keys) shown.add(key);
  const lines = ['', `# --- ${group.title} ---`];
  for (const key of keys) {
    const doc = group.docs[key];
    if (doc === undefined) continue; // reported by checkSettingDocs
    const { meaning, example, shownDefault } = typeof doc === 'string' ? { meaning: doc, example: undefined, shownDefault: undefined } : doc;
    lines.push(`# ${meaning}`);
    if (shownDefault !== undefined) {
      lines.push(`# default: ${shownDefault}`, `# ${key}=${example ?? ''}`);
      continue;
    }
    const fallback = group.schema?.defaults[key];
    lines.push(fallback === undefined ? `# ${key}=${example ?? ''}` : `# ${key}=${shownValue(fallback)}`);
  }
  return lines;
}

/** The keys of each schema without a doc, and docs of keys no schema has, as one message each; empty when they agree. */
export function checkSettingDocs(groups: readonly SettingGroup[]): string[] {
  const problems: string[] = [];
  const shown = new Set<string>();
  for (const group of groups) {
    const keys = new Set(ownKeys(group, shown));
    for (const key of keys) shown.add(key);
    if (!group.schema) continue;
    const missing = [...keys].filter((k) => group.docs[k] === undefined);
    const stray = Object.keys(group.docs).filter((k) => !keys.has(k));
    if (missing.length > 0) problems.push(`${group.title}: no doc for ${missing.join(', ')} (add one line of meaning each)`);
    if (stray.length > 0) problems.push(`${group.title}: doc for ${stray.join(', ')}, which the schema does not have`);
  }
  return problems;
}

/** `.env.example`: a header, then every setting of every group, commented out, at its default. */
export function renderEnvExample(groups: readonly SettingGroup[]): string {
  const problems = checkSettingDocs(groups);
  if (problems.length > 0) throw new SettingDocsError(`settings without a doc or docs without a setting:\n  ${problems.join('\n  ')}`);
  const shown = new Set<string>();
  return `${[HEADER.trimEnd(), ...groups.flatMap((group) => renderGroup(group, shown))].join('\n')}\n`;
}

/** The settings of libs/platform's ConfigSchema (every service reads them). */
export const platformSettings = (): SettingGroup => ({
  title: 'every service (libs/platform/src/config/config.ts)',
  schema: { keys: CONFIG_KEYS, defaults: loadConfig({}) },
  docs: PLATFORM_SETTING_DOCS,
});

const PLATFORM_SETTING_DOCS: Readonly<Record<string, SettingDoc>> = {
  NODE_ENV: {
    meaning:
      'development | production | test; production (set by the Docker image) refuses development secrets such as the default QDC_API_KEY_PEPPER, naming the variable, and logs JSON lines',
    shownDefault: 'development (the Docker image sets production; leave this commented out for docker compose)',
    example: 'development',
  },
  PORT: 'gateway HTTP port',
  HOST: 'gateway bind address',
  DATABASE_URL: 'Postgres (15+) connection string; only the results service (and the keys CLI) use it',
  REDIS_URL: 'Redis 7: BullMQ queues and the per-key rate limit; needs maxmemory-policy noeviction and, in production, persistence (appendonly yes)',
  NATS_URL: 'NATS with JetStream enabled (-js): RPC, events and the Object Store for large payloads; a cluster: its servers comma-separated',
  QDC_NAMESPACE: 'prefix of NATS subjects/buckets and Redis keys (BullMQ wait list: <namespace>:bull:inference:wait); [a-z][a-z0-9-]{0,40}',
  QDC_API_KEY_PEPPER: 'SECRET (min 16 chars): pepper for API key hashes; changing it invalidates every key. Generate: openssl rand -hex 32',
  QDC_UPLOAD_LIMIT_BYTES: 'largest upload accepted by the gateway (multipart file), bytes',
  QDC_JSON_BODY_LIMIT_BYTES: 'largest JSON request body, bytes',
  QDC_HTTP_REQUEST_TIMEOUT_MS: 'longest time to receive a whole request (headers and body; 408 after it), ms',
  QDC_CORS_ORIGINS: 'browser origins allowed to call the API (comma-separated); empty = none',
  QDC_CONSOLE_DIR: {
    meaning: "the web console's built files (npm run build → dist/console); unset = dist/console next to the gateway",
    example: '/app/dist/console',
  },
  QDC_RATE_LIMIT_PER_MINUTE: 'requests per API key per 60 s window, counted in Redis and shared by every gateway replica (429 with Retry-After above it)',
  QDC_NATS_TIMEOUT_MS: 'timeout of NATS requests between services, ms',
  QDC_NATS_REPLICAS:
    'replicas of every JetStream stream, KV bucket and object store QDC creates (1 on one nats-server; 3 on a 3-node cluster, deploy/overlays/nats-cluster); existing ones are brought to it',
  QDC_INFERENCE_TIMEOUT_MS: 'how long the gateway waits for an inference job to finish (the job’s deadline), ms',
  QDC_RESULTS_RETRY_MS: 'how long a worker keeps trying to store a result while the results service does not answer before the caller gets 503, ms',
  QDC_WORKER_CONCURRENCY: 'jobs run at once by each inference worker process',
  QDC_RUN_GROUP_MAX: 'gateway: most small runs sent as one inference job by dynamic batching (1 = off)',
  QDC_RUN_GROUP_WAIT_MS: 'gateway: longest a small run waits for a worker slot while its group forms (a run that finds a slot free never waits)',
  QDC_RUN_GROUP_CONCURRENCY: 'run groups (queue inference-groups) each inference worker process runs at once; the gateway counts its slots with it',
  QDC_INFERENCE_THREADS: {
    meaning: 'threads for large batches (>= 65536 samples, split) and large single runs (>= 65536 elements); unset = CPUs, at most 4',
    example: '2',
  },
  QDC_JOB_LOCK_MS: 'BullMQ job lock, ms; a job whose worker stops renewing it is handed to another worker',
  QDC_JOB_ATTEMPTS: 'attempts per inference job (retried with exponential backoff)',
  QDC_AUTH_CACHE_MS: 'how long the gateway caches a verified API key, ms (0 = no cache)',
  QDC_HEALTH_PORT: {
    meaning:
      'probe port (/livez, /readyz) of non-gateway services; unset = per-service default (results 9102, qpu-broker 9103, assistant 9104, inference worker 9111, …)',
    example: '9102',
  },
  QDC_MIGRATE_ON_BOOT: 'the results service applies prisma/migrations on boot (true/false/1/0)',
  QDC_SSE_KEEPALIVE_MS: 'SSE `: keepalive` comment interval while a stream is idle (assistant, job and lab-stream events), ms',
  QDC_SSE_STREAMS_PER_KEY: 'event streams (GET …/events: QPU jobs, lab streams) one API key may hold open on one gateway',
  QDC_ASSISTANT_DETACH_GRACE_MS: 'an assistant run whose client disconnected is cancelled after this grace (a reconnect with Last-Event-ID keeps it), ms',
  QDC_ASSISTANT_RUN_RETENTION_MS: "how long an assistant run's events stay replayable for Last-Event-ID (JetStream stream max age), ms",
  QDC_LLM_BASE_URL: {
    meaning: 'assistant LLM: OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, llama.cpp); unset = the built-in offline engine',
    example: 'http://127.0.0.1:11434/v1',
  },
  QDC_LLM_MODEL: { meaning: 'assistant LLM model name', example: 'qwen2.5:7b-instruct' },
  QDC_LLM_API_KEY: { meaning: "assistant LLM provider's API key (SECRET); unset = none sent" },
  QDC_LLM_MODEL_LOW: { meaning: 'model for the low budget; unset = QDC_LLM_MODEL' },
  QDC_LLM_MODEL_MEDIUM: { meaning: 'model for the medium budget; unset = QDC_LLM_MODEL' },
  QDC_LLM_MODEL_HIGH: { meaning: 'model for the high budget; unset = QDC_LLM_MODEL' },
  QDC_LLM_MAX_TOKENS_LOW: 'max_tokens of a low-budget completion',
  QDC_LLM_MAX_TOKENS_MEDIUM: 'max_tokens of a medium-budget completion',
  QDC_LLM_MAX_TOKENS_HIGH: 'max_tokens of a high-budget completion',
  QDC_LLM_TIMEOUT_MS: 'per LLM provider request, ms',
  QDC_LLM_MAX_RETRIES: 'retries of an LLM request on 429, 5xx and connection errors (exponential backoff from the base, or Retry-After)',
  QDC_LLM_RETRY_BASE_MS: 'first LLM retry delay, doubling each retry, ms',
  LOG_LEVEL: 'error | warn | log | debug | verbose',
  QDC_SIM_TIMEOUT_MS: 'how long the gateway waits for a circuit simulation, ms (the broker validates the same limit)',
  QDC_INFERENCE_WORKERS: '`npm start` in the split mode only: inference worker processes it starts (the single-process mode runs one)',
  QDC_VLM_BASE_URL: {
    meaning: "calibration agent's optional VLM (OpenAI-compatible chat completions with image input); set all three of base URL, model and key, or none",
    example: 'http://vlm:8000/v1',
  },
  QDC_VLM_MODEL: { meaning: 'VLM model name', example: 'nvidia/Ising-Calibration-1-35B' },
  QDC_VLM_API_KEY: { meaning: "VLM provider's API key (SECRET)" },
  QDC_VLM_TIMEOUT_MS: 'per VLM request, ms (long enough for a cold start of a served 35B model)',
  OTEL_EXPORTER_OTLP_ENDPOINT: { meaning: 'OpenTelemetry traces over OTLP/HTTP; unset = tracing off', example: 'http://otel-collector:4318' },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: { meaning: 'the traces endpoint itself (overrides <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces)' },
  OTEL_EXPORTER_OTLP_HEADERS: { meaning: '`key=value,key2=value2` sent with every export (e.g. an API key of the collector)' },
  OTEL_TRACES_SAMPLER_ARG: 'share of new traces recorded, 0–1 (parent-based: a request that arrives sampled stays sampled)',
  QDC_WEBHOOK_ALLOW_LOCAL_HTTP:
    'webhooks: also accept http://localhost, http://127.0.0.1 and http://[::1] receivers (tests, lab-local receivers); docs/webhooks.md',
  QDC_WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'webhooks: deliver to private, loopback and link-local addresses (refused by default against SSRF)',
  QDC_WEBHOOK_BACKOFF_BASE_MS: 'webhooks: delay before the first retry of a failed delivery, doubling each retry (with jitter), ms',
  QDC_WEBHOOK_BACKOFF_MAX_MS: 'webhooks: longest delay between two attempts, ms',
  QDC_WEBHOOK_RETRY_WINDOW_MS: 'webhooks: a delivery still failing this long after its first attempt is marked failed, ms',
  QDC_WEBHOOK_TIMEOUT_MS: 'webhooks: longest one attempt may take (connect to the end of the answer), ms',
  QDC_SHUTDOWN_GRACE_MS: 'SIGTERM: longest a process drains (requests in flight, the current job) before it exits anyway, ms',
};

/** Read by `npm start` (scripts/) and docker compose, not by the services. */
export const OUTSIDE_SETTINGS: SettingGroup = {
  title: 'not read by the services: npm start (scripts/start.ts) and docker compose',
  docs: {
    QDC_START_MODE: {
      meaning:
        'npm start: single = every service in one Node process (the smallest footprint); split = one process per service, as deployed (npm run start:split)',
      example: 'single',
    },
    QDC_START_DEPENDENCIES: { meaning: 'npm start: false = only check Postgres, Redis and NATS and report, never start a server', example: 'true' },
    QDC_DATA_DIR: { meaning: 'npm start: where the development key and the data of servers it started are kept', example: '.qdc' },
    QDC_DEPENDENCY_BIN_PATH: {
      meaning: 'npm start: the directories (PATH syntax) searched for postgres, redis-server and nats-server; unset = PATH and the sbin directories',
    },
    POSTGRES_PASSWORD: { meaning: 'docker compose: password of the "qdc" Postgres user (used in the containers’ DATABASE_URL)', example: 'qdc' },
    QDC_POSTGRES_HOST_PORT: { meaning: 'docker compose: host port (127.0.0.1) of the Postgres container', example: '5432' },
    QDC_REDIS_HOST_PORT: { meaning: 'docker compose: host port (127.0.0.1) of the Redis container', example: '6379' },
    QDC_NATS_HOST_PORT: { meaning: 'docker compose: host port (127.0.0.1) of the NATS container', example: '4222' },
  },
};
