import { z } from 'zod';

/** Live instrument stream settings (README › Lab streams), validated once at boot. */
const StreamsConfigSchema = z.object({
  /** Frames of one stream analysed at once, unless the stream sets its own `max_in_flight`. */
  QDC_STREAM_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(256).default(16),
  /** Unanalysed frames a stream keeps; beyond it JetStream refuses the instrument's publish at once (never blocks). */
  QDC_STREAM_MAX_BACKLOG: z.coerce.number().int().positive().default(10_000),
  /** JetStream duplicate window: a frame id (`Nats-Msg-Id`) seen within it is stored once. */
  QDC_STREAM_DEDUP_WINDOW_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60_000),
  /** A frame whose consumer stopped answering for this long is delivered again (the analysis is idempotent). */
  QDC_STREAM_ACK_WAIT_MS: z.coerce.number().int().positive().default(30_000),
  /**
   * A stream is consumed by the one replica holding its lease (KV, renewed every third of this); a replica that stops
   * renewing loses it after this long and another takes the stream over (from its first unacknowledged frame).
   */
  QDC_STREAM_LEASE_MS: z.coerce.number().int().min(1000).default(6000),
  /**
   * Inference jobs a stream keeps running at once; frames arriving meanwhile travel together in the next job (one
   * job and one insert for several frames under a backlog, one frame per job at the instrument's pace).
   */
  QDC_STREAM_JOBS_IN_FLIGHT: z.coerce.number().int().min(1).max(64).default(2),
  /** Attempts of a frame's analysis (lost Redis, timeouts) before it is reported `dropped` (`failed`). */
  QDC_STREAM_ANALYSIS_ATTEMPTS: z.coerce.number().int().positive().default(3),
});

export type StreamsConfig = z.infer<typeof StreamsConfigSchema>;
export const STREAMS_CONFIG = Symbol('STREAMS_CONFIG');

/** Every setting name of this schema (`.env.example` is generated from these). */
export const STREAMS_CONFIG_KEYS: readonly string[] = Object.keys(StreamsConfigSchema.shape);

export function loadStreamsConfig(env: NodeJS.ProcessEnv = process.env): StreamsConfig {
  const parsed = StreamsConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`invalid stream configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export const streamsConfigProvider = { provide: STREAMS_CONFIG, useFactory: () => loadStreamsConfig() };
