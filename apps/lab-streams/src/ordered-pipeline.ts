/**
 * Runs work for a sequence of items with at most `maxInFlight` at once and hands the outcomes on in the order the
 * items came (a frame analysed quickly waits for the slower frame before it): the consumer of one live stream.
 * `admit` resolves once the item is in flight, so a caller that awaits it pulls no more than the window allows;
 * an item whose key is already in flight (a redelivery) is not run twice.
 */
export interface OrderedPipelineOptions<I, O> {
  maxInFlight: number;
  key: (item: I) => number;
  run: (item: I) => Promise<O>;
  /** Called once per admitted item, in admission order, after every earlier item's `emit` finished. */
  emit: (item: I, outcome: O) => Promise<void>;
  /** `run` threw: turned into an outcome so that order is kept (never thrown at the caller). */
  onError: (item: I, error: unknown) => O;
}

interface Slot<I, O> {
  item: I;
  done?: { outcome: O };
}

export class OrderedPipeline<I, O> {
  private readonly queue: Slot<I, O>[] = [];
  private readonly keys = new Set<number>();
  private waiters: (() => void)[] = [];
  private emitting = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: OrderedPipelineOptions<I, O>) {}

  get inFlight(): number {
    return this.queue.length;
  }

  /** Starts the item once the window has room; false when the same key is already in flight (ignored). */
  async admit(item: I): Promise<boolean> {
    const key = this.options.key(item);
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    while (this.queue.length >= this.options.maxInFlight) await new Promise<void>((r) => this.waiters.push(r));
    const slot: Slot<I, O> = { item };
    this.queue.push(slot);
    void this.options.run(item).then(
      (outcome) => this.finish(slot, outcome),
      (error: unknown) => this.finish(slot, this.options.onError(item, error)),
    );
    return true;
  }

  /** Resolves when every admitted item was emitted. */
  idle(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private finish(slot: Slot<I, O>, outcome: O): void {
    slot.done = { outcome };
    void this.drain();
  }

  private async drain(): Promise<void> {
    if (this.emitting) return;
    this.emitting = true;
    try {
      while (this.queue[0]?.done) {
        const slot = this.queue[0];
        // emit reports its own failures; one that throws must not stall the frames behind it.
        await this.options.emit(slot.item, slot.done!.outcome).catch(() => undefined);
        this.queue.shift();
        this.keys.delete(this.options.key(slot.item));
        this.waiters.shift()?.();
      }
    } finally {
      this.emitting = false;
    }
    if (this.queue.length === 0) for (const r of this.idleWaiters.splice(0)) r();
  }
}
