import { z } from 'zod';
import { RpcErrorBody } from './errors.js';
import { BinaryRef, InputRef } from './payload.js';

/** What a model run asks for (`ModelRunService.run` in the gateway): the model, its flags and the uploaded file. */
export const ModelRunFields = z.object({
  ownerId: z.string().uuid(),
  model: z.string().min(1),
  batch: z.boolean(),
  plot: z.boolean(),
  darkMode: z.boolean(),
  inputFileName: z.string(),
  inputFileSize: z.number().int().nonnegative(),
  input: InputRef,
  /** SHA-256 of the uploaded bytes (part of the job id, so a reused request id cannot alias another upload). */
  inputSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type ModelRunFields = z.infer<typeof ModelRunFields>;

/** Wire shape of a ModelResult (SPEC §3), produced by apps/results and served as is. */
export const ModelResultDto = z.object({
  id: z.string().uuid(),
  model: z.string(),
  created_at: z.string(),
  input_file_name: z.string(),
  input_file_size: z.number().int(),
  output: z.record(z.string(), z.unknown()),
  user_vote: z.union([z.literal(1), z.literal(-1), z.null()]),
});
export type ModelResultDto = z.infer<typeof ModelResultDto>;

export const ModelBatchResultDto = z.object({
  id: z.string().uuid(),
  model: z.string(),
  created_at: z.string(),
  input_file_name: z.string(),
  batch_size: z.number().int(),
  output: z.object({ outputs: z.array(z.record(z.string(), z.unknown())) }),
});
export type ModelBatchResultDto = z.infer<typeof ModelBatchResultDto>;

/**
 * inference worker → gateway (the job's outcome): the stored result as the API returns it, as JSON bytes written once
 * by the worker and sent to the client unchanged (never parsed on the way); inline when small, in the object store when
 * large.
 */
export const ModelsRunResponse = z.object({
  resultId: z.string().uuid(),
  result: BinaryRef,
});
export type ModelsRunResponse = z.infer<typeof ModelsRunResponse>;

/**
 * BullMQ job data of the inference queue: the run, the request id, and what every job carries (JobEnvelope: the
 * deadline the worker bounds its retries by, and `meta` for propagated headers such as trace context).
 */
export const InferenceJobData = ModelRunFields.extend({
  requestId: z.string(),
  /** Epoch ms after which nobody waits for the answer (the worker stops retrying the persist then). */
  deadline: z.number().int().optional(),
  /** Propagated context (e.g. W3C trace headers); opaque to the run path. */
  meta: z.record(z.string(), z.string()).optional(),
  /** The producer's outcome prefix (`jobOutcomeInbox`): the worker publishes the outcome on `<inbox>.<job id>`. */
  outcomeInbox: z.string().optional(),
});
export type InferenceJobData = z.infer<typeof InferenceJobData>;

/**
 * One run of a run group: what a single run's job data holds, minus what the group shares (owner, deadline, inbox).
 * Only small, inline inputs without a plot are grouped; `jobId` is the id the run would have as a job of its own (`jobIdFor`), so its
 * result is stored once whatever delivers it.
 */
export const GroupedRun = z.object({
  jobId: z.string().min(1),
  requestId: z.string(),
  model: z.string().min(1),
  inputFileName: z.string(),
  inputFileSize: z.number().int().nonnegative(),
  input: z.object({ inline: z.string() }),
  inputSha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type GroupedRun = z.infer<typeof GroupedRun>;

/** Most runs in one group (the gateway's batcher forms smaller ones; QDC_RUN_GROUP_MAX). */
export const RUN_GROUP_MAX_RUNS = 64;

/**
 * BullMQ job data of `run-group`: concurrent small runs of one owner, formed by the gateway within a short bounded
 * wait (dynamic batching): one job, one results insert and one outcome for all of them, each run keeping its own
 * result, error and job id. Envelope fields as InferenceJobData.
 */
export const RunGroupJobData = z.object({
  ownerId: z.string().uuid(),
  runs: z.array(GroupedRun).min(1).max(RUN_GROUP_MAX_RUNS),
  requestId: z.string(),
  deadline: z.number().int().optional(),
  meta: z.record(z.string(), z.string()).optional(),
  outcomeInbox: z.string().optional(),
});
export type RunGroupJobData = z.infer<typeof RunGroupJobData>;

/** A run's own outcome inside a group: its answer, or its error (bad input stays that run's 422). */
export const GroupedRunOutcome = z.union([
  z.object({ ok: z.literal(true), response: ModelsRunResponse }),
  z.object({ ok: z.literal(false), error: RpcErrorBody }),
]);
export type GroupedRunOutcome = z.infer<typeof GroupedRunOutcome>;

/** The group's answer: one outcome per run, in the job's order. */
export const RunGroupResponse = z.object({ runs: z.array(GroupedRunOutcome) });
export type RunGroupResponse = z.infer<typeof RunGroupResponse>;

/** The fields a stored result is made of; `toResultDto` turns them into the wire shape. */
export interface ResultFields {
  id: string;
  model: string;
  createdAt: string;
  inputFileName: string;
  inputFileSize: number;
  /** Set for batch runs only. */
  batchSize: number | null;
  output: unknown;
  userVote: number | null;
}

/**
 * The result's JSON text around an output that is already JSON text (a batch's megabytes), without parsing it:
 * toResultDto with a stand-in output, whose serialised `"output":0` is then replaced. That sequence cannot occur
 * anywhere else in the text: inside a JSON string every `"` is escaped.
 */
export function resultJsonText(row: Omit<ResultFields, 'output'>, outputJson: string): string {
  const text = JSON.stringify(toResultDto({ ...row, output: 0 }));
  const at = text.indexOf('"output":0');
  return `${text.slice(0, at)}"output":${outputJson}${text.slice(at + '"output":0'.length)}`;
}

/** ModelResult for single runs, ModelBatchResult (no input_file_size, no user_vote) for batches. */
export function toResultDto(row: ResultFields): ModelResultDto | ModelBatchResultDto {
  const base = { id: row.id, model: row.model, created_at: row.createdAt, input_file_name: row.inputFileName };
  if (row.batchSize !== null) return { ...base, batch_size: row.batchSize, output: row.output as ModelBatchResultDto['output'] };
  const vote = row.userVote === 1 || row.userVote === -1 ? row.userVote : null;
  return { ...base, input_file_size: row.inputFileSize, output: row.output as Record<string, unknown>, user_vote: vote };
}
