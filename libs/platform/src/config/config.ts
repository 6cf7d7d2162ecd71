import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

/** An empty variable (`QDC_VLM_BASE_URL=` in a ConfigMap) means unset. */
const emptyAsUnset = (value: unknown): unknown => (value === '' ? undefined : value);

/** Every setting of every service, validated once at boot (README has the table). */
const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().default('postgresql://root@127.0.0.1:5432/qdc'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  QDC_NAMESPACE: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,40}$/, 'lower-case letters, digits and dashes')
    .default('qdc'),
  QDC_API_KEY_PEPPER: z.string().min(16).default('qdc-development-pepper-change-me'),
  QDC_UPLOAD_LIMIT_BYTES: z.coerce.number().int().positive().default(64 * 1024 * 1024),
  QDC_JSON_BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  QDC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(1200),
  QDC_NATS_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  QDC_INFERENCE_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  QDC_WORKER_CONCURRENCY: z.coerce.number().int().positive().default(1),
  /** Threads a worker splits a large batch across; default: the CPUs it sees, at most 4. */
  QDC_INFERENCE_THREADS: z.coerce.number().int().positive().max(64).optional(),
  QDC_JOB_LOCK_MS: z.coerce.number().int().positive().default(30_000),
  QDC_JOB_ATTEMPTS: z.coerce.number().int().positive().default(3),
  QDC_AUTH_CACHE_MS: z.coerce.number().int().nonnegative().default(10_000),
  QDC_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  QDC_MIGRATE_ON_BOOT: bool.default(true),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
  // Calibration agent's optional VLM (OpenAI-compatible chat completions with image input); all three or none.
  QDC_VLM_BASE_URL: z.preprocess(emptyAsUnset, z.string().url().optional()),
  QDC_VLM_MODEL: z.preprocess(emptyAsUnset, z.string().min(1).optional()),
  QDC_VLM_API_KEY: z.preprocess(emptyAsUnset, z.string().optional()),
  /** Long enough for a cold start of a served 35B VLM (minutes); the gateway waits this plus a margin. */
  QDC_VLM_TIMEOUT_MS: z.coerce.number().int().positive().default(600_000),
});

export type QdcConfig = z.infer<typeof ConfigSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): QdcConfig {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** Connection strings with credentials masked, for logs. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}
