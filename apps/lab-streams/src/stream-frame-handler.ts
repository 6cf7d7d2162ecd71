import { FRAME_REPLY_HEADER, type LabStreamDto, type LabStreamEvent, type LabStreamModelOutcome } from '#qdc/contracts';
import { FrameError, decodeFrame, type DecodedFrame } from './frame-decoder.js';
import type { FrameStreamRef } from './frame-job-batcher.js';
import { OrderedPipeline } from './ordered-pipeline.js';

/** A frame as JetStream delivered it (a JsMsg, narrowed to what the handler uses). */
export interface FrameMessage {
  seq: number;
  data: Uint8Array;
  header(name: string): string | undefined;
  /** When JetStream stored the frame (epoch ms). */
  storedAtMs: number;
  ack(): void;
  working(): void;
}

export interface StreamFrameHandlerDeps {
  analyse(stream: FrameStreamRef, frame: DecodedFrame): Promise<LabStreamModelOutcome[]>;
  /**
   * Stores the frame's event in the stream's event stream under `msgId` (JetStream deduplicates it there, and the
   * server republishes what it stored on the results subject): `duplicate` when that id was stored before.
   */
  publishEvent(event: LabStreamEvent, msgId: string): Promise<{ duplicate: boolean }>;
  /** Publishes an event on a frame's reply inbox (core NATS). */
  reply(subject: string, event: LabStreamEvent): void;
  /** Whether this process still holds the stream's lease (only the holder answers and acks frames). */
  holds(): boolean;
  now(): number;
  sleep(ms: number): Promise<void>;
  warn(message: string): void;
}

export interface StreamFrameHandlerOptions {
  attempts: number;
  /** How often a frame in analysis tells JetStream it is still being worked on (below the ack wait). */
  workingEveryMs: number;
}

/**
 * The frames of one live stream (the JetStream consumer of LabStreamConsumers feeds them in): frames are analysed `max_in_flight` at a time and answered in frame order on the
 * results subject (and on the frame's `Qdc-Reply-To` inbox, if it is one of the lab's); a frame is acknowledged only
 * after its event was stored, so a crash redelivers it, the idempotent analysis returns the stored results and the
 * event, deduplicated by JetStream, is not published again. Every frame ends as exactly one event: `result`, `error`
 * (not an array; nothing stored) or `dropped` (with why).
 */
export class StreamFrameHandler {
  readonly pipeline: OrderedPipeline<FrameMessage, LabStreamEvent>;
  private readonly ref: FrameStreamRef;
  /** Recently answered frames: a late redelivery of one (its ack wait ran out while it queued) is acked, not re-answered. */
  private readonly answered = new Set<number>();

  constructor(
    private readonly stream: LabStreamDto,
    private readonly deps: StreamFrameHandlerDeps,
    private readonly options: StreamFrameHandlerOptions,
  ) {
    this.ref = { lab: stream.lab, name: stream.name, ownerId: stream.owner_id, models: stream.models };
    this.pipeline = new OrderedPipeline<FrameMessage, LabStreamEvent>({
      maxInFlight: stream.max_in_flight,
      key: (msg) => msg.seq,
      run: (msg) => this.process(msg),
      emit: (msg, event) => this.emit(msg, event),
      onError: (msg, error) =>
        this.event(msg, this.frameIdOf(msg), { type: 'dropped', reason: 'failed', message: `analysis failed: ${(error as Error).message}` }),
    });
  }

  /** Waits for room in the window, then starts the frame (a redelivery of a frame in flight is ignored). */
  async admit(msg: FrameMessage): Promise<boolean> {
    if (this.answered.has(msg.seq)) {
      msg.ack();
      return false;
    }
    return this.pipeline.admit(msg);
  }

  private frameIdOf(msg: FrameMessage): string {
    return msg.header('Nats-Msg-Id') || `seq-${msg.seq}`;
  }

  private event(msg: FrameMessage, frameId: string, body: DistributiveOmit<LabStreamEvent, 'lab' | 'stream' | 'frame_id' | 'seq'>): LabStreamEvent {
    return { ...body, lab: this.stream.lab, stream: this.stream.name, frame_id: frameId, seq: msg.seq } as LabStreamEvent;
  }

