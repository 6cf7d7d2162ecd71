import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ModelInputError } from '#qdc/characterization';

/** One slice of a batch: `rows` traces of `length` samples, answered with the JSON text of their outputs array. */
export interface BatchSliceTask {
  kind: 'slice';
  id: number;
  model: string;
  rows: number;
  length: number;
  data: Float64Array;
}

/** One whole run of any model on an array of any shape, answered with the JSON text of its output. */
export interface SingleRunTask {
  kind: 'run';
  id: number;
  model: string;
  shape: number[];
  data: Float64Array;
}

export type ModelThreadTask = BatchSliceTask | SingleRunTask;

export type ModelThreadReply = { id: number; json: string } | { id: number; error: { message: string; inputError: boolean } };

/** Batches smaller than this run on the main thread: below it, handing slices to threads costs more than it saves. */
export const MIN_THREADED_BATCH_SAMPLES = 1 << 16;

/**
 * Single runs with at least this many input elements run on a thread (a 256 × 256 mask, an anticrossing map, a
 * decoder's syndrome tensor): their model can hold the CPU for seconds, and on the main thread that would stop
 * BullMQ's lock renewal, the probes and NATS for as long. Below it the run takes milliseconds and stays here.
 */
export const MIN_THREADED_RUN_ELEMENTS = 1 << 16;

/** The default thread count: the CPUs this process sees, at most 4. */
export function defaultModelThreads(): number {
  return Math.min(4, availableParallelism());
}

interface Pending {
  resolve: (json: string) => void;
  reject: (error: Error) => void;
}

/**
 * Worker threads that run models away from the inference worker's event loop: the slices of one large batch in
 * parallel (every core a worker has), and single runs of large inputs one per thread. Meanwhile the event loop stays
 * free, so BullMQ's lock keeps being renewed and the probes answer. A thread that dies fails what it held, which
 * fails the job attempt (BullMQ retries it), and is replaced.
 */
export class ModelThreadPool {
  private readonly threads: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private readonly owner = new Map<number, Worker>();
  private nextId = 0;
  private closed = false;

  /** The threads start with the first task: an idle worker holds none (each loads the model catalogue). */
  constructor(readonly size: number) {}

  private spawn(): Worker {
    const thread = new Worker(new URL('./model-thread.js', import.meta.url));
    thread.on('message', (reply: ModelThreadReply) => {
      const task = this.pending.get(reply.id);
      if (!task) return;
      this.pending.delete(reply.id);
      this.owner.delete(reply.id);
      if ('json' in reply) task.resolve(reply.json);
      else task.reject(reply.error.inputError ? new ModelInputError(reply.error.message) : new Error(reply.error.message));
    });
    thread.on('error', (error: Error) => this.fail(thread, error));
    thread.on('exit', (code) => this.fail(thread, new Error(`model thread exited with code ${code}`)));
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

  private start(): void {
    if (this.closed) throw new Error('the model thread pool is closed (the worker is shutting down)');
    while (this.threads.length < this.size) this.threads.push(this.spawn());
  }

  /** Sends a task to a thread; its data's buffer is moved there, not copied. */
  private send(thread: Worker, task: ModelThreadTask): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.pending.set(task.id, { resolve, reject });
      this.owner.set(task.id, thread);
      thread.postMessage(task, [task.data.buffer as ArrayBuffer]);
    });
  }

  /**
   * The JSON text of the outputs array of a (rows, length) batch, row order kept: one contiguous slice per thread.
   * The caller has validated model and shape (a ModelInputError from a thread is still passed on as one).
   */
  async runBatchJson(model: string, data: Float64Array, rows: number, length: number): Promise<string> {
    this.start();
    const slices = Math.min(this.threads.length, rows);
    const rowsPer = Math.ceil(rows / slices);
    const parts = await Promise.all(
      Array.from({ length: slices }, (_, k) => {
        const start = k * rowsPer;
        const end = Math.min(rows, start + rowsPer);
        // A copy per slice, whose buffer is then moved to the thread.
        const slice = data.slice(start * length, end * length);
        return this.send(this.threads[k]!, { kind: 'slice', id: this.nextId++, model, rows: end - start, length, data: slice });
      }),
    );
    return `[${parts
      .map((part) => part.slice(1, -1))
      .filter((inner) => inner.length > 0)
      .join(',')}]`;
  }

  /**
   * The JSON text of one run's output, on the thread holding the fewest tasks. `data` is moved to the thread when
   * it is the whole of its buffer and the caller gives it up (`transfer`); otherwise the thread gets a copy. A model
   * that refuses the input rejects with its ModelInputError.
   */
  async runOneJson(model: string, shape: readonly number[], data: Float64Array, transfer: boolean): Promise<string> {
    this.start();
    const ownsBuffer = transfer && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer;
    const held = new Map<Worker, number>(this.threads.map((thread) => [thread, 0]));
    for (const thread of this.owner.values()) held.set(thread, (held.get(thread) ?? 0) + 1);
    const thread = this.threads.reduce((best, t) => (held.get(t)! < held.get(best)! ? t : best));
    return this.send(thread, { kind: 'run', id: this.nextId++, model, shape: [...shape], data: ownsBuffer ? data : data.slice() });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.map((thread) => thread.terminate()));
  }
}
