import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ModelInputError } from '#qdc/characterization';

export interface BatchSliceTask {
  id: number;
  model: string;
  rows: number;
  length: number;
  data: Float64Array;
}

export type BatchSliceReply = { id: number; outputsJson: string } | { id: number; error: { message: string; inputError: boolean } };

/** Batches smaller than this run on the main thread: below it, handing slices to threads costs more than it saves. */
export const MIN_THREADED_BATCH_SAMPLES = 1 << 16;

/** The default thread count: the CPUs this process sees, at most 4. */
export function defaultBatchThreads(): number {
  return Math.min(4, availableParallelism());
}

interface PendingSlice {
  resolve: (json: string) => void;
  reject: (error: Error) => void;
}

/**
 * Worker threads that run the slices of one large batch in parallel, so a batch uses every core a worker has while
 * its event loop stays free (BullMQ's lock keeps being renewed). A thread that dies fails its slices, which fails
 * the job attempt (BullMQ retries it), and is replaced.
 */
export class BatchThreadPool {
  private readonly threads: Worker[] = [];
  private readonly pending = new Map<number, PendingSlice>();
  private readonly owner = new Map<number, Worker>();
  private nextId = 0;
  private closed = false;

  /** The threads start with the first large batch: an idle worker holds none (each loads the model catalogue). */
  constructor(readonly size: number) {}

  private spawn(): Worker {
    const thread = new Worker(new URL('./batch-thread.js', import.meta.url));
    thread.on('message', (reply: BatchSliceReply) => {
      const slice = this.pending.get(reply.id);
      if (!slice) return;
      this.pending.delete(reply.id);
      this.owner.delete(reply.id);
      if ('outputsJson' in reply) slice.resolve(reply.outputsJson);
      else slice.reject(reply.error.inputError ? new ModelInputError(reply.error.message) : new Error(reply.error.message));
    });
    thread.on('error', (error: Error) => this.fail(thread, error));
    thread.on('exit', (code) => this.fail(thread, new Error(`batch thread exited with code ${code}`)));
    return thread;
  }

  /** Rejects what a dead thread held and puts a new thread in its place. */
  private fail(thread: Worker, error: Error): void {
    for (const [id, holder] of this.owner) {
      if (holder !== thread) continue;
      this.pending.get(id)?.reject(error);
      this.pending.delete(id);
      this.owner.delete(id);
    }
    const index = this.threads.indexOf(thread);
    if (index >= 0 && !this.closed) this.threads[index] = this.spawn();
  }

  /**
   * The JSON text of the outputs array of a (rows, length) batch, row order kept: one contiguous slice per thread.
   * The caller has validated model and shape (a ModelInputError from a thread is still passed on as one).
   */
  async runJson(model: string, data: Float64Array, rows: number, length: number): Promise<string> {
    while (!this.closed && this.threads.length < this.size) this.threads.push(this.spawn());
    const slices = Math.min(this.threads.length, rows);
    const rowsPer = Math.ceil(rows / slices);
    const parts = await Promise.all(
      Array.from({ length: slices }, (_, k) => {
        const start = k * rowsPer;
        const end = Math.min(rows, start + rowsPer);
        // A copy per slice, whose buffer is then moved to the thread, not copied again.
        const slice = data.slice(start * length, end * length);
        const id = this.nextId++;
        const thread = this.threads[k]!;
        return new Promise<string>((resolve, reject) => {
          this.pending.set(id, { resolve, reject });
          this.owner.set(id, thread);
          const task: BatchSliceTask = { id, model, rows: end - start, length, data: slice };
          thread.postMessage(task, [slice.buffer]);
        });
      }),
    );
    return `[${parts
      .map((part) => part.slice(1, -1))
      .filter((inner) => inner.length > 0)
      .join(',')}]`;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.terminate()));
  }
}
