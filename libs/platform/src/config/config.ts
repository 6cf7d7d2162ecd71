import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** The development pepper: fine on a laptop, refused in production (anyone can read it here). */
export const DEVELOPMENT_API_KEY_PEPPER = 'qdc-development-pepper-change-me';

/** An optional setting where an empty value (e.g. `${VAR:-}` in compose) means unset. */
const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

/** An empty variable (`QDC_VLM_BASE_URL=` in a ConfigMap) means unset. */
const emptyAsUnset = (value: unknown): unknown => (value === '' ? undefined : value);

/** Every setting of every service, validated once at boot (README has the table). */
const ConfigSchema = z.object({
  /** `production` refuses development secrets (see checkProductionSafety). */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().default('postgresql://root@127.0.0.1:5432/qdc'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  QDC_NAMESPACE: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,40}$/, 'lower-case letters, digits and dashes')
    .default('qdc'),
  QDC_API_KEY_PEPPER: z.string().min(16).default(DEVELOPMENT_API_KEY_PEPPER),
  QDC_UPLOAD_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(64 * 1024 * 1024),
  QDC_JSON_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  /**
   * Longest time to receive a whole request, headers and body (a slow or stalled upload gets 408 and its connection
   * is closed; what was streamed into the input store is removed). Work after the body has arrived is not limited.
   */
  QDC_HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  /** Comma-separated browser origins allowed to call the API (CORS); empty = none. */
  QDC_CORS_ORIGINS: z.string().default(''),
  /** The web console's built files (apps/console → dist/console); default: dist/console next to the gateway. */
  QDC_CONSOLE_DIR: unsetIfEmpty(z.string()),
  QDC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  QDC_NATS_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  /** Replicas of every JetStream stream, KV bucket and object store QDC creates: 1 on one nats-server, 3 on a 3-node cluster. */
  QDC_NATS_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  QDC_INFERENCE_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  /** How long a worker keeps trying to store a result while results does not answer before the caller gets 503 (the job is retried). */
  QDC_RESULTS_RETRY_MS: z.coerce.number().int().positive().default(8_000),
  QDC_WORKER_CONCURRENCY: z.coerce.number().int().positive().default(1),
  /**
   * Dynamic batching of small runs in the gateway (RunBatcher): most runs in one group (1 = off) and the longest a run
   * waits for a worker slot while its group forms (a run that finds a slot free never waits).
   */
  QDC_RUN_GROUP_MAX: z.coerce.number().int().min(1).max(64).default(32),
  QDC_RUN_GROUP_WAIT_MS: z.coerce.number().int().nonnegative().max(1000).default(50),
  /** Run groups (queue `inference-groups`) an inference worker runs at once (2 measured no better on two cores: smaller groups). */
  QDC_RUN_GROUP_CONCURRENCY: z.coerce.number().int().positive().max(16).default(1),
  /** Threads a worker splits a large batch across; default: the CPUs it sees, at most 4. */
  QDC_INFERENCE_THREADS: z.coerce.number().int().positive().max(64).optional(),
  QDC_JOB_LOCK_MS: z.coerce.number().int().positive().default(30_000),
  QDC_JOB_ATTEMPTS: z.coerce.number().int().positive().default(3),
  QDC_AUTH_CACHE_MS: z.coerce.number().int().nonnegative().default(10_000),
  QDC_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  QDC_MIGRATE_ON_BOOT: bool.default(true),
  /** Assistant: SSE keepalive comment interval; grace before a detached run is cancelled; how long run events stay replayable. */
  QDC_SSE_KEEPALIVE_MS: z.coerce.number().int().positive().default(15_000),
  /** Event streams (GET …/events: QPU jobs, lab streams) one API key may hold open on one gateway. */
  QDC_SSE_STREAMS_PER_KEY: z.coerce.number().int().positive().default(8),
  QDC_ASSISTANT_DETACH_GRACE_MS: z.coerce.number().int().nonnegative().default(10_000),
  QDC_ASSISTANT_RUN_RETENTION_MS: z.coerce.number().int().positive().default(600_000),
  /** Assistant LLM provider (OpenAI-compatible chat completions); unset QDC_LLM_BASE_URL = offline engine. */
  QDC_LLM_BASE_URL: unsetIfEmpty(z.string().url()),
  QDC_LLM_MODEL: unsetIfEmpty(z.string()),
  QDC_LLM_API_KEY: unsetIfEmpty(z.string()),
  QDC_LLM_MODEL_LOW: unsetIfEmpty(z.string()),
  QDC_LLM_MODEL_MEDIUM: unsetIfEmpty(z.string()),
  QDC_LLM_MODEL_HIGH: unsetIfEmpty(z.string()),
  QDC_LLM_MAX_TOKENS_LOW: z.coerce.number().int().positive().default(1024),
  QDC_LLM_MAX_TOKENS_MEDIUM: z.coerce.number().int().positive().default(2048),
  QDC_LLM_MAX_TOKENS_HIGH: z.coerce.number().int().positive().default(4096),
  QDC_LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  QDC_LLM_MAX_RETRIES: z.coerce.number().int().nonnegative().default(3),
  QDC_LLM_RETRY_BASE_MS: z.coerce.number().int().nonnegative().default(500),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  /** How long the gateway waits for a simulation (the broker's own limit is validated there, same default). */
  QDC_SIM_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  /** `npm start` only: inference worker processes to start. */
  QDC_INFERENCE_WORKERS: z.coerce.number().int().min(0).max(64).default(1),
  // Calibration agent's optional VLM (OpenAI-compatible chat completions with image input); all three or none.
  QDC_VLM_BASE_URL: z.preprocess(emptyAsUnset, z.string().url().optional()),
  QDC_VLM_MODEL: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
  QDC_VLM_API_KEY: z.preprocess(emptyAsUnset, z.string().optional()),
  /** Long enough for a cold start of a served 35B VLM (minutes); the gateway waits this plus a margin. */
  QDC_VLM_TIMEOUT_MS: z.coerce.number().int().positive().default(600_000),
  /** OpenTelemetry (the standard variables): spans go over OTLP/HTTP when an endpoint is set; tracing is off otherwise. */
  OTEL_EXPORTER_OTLP_ENDPOINT: unsetIfEmpty(z.string().url()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: unsetIfEmpty(z.string().url()),
  /** `key=value,key2=value2` sent with every export (e.g. an API key of the collector). */
  OTEL_EXPORTER_OTLP_HEADERS: unsetIfEmpty(z.string()),
  /** Share of new traces recorded (parent-based: a request that arrives sampled stays sampled). */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).default(1),
  /** Webhooks (docs/webhooks.md): also accept http://localhost, http://127.0.0.1 and http://[::1] receivers (tests, lab-local receivers). */
  QDC_WEBHOOK_ALLOW_LOCAL_HTTP: bool.default(false),
  /** Webhooks: deliver to private, loopback and link-local addresses (refused by default against SSRF). */
  QDC_WEBHOOK_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  /** Webhooks: delay before the first retry; each later one doubles (with jitter), up to QDC_WEBHOOK_BACKOFF_MAX_MS. */
  QDC_WEBHOOK_BACKOFF_BASE_MS: z.coerce.number().int().positive().default(10_000),
  QDC_WEBHOOK_BACKOFF_MAX_MS: z.coerce.number().int().positive().default(3_600_000),
  /** Webhooks: a delivery still failing this long after its first attempt is marked failed. */
  QDC_WEBHOOK_RETRY_WINDOW_MS: z.coerce.number().int().positive().default(86_400_000),
  /** Webhooks: how long one attempt may take (connect to last byte of the answer's head). */
  QDC_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** SIGTERM: how long a service may drain (requests in flight, the current job) before it exits anyway; below the pod's grace period. */
  QDC_SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(25_000),
});

export type QdcConfig = z.infer<typeof ConfigSchema>;

/** Every setting name the services read (deploy manifests are checked against it). */
export const CONFIG_KEYS: readonly string[] = Object.keys(ConfigSchema.shape);

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): QdcConfig {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const unsafe = developmentSecrets(parsed.data);
  if (parsed.data.NODE_ENV === 'production' && unsafe.length > 0) {
    throw new ConfigError(`refusing to start with NODE_ENV=production:\n${unsafe.map((u) => `  ${u}`).join('\n')}`);
  }
  return parsed.data;
}

/**
 * The security-relevant settings still at a development or placeholder value, each naming its variable and the fix.
 * Empty in a correctly configured deployment; services log these as warnings in development.
 */
export function developmentSecrets(config: Pick<QdcConfig, 'QDC_API_KEY_PEPPER'>): string[] {
  const pepper = config.QDC_API_KEY_PEPPER;
  if (pepper === DEVELOPMENT_API_KEY_PEPPER || /^REPLACE_ME/i.test(pepper)) {
    return ['QDC_API_KEY_PEPPER is the development/placeholder value; set a secret of at least 16 characters (openssl rand -hex 32)'];
  }
  return [];
}

/** Connection strings with credentials masked, for logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
