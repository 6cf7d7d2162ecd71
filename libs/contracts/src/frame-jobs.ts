import { z } from 'zod';
import { BinaryRef } from './payload.js';

/**
 * Instrument frames' analysis as inference jobs (queue `inference`, job `analyse-frame`): one job carries one or more
 * frames of a stream (frames that arrived while the stream's previous jobs ran travel together), the worker decodes
 * each frame once, runs every model of the stream on it and stores all the results in one insert
 * (`results.result.create-many.v1`) before the job completes. Each model's result keeps its own job id
 * (`resultJobId`, unique in model_results), so a redelivered frame stores nothing twice, in whatever job it comes.
 */
export const FrameJobModel = z.object({ model: z.string().min(1), resultJobId: z.string().min(1) });
export type FrameJobModel = z.infer<typeof FrameJobModel>;

export const FrameJobFrame = z.object({
  inputFileName: z.string(),
  inputFileSize: z.number().int().nonnegative(),
  input: BinaryRef,
  inputSha256: z.string().regex(/^[0-9a-f]{64}$/),
  models: z.array(FrameJobModel).min(1).max(64),
});
export type FrameJobFrame = z.infer<typeof FrameJobFrame>;

export const FrameJobData = z.object({
  ownerId: z.string().uuid(),
  frames: z.array(FrameJobFrame).min(1).max(256),
  requestId: z.string(),
  /** Epoch ms after which nobody waits for the answer (the worker stops retrying the persist then). */
  deadline: z.number().int().optional(),
  meta: z.record(z.string(), z.string()).optional(),
  /** The producer's outcome prefix (`jobOutcomeInbox`). */
  outcomeInbox: z.string().optional(),
});
export type FrameJobData = z.infer<typeof FrameJobData>;

/** Per model: the stored result with its output, or why the model refused the frame (nothing stored for it). */
export type FrameJobModelOutcome =
  | { model: string; resultId: string; output: Record<string, unknown> }
  | { model: string; error: { code: string; message: string } };

/** The job's answer: `results` is the JSON text of FrameJobModelOutcome[][] (per frame, per model, in job order). */
export const FrameJobResponse = z.object({ results: BinaryRef });
export type FrameJobResponse = z.infer<typeof FrameJobResponse>;

/**
 * inference worker → results: the results of one or more frames (several models each) in one insert; `items[].input`
 * indexes `inputs`. Idempotent by each item's job id: items stored before (a redelivered frame) are answered from
 * their rows and not counted again.
 */
export const ResultsCreateManyRequest = z.object({
  ownerId: z.string().uuid(),
  inputs: z
    .array(z.object({ inputFileName: z.string(), inputFileSize: z.number().int().nonnegative(), input: BinaryRef }))
    .min(1)
    .max(256),
  items: z
    .array(z.object({ jobId: z.string().min(1), model: z.string().min(1), output: BinaryRef, input: z.number().int().nonnegative() }))
    .min(1)
    .max(4096),
});
export type ResultsCreateManyRequest = z.infer<typeof ResultsCreateManyRequest>;

export const ResultsCreateManyResponse = z.object({
  results: z.array(z.object({ jobId: z.string(), id: z.string().uuid(), createdAt: z.string() })),
});
export type ResultsCreateManyResponse = z.infer<typeof ResultsCreateManyResponse>;
