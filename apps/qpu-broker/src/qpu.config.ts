import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Logger } from '@nestjs/common';
import { z } from 'zod';

/** The repository (or image) root, found from this file in src/ or dist/. */
function repositoryRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.includes('/dist/') ? resolve(here, '../../../..') : resolve(here, '../../..');
}

/**
 * QPU broker settings (README › QPUs), validated once at boot. Device files are read from
 * QDC_QPU_DEVICES_DIR; simulated devices take shots × shot_time_us × QDC_QPU_TIME_SCALE of device time.
 */
const QpuConfigSchema = z.object({
  QDC_QPU_DEVICES_DIR: z.string().default(resolve(repositoryRoot(), 'devices')),
  QDC_QPU_TIME_SCALE: z.coerce.number().nonnegative().default(1),
  /** Executions of a job before it is failed (a worker that dies mid-job counts as one). */
  QDC_QPU_JOB_ATTEMPTS: z.coerce.number().int().positive().default(5),
  /** How long a worker keeps retrying to hand a result to the broker before giving the job back. */
  QDC_QPU_REPORT_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  /** Recovery sweep: re-enqueue queued jobs missing from their queue, fail dead-lettered ones. */
  QDC_QPU_SWEEP_INTERVAL_MS: z.coerce.number().int().positive().default(30_000),
  QDC_IONQ_API_KEY: z.string().min(1).optional(),
  QDC_IONQ_BASE_URL: z.string().url().default('https://api.ionq.co/v0.3'),
  /** First status poll of a cloud job, then doubling up to the maximum interval. */
  QDC_QPU_POLL_INITIAL_MS: z.coerce.number().int().positive().default(2_000),
  QDC_QPU_POLL_MAX_INTERVAL_MS: z.coerce.number().int().positive().default(300_000),
  /** A cloud job without a final status after this long is failed (dead letter). */
  QDC_QPU_POLL_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(7 * 24 * 3600 * 1000),
  /** Lab devices (issue 17): offline after this long without a heartbeat; nodes heartbeat at a third of it. */
  QDC_LAB_OFFLINE_AFTER_MS: z.coerce.number().int().positive().default(30_000),
  /** A node that neither reports progress nor acknowledges a job for this long has it redelivered. */
  QDC_LAB_ACK_WAIT_MS: z.coerce.number().int().positive().default(30_000),
  /** Deliveries of a lab job (a node that dies mid-job counts as one) before it is failed. */
  QDC_LAB_MAX_DELIVER: z.coerce.number().int().positive().default(5),
  /** Lab credentials (labs.json, auth.conf) the admin routes issue and revoke, as `qdc lab …` does; unset: not managed here. */
  QDC_NATS_AUTH_DIR: z.string().min(1).optional(),
  /** nats-server's `pid_file`: after a change the broker sends it SIGHUP (reload); unset: reload by hand. */
  QDC_NATS_PID_FILE: z.string().min(1).optional(),
  /**
   * SPEC §6 `QDC_QPU_QUEUE_TIMEOUT`, in milliseconds: a job queued this long for a device that is not online is failed
   * (checked by the sweep). `QDC_QPU_QUEUE_TIMEOUT_MS` is its deprecated alias (see loadQpuConfig).
   */
  QDC_QPU_QUEUE_TIMEOUT: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3600 * 1000),
});

export type QpuConfig = z.infer<typeof QpuConfigSchema>;
export const QPU_CONFIG = Symbol('QPU_CONFIG');

/** Every QPU broker setting name (`.env.example` is generated from these, see qpu.settings.ts). */
export const QPU_CONFIG_KEYS: readonly string[] = Object.keys(QpuConfigSchema.shape);

/** The name this setting had before it followed SPEC §6; still read, with a warning. */
const DEPRECATED_QUEUE_TIMEOUT = 'QDC_QPU_QUEUE_TIMEOUT_MS';

export function loadQpuConfig(env: NodeJS.ProcessEnv = process.env, warn: (message: string) => void = (m) => new Logger('QpuConfig').warn(m)): QpuConfig {
  const old = env[DEPRECATED_QUEUE_TIMEOUT];
  if (old !== undefined && old !== '') {
    if (env.QDC_QPU_QUEUE_TIMEOUT === undefined || env.QDC_QPU_QUEUE_TIMEOUT === '') {
      warn(`${DEPRECATED_QUEUE_TIMEOUT} is deprecated; set QDC_QPU_QUEUE_TIMEOUT (milliseconds, SPEC §6) instead — using ${DEPRECATED_QUEUE_TIMEOUT}=${old}`);
      env = { ...env, QDC_QPU_QUEUE_TIMEOUT: old };
    } else {
      warn(`${DEPRECATED_QUEUE_TIMEOUT} is deprecated and ignored: QDC_QPU_QUEUE_TIMEOUT=${env.QDC_QPU_QUEUE_TIMEOUT} is set`);
    }
  }
  const parsed = QpuConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid QPU configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export const qpuConfigProvider = { provide: QPU_CONFIG, useFactory: () => loadQpuConfig() };
