import { z } from 'zod';
import { LAB_ID_PATTERN, LabId } from './lab.js';

/**
 * Live instrument streams (SPEC §6): a lab declares a stream (a name and the models to run); its instrument
 * publishes frames on the stream's frames subject, which a JetStream stream of its own keeps until they are
 * analysed (so the instrument's publish never waits for a model); every analysis is stored as a model result
 * of the lab's owner and published on the stream's results subject. Payload JSON Schemas: docs/lab-integration.md.
 */
export const labStreamSubjects = (namespace: string, lab: string, name: string) => {
  const base = `${namespace}.lab.${lab}.streams.${name}`;
  return {
    /** instrument → QDC: one frame per message (`.npy`/`.pt` bytes or a JSON LabFrame); `Nats-Msg-Id` = frame id. */
    frames: `${base}.frames`,
    /** QDC → instrument: one LabStreamEvent per frame, in frame order. */
    results: `${base}.results`,
  };
};

/** The subjects of every stream of a lab (permissions: publish frames, subscribe results). */
export const labStreamWildcards = (namespace: string, lab: string) => ({
  frames: `${namespace}.lab.${lab}.streams.*.frames`,
  results: `${namespace}.lab.${lab}.streams.*.results`,
});

/**
 * The JetStream stream holding a live stream's unanalysed frames. Lab ids and stream names are lower case, so the
 * upper-case `FRAMES` token separates them unambiguously and never collides with a lab's job stream (`<ns>-lab-<lab>`).
 */
export const labFrameStream = (namespace: string, lab: string, name: string): string => `${namespace}-lab-${lab}-FRAMES-${name}`;
export const labFrameStreamPrefix = (namespace: string, lab: string): string => `${namespace}-lab-${lab}-FRAMES-`;
export const LAB_FRAME_CONSUMER = 'analyser';
/**
 * The JetStream stream holding a live stream's events (one per frame), deduplicated by `<frame id>@<seq>` and
 * republished by the server on the stream's results subject: a frame answered twice (a redelivery) is published once.
 * Its subject is QDC's own (outside `<ns>.lab.<lab>.>`, so no lab may publish there).
 */
export const labEventStream = (namespace: string, lab: string, name: string): string => `${namespace}-lab-${lab}-EVENTS-${name}`;
export const labEventStreamPrefix = (namespace: string, lab: string): string => `${namespace}-lab-${lab}-EVENTS-`;
export const labStreamEventsSubject = (namespace: string, lab: string, name: string): string => `${namespace}.lab-streams.events.${lab}.${name}`;
/** The JetStream KV bucket of stream leases (key `<lab>.<name>`, value the holding replica): one replica consumes a stream. */
export const labStreamLeasesBucket = (namespace: string): string => `${namespace}-lab-stream-leases`;
/** The JetStream KV bucket of stream definitions (key `<lab>.<name>`). */
export const labStreamsBucket = (namespace: string): string => `${namespace}-lab-streams`;

export const LabStreamName = z.string().regex(LAB_ID_PATTERN, 'lower-case letters, digits, dashes and underscores (no dots)');

/** A stream's definition as created by `qdc stream create` or `POST /v0/admin/lab-streams`. */
export const LabStreamCreateRequest = z.object({
  lab: LabId,
  name: LabStreamName,
  models: z.array(z.string().min(1)).min(1, 'models must name at least one model').max(16),
  /** Frames analysed at once (results are still published in frame order). */
  max_in_flight: z.number().int().min(1).max(256).optional(),
  /** A frame that waited longer than this before its analysis started is dropped (reason `stale`); none = never. */
  max_lag_ms: z.number().int().positive().nullable().optional(),
});
export type LabStreamCreateRequest = z.infer<typeof LabStreamCreateRequest>;

export const LabStreamDto = z.object({
  lab: z.string(),
  name: z.string(),
  owner_id: z.string().uuid(),
  models: z.array(z.string()),
  max_in_flight: z.number().int(),
  max_lag_ms: z.number().int().nullable(),
  created_at: z.string(),
  subjects: z.object({ frames: z.string(), results: z.string() }),
  jetstream: z.object({ stream: z.string(), consumer: z.string() }),
});
export type LabStreamDto = z.infer<typeof LabStreamDto>;

export const LabStreamListRequest = z.object({ lab: LabId.optional() });
export type LabStreamListRequest = z.infer<typeof LabStreamListRequest>;
export const LabStreamDeleteRequest = z.object({ lab: LabId, name: LabStreamName.optional() });
export type LabStreamDeleteRequest = z.infer<typeof LabStreamDeleteRequest>;
export const LabStreamDeleteResponse = z.object({ deleted: z.array(z.string()) });
export type LabStreamDeleteResponse = z.infer<typeof LabStreamDeleteResponse>;

/** One axis of a frame: a name, a unit and either its values or a linear range. */
export const LabFrameAxis = z.object({
  name: z.string().max(200),
  unit: z.string().max(50).optional(),
  values: z.array(z.number()).optional(),
  start: z.number().optional(),
  stop: z.number().optional(),
});

/** A JSON frame: `data` is a 1-D trace or a 2-D map (rows of equal length). */
export const LabFrame = z.object({
  frame_id: z.string().min(1).max(256).optional(),
  data: z.unknown(),
  axes: z.array(LabFrameAxis).max(8).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type LabFrame = z.infer<typeof LabFrame>;

/** Per model of a frame: the stored result (as `GET /model-results/{id}` shows it) or why the model refused it. */
export const LabStreamModelOutcome = z.union([
  z.object({ model: z.string(), result_id: z.string().uuid(), output: z.record(z.string(), z.unknown()) }),
  z.object({ model: z.string(), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type LabStreamModelOutcome = z.infer<typeof LabStreamModelOutcome>;

const EventBase = z.object({ lab: z.string(), stream: z.string(), frame_id: z.string(), seq: z.number().int().positive() });
/** What QDC publishes on a stream's results subject (and to a frame's `Qdc-Reply-To` inbox), one per frame. */
export const LabStreamEvent = z.discriminatedUnion('type', [
  EventBase.extend({ type: z.literal('result'), results: z.array(LabStreamModelOutcome), latency_ms: z.number().nonnegative() }),
  /** The frame is not an array QDC can read (nothing stored). */
  EventBase.extend({ type: z.literal('error'), error: z.object({ code: z.string(), message: z.string() }) }),
  /** The frame was not analysed: `stale` (waited longer than max_lag_ms) or `failed` (analysis kept failing). */
  EventBase.extend({ type: z.literal('dropped'), reason: z.enum(['stale', 'failed']), message: z.string() }),
]);
export type LabStreamEvent = z.infer<typeof LabStreamEvent>;

/** Header a frame may carry: an inbox of the lab (`_INBOX_<lab>.…`) that also receives the frame's event. */
export const FRAME_REPLY_HEADER = 'Qdc-Reply-To';

/** → results: the owner of that name (created on first use); a lab's stream results belong to the owner named as the lab. */
export const OwnerEnsureRequest = z.object({ name: z.string().min(1).max(200) });
export type OwnerEnsureRequest = z.infer<typeof OwnerEnsureRequest>;
export const OwnerEnsureResponse = z.object({ id: z.string().uuid(), name: z.string() });
export type OwnerEnsureResponse = z.infer<typeof OwnerEnsureResponse>;
