import { z } from 'zod';
import { BinaryRef, InputRef } from './payload.js';
import { ModelResultDto, ModelBatchResultDto } from './models.js';

const OwnerScoped = z.object({ ownerId: z.string().uuid() });
const ResultRef = OwnerScoped.extend({ id: z.string() });

/**
 * inference worker → results: persist a finished run (idempotent by jobId). The output is its JSON bytes as the worker
 * wrote them; results stores that text without parsing it again.
 */
export const ResultsCreateRequest = OwnerScoped.extend({
  jobId: z.string().min(1),
  model: z.string(),
  inputFileName: z.string(),
  inputFileSize: z.number().int().nonnegative(),
  input: InputRef,
  batchSize: z.number().int().positive().nullable(),
  output: BinaryRef,
});
export type ResultsCreateRequest = z.infer<typeof ResultsCreateRequest>;

/**
 * Stores an inference job's input file while its model runs (idempotent by job id), so that
 * creating the result afterwards only links it instead of moving megabytes on the critical path.
 */
export const ResultsStageInputRequest = z.object({
  jobId: z.string().min(1),
  inputFileName: z.string(),
  inputFileSize: z.number().int().nonnegative(),
  input: BinaryRef,
});
export type ResultsStageInputRequest = z.infer<typeof ResultsStageInputRequest>;

/**
 * What the database decided: the stored row's id, creation time and vote. A retried job (its result is
 * stored already) gets the stored row's values; its output is the one the worker just computed again, which equals the
 * stored one (same job id = same model, flags and input digest; models are pure functions).
 */
export const ResultsCreateResponse = z.object({
  id: z.string().uuid(),
  createdAt: z.string(),
  userVote: z.union([z.literal(1), z.literal(-1), z.null()]),
});
export type ResultsCreateResponse = z.infer<typeof ResultsCreateResponse>;

export const ResultsListRequest = OwnerScoped.extend({
  skip: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  model: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
});
export type ResultsListRequest = z.infer<typeof ResultsListRequest>;

export const MaskedResultDto = z.object({
  id: z.string(),
  model: z.string(),
  created_at: z.string(),
  output: z.record(z.string(), z.unknown()),
});
export type MaskedResultDto = z.infer<typeof MaskedResultDto>;

export const ResultsGetRequest = ResultRef;
export type ResultsGetRequest = z.infer<typeof ResultsGetRequest>;
export const ResultsDeleteRequest = ResultRef;
export type ResultsDeleteRequest = z.infer<typeof ResultsDeleteRequest>;
export const ResultsDownloadRequest = ResultRef;
export type ResultsDownloadRequest = z.infer<typeof ResultsDownloadRequest>;

export const ResultsDownloadResponse = z.object({
  result: z.union([ModelResultDto, ModelBatchResultDto]),
  inputFileName: z.string(),
  /** The input file: a stored input's reference (the gateway streams it from the store), or an older row's bytes. */
  input: InputRef,
});
export type ResultsDownloadResponse = z.infer<typeof ResultsDownloadResponse>;

export const VotesPutRequest = ResultRef.extend({
  vote: z.union([z.literal(1), z.literal(-1)]),
  feedback: z.string().max(4000).nullable(),
});
export type VotesPutRequest = z.infer<typeof VotesPutRequest>;

export const VoteDto = z.object({
  model_result_id: z.string(),
  vote: z.union([z.literal(1), z.literal(-1)]),
  feedback: z.string().nullable(),
});
export type VoteDto = z.infer<typeof VoteDto>;

export const VotesDeleteRequest = ResultRef;
export type VotesDeleteRequest = z.infer<typeof VotesDeleteRequest>;

export const RunCountsResponse = z.object({ counts: z.record(z.string(), z.number().int()) });
export type RunCountsResponse = z.infer<typeof RunCountsResponse>;

/**
 * Event: a model's run counter changed (absolute value, so receivers can apply max()). The one way run counts reach
 * the gateways (besides the full list they load at boot and after a NATS reconnect).
 */
export const RunRecordedEvent = z.object({ model: z.string(), numberOfRuns: z.number().int() });
export type RunRecordedEvent = z.infer<typeof RunRecordedEvent>;
