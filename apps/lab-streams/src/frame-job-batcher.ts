import { Inject, Injectable } from '@nestjs/common';
import type { BinaryRef, FrameJobFrame, FrameJobModelOutcome, LabStreamModelOutcome } from '#qdc/contracts';
import { FrameAnalysisProducer, PayloadStore, jobIdFrom } from '#qdc/platform';
import type { DecodedFrame } from './frame-decoder.js';
import { STREAMS_CONFIG, type StreamsConfig } from './streams.config.js';

/** What the analysis of one frame needs to know about its stream. */
export interface FrameStreamRef {
  lab: string;
  name: string;
  ownerId: string;
  models: readonly string[];
}

/** Frames in one job at most (a backlog is worked off in jobs of this many). */
export const MAX_FRAMES_PER_JOB = 32;
/**
 * Input bytes of one job at most (a first frame always goes): batching pays for small frames, whose cost is the job's
 * fixed overhead; a large frame's cost is its model run, and a frame's answer waits for every frame of its job.
 */
export const MAX_JOB_INPUT_BYTES = 64 * 1024;

interface Waiting {
  frame: FrameJobFrame;
  frameId: string;
  resolve: (outcomes: LabStreamModelOutcome[]) => void;
  reject: (error: unknown) => void;
}

interface StreamJobs {
  inFlight: number;
  waiting: Waiting[];
}

/**
 * The one place a frame joins the `POST /models` path: inference jobs `analyse-frame` (FrameJobData, queue
 * `inference`) owned by the lab's owner; the worker decodes each frame, runs every model of the stream on it with the
 * same input checks as an upload, and stores all the results of the job in one insert before the job completes.
 * A frame goes into a job at once while its stream has fewer than QDC_STREAM_JOBS_IN_FLIGHT jobs running; otherwise it
 * waits for the next job, which takes the frames that arrived meanwhile (up to MAX_FRAMES_PER_JOB frames and
 * MAX_JOB_INPUT_BYTES; a 128×128 map has a job to itself): one frame per job
 * at the instrument's pace, a few per job under a backlog (one job, one insert and one round trip for several frames).
 * Each model's result of each frame keeps the job id it had when a frame cost one job per model (stream, frame id,
 * model, bytes' SHA-256), so a redelivered or re-sent frame finds its stored rows instead of storing twice.
 */
@Injectable()
export class FrameJobBatcher {
  private readonly streams = new Map<string, StreamJobs>();

  constructor(
    private readonly payloads: PayloadStore,
    private readonly frames: FrameAnalysisProducer,
    @Inject(STREAMS_CONFIG) private readonly config: Pick<StreamsConfig, 'QDC_STREAM_JOBS_IN_FLIGHT'>,
  ) {}

  async analyse(stream: FrameStreamRef, frame: DecodedFrame): Promise<LabStreamModelOutcome[]> {
    const { ref, sha256 } = await this.payloads.toBinaryRefWithDigest(frame.bytes);
    const models = stream.models.map((model) => ({
      model,
      resultJobId: jobIdFrom('stream', [stream.ownerId, stream.lab, stream.name, frame.frameId, model, sha256]),
    }));
    const job: FrameJobFrame = { inputFileName: frame.fileName, inputFileSize: frame.bytes.length, input: ref as BinaryRef, inputSha256: sha256, models };
    const key = `${stream.lab}/${stream.name}`;
    const jobs = this.streams.get(key) ?? { inFlight: 0, waiting: [] };
    this.streams.set(key, jobs);
    const answer = new Promise<LabStreamModelOutcome[]>((resolve, reject) => jobs.waiting.push({ frame: job, frameId: frame.frameId, resolve, reject }));
    this.dispatch(stream, jobs);
    return answer;
  }

  /** Starts a job with the waiting frames if the stream has room for one. */
  private dispatch(stream: FrameStreamRef, jobs: StreamJobs): void {
    if (jobs.inFlight >= this.config.QDC_STREAM_JOBS_IN_FLIGHT || jobs.waiting.length === 0) return;
    let count = 1;
    for (let bytes = jobs.waiting[0]!.frame.inputFileSize; count < Math.min(MAX_FRAMES_PER_JOB, jobs.waiting.length); count++) {
      bytes += jobs.waiting[count]!.frame.inputFileSize;
      if (bytes > MAX_JOB_INPUT_BYTES) break;
    }
    const batch = jobs.waiting.splice(0, count);
    jobs.inFlight += 1;
    void this.run(stream, batch)
      .then(
        (perFrame) => {
          for (const [i, w] of batch.entries()) w.resolve(perFrame[i]!);
        },
        // A lost Redis or a timeout: every frame of the job is retried by its caller (in whatever job comes next).
        (error: unknown) => {
          for (const w of batch) w.reject(error);
        },
      )
      .finally(() => {
        jobs.inFlight -= 1;
        this.dispatch(stream, jobs);
      });
  }

  private async run(stream: FrameStreamRef, batch: Waiting[]): Promise<LabStreamModelOutcome[][]> {
    const first = batch[0]!.frameId;
    const last = batch.at(-1)!.frameId;
    const requestId = `stream:${stream.lab}/${stream.name}/${first === last ? first : `${first}..${last}`}`;
    const jobId = jobIdFrom('frame', [stream.ownerId, stream.lab, stream.name, stream.models, batch.map((w) => [w.frameId, w.frame.inputSha256])]);
    const response = await this.frames.run({ ownerId: stream.ownerId, frames: batch.map((w) => w.frame), requestId }, jobId);
    const results = JSON.parse(Buffer.from(await this.payloads.fromBinaryRef(response.results)).toString('utf8')) as FrameJobModelOutcome[][];
    return results.map((perModel) => perModel.map((r) => ('error' in r ? r : { model: r.model, result_id: r.resultId, output: r.output })));
  }
}