  async process(msg: FrameMessage): Promise<LabStreamEvent> {
    const waited = this.deps.now() - msg.storedAtMs;
    if (this.stream.max_lag_ms !== null && waited > this.stream.max_lag_ms) {
      return this.event(msg, this.frameIdOf(msg), {
        type: 'dropped',
        reason: 'stale',
        message: `frame waited ${Math.round(waited)} ms, more than the stream's max_lag_ms ${this.stream.max_lag_ms}`,
      });
    }
    let frame: DecodedFrame;
    try {
      frame = decodeFrame(msg.data, msg.header('Nats-Msg-Id'), msg.seq, this.stream.name);
    } catch (error) {
      if (error instanceof FrameError) return this.event(msg, this.frameIdOf(msg), { type: 'error', error: { code: 'invalid_input', message: error.message } });
      throw error;
    }
    const keepAlive = setInterval(() => msg.working(), this.options.workingEveryMs);
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          const results = await this.deps.analyse(this.ref, frame);
          // Bytes that no model could read (a broken .npy, NaN everywhere): the frame is the error, nothing was stored.
          const refused = results.filter((r) => 'error' in r);
          if (refused.length === results.length && refused.every((r) => 'error' in r && r.error.code === 'invalid_input')) {
            const first = refused[0] as { model: string; error: { code: string; message: string } };
            return this.event(msg, frame.frameId, { type: 'error', error: { code: 'invalid_input', message: `${first.model}: ${first.error.message}` } });
          }
          return this.event(msg, frame.frameId, { type: 'result', results, latency_ms: Math.max(0, this.deps.now() - msg.storedAtMs) });
        } catch (error) {
          const message = (error as Error).message;
          if (attempt >= this.options.attempts) {
            return this.event(msg, frame.frameId, { type: 'dropped', reason: 'failed', message: `analysis failed ${attempt} times; last: ${message}` });
          }
          this.deps.warn(`stream ${this.stream.lab}/${this.stream.name} frame ${frame.frameId}: attempt ${attempt} failed (${message}); retrying`);
          await this.deps.sleep(200 * 2 ** (attempt - 1));
        }
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  /**
   * The frame's one event: stored once under `<frame id>@<seq>` (a redelivered frame — a lost ack, a replica that
   * died after publishing — finds it stored and publishes nothing), then the frame is acked. A process that lost the
   * stream's lease answers nothing and leaves the frame to the new holder.
   */
  private async emit(msg: FrameMessage, event: LabStreamEvent): Promise<void> {
    if (!this.deps.holds()) {
      this.deps.warn(`stream ${this.stream.lab}/${this.stream.name} frame ${event.frame_id}: lease lost; left to the replica that holds the stream now`);
      return;
    }
    let stored: { duplicate: boolean } | undefined;
    for (let attempt = 1; !stored; attempt++) {
      try {
        stored = await this.deps.publishEvent(event, `${event.frame_id}@${event.seq}`);
      } catch (error) {
        // The frame stays unacked (redelivered after the ack wait) only if JetStream keeps refusing.
        if (attempt >= this.options.attempts) throw error;
        this.deps.warn(
          `stream ${this.stream.lab}/${this.stream.name} frame ${event.frame_id}: storing the event failed (${(error as Error).message}); retrying`,
        );
        await this.deps.sleep(100 * attempt);
      }
    }
    const replyTo = msg.header(FRAME_REPLY_HEADER);
    // Only an inbox of the frame's own lab: a lab cannot have QDC write into another lab's inboxes.
    if (!stored.duplicate && replyTo?.startsWith(`_INBOX_${this.stream.lab}.`) && !/[\s*>]/.test(replyTo)) this.deps.reply(replyTo, event);
    msg.ack();
    this.answered.add(msg.seq);
    if (this.answered.size > ANSWERED_MEMORY) this.answered.delete(this.answered.values().next().value!);
  }
}

const ANSWERED_MEMORY = 50_000;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
