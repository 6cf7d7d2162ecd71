import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { headers as natsHeaders, type Msg, type Subscription } from '@nats-io/transport-node';
import type { Span } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import { REQUEST_ID_HEADER, type RpcReply } from '#qdc/contracts';
import { SpanKind, extractTraceHeaders, inSpan, markError, tracingEnabled } from '../tracing/tracing.js';
import { NatsConnection } from './nats-connection.js';
import { DEADLINE_HEADER, HEARTBEAT_HEADER, HEARTBEAT_INTERVAL_MS, natsAttributes } from './nats-headers.js';
import { PayloadStore } from './payload-store.js';

/** A message as a handler sees it: its decoded payload, the request id and, for requests, the caller's deadline. */
export interface IncomingMessage<T = unknown> {
  payload: T;
  requestId: string;
  /** When the sender stops waiting for the reply (epoch ms; requests only). */
  deadline?: number;
}

export type MessageHandler = (message: IncomingMessage, reply: (reply: RpcReply<unknown>) => Promise<void>) => Promise<void>;

/**
 * The receiving edge of NATS messages for RpcServer: subscribes (with a queue group for requests), decodes the body
 * (PayloadStore), reads the request id and deadline, beats for a long request's caller (HEARTBEAT_AFTER_MS), replies,
 * opens a span per message, and tracks the messages in hand so that shutdown drains them.
 */
@Injectable()
export class RpcDispatcher implements OnModuleDestroy {
  private readonly logger = new Logger(RpcDispatcher.name);
  private readonly encoder = new TextEncoder();
  /** This service's own subscriptions (its handlers), stopped first on shutdown. */
  private readonly subscriptions = new Set<Subscription>();
  /** Messages being handled right now; shutdown waits for them (their replies need the connection). */
  private readonly inFlight = new Set<Promise<void>>();
  /** This process's instance subject suffix (heartbeats name it; callers ping it to tell dead from busy). */
  private readonly instanceId = randomUUID();
  private instanceSubscribed = false;

  constructor(
    private readonly nats: NatsConnection,
    private readonly payloads: PayloadStore,
  ) {
    nats.beforeClose(() => Promise.all(this.inFlight));
  }

  /** Subscribe with a queue group (replicas share the work) or, for events, without one. */
  subscribe(subject: string, handler: MessageHandler, options: { queue?: string } = {}): Subscription {
    const subscription = this.nats.raw.subscribe(this.nats.subject(subject), {
      queue: options.queue,
      callback: (err, msg) => {
        if (err) {
          this.logger.error(`subscription ${subject} failed: ${err.message}`);
          return;
        }
        this.track(this.handle(subject, msg, handler));
      },
    });
    this.subscriptions.add(subscription);
    return subscription;
  }

  private handle(subject: string, msg: Msg, handler: MessageHandler): Promise<void> {
    if (!tracingEnabled()) return this.dispatch(msg, handler);
    // A span per handled message, child of the sender's (its context came in the headers).
    const kind = msg.reply ? SpanKind.SERVER : SpanKind.CONSUMER;
    const requestId = msg.headers?.get(REQUEST_ID_HEADER) || undefined;
    return inSpan(`nats handle ${subject}`, { kind, parent: extractTraceHeaders(msg.headers), attributes: natsAttributes(subject, requestId) }, (span) =>
      this.dispatch(msg, handler, span),
    );
  }

  private track(handling: Promise<void>): void {
    const settled = handling.catch((error: Error) => this.logger.error(`handler failed: ${error?.stack ?? error}`));
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
  }

  private async dispatch(msg: Msg, handler: MessageHandler, span?: Span): Promise<void> {
    const requestId = msg.headers?.get(REQUEST_ID_HEADER) || randomUUID();
    const reply = async (body: RpcReply<unknown>): Promise<void> => {
      if (body.ok === false) markError(span, body.error);
      if (!msg.reply) return;
      const hdrs = natsHeaders();
      hdrs.set(REQUEST_ID_HEADER, requestId);
      msg.respond(await this.payloads.encodeMessage(body, hdrs), { headers: hdrs });
    };
    // A long request's caller listens for heartbeats while this process works on it (see HEARTBEAT_AFTER_MS).
    const beatSubject = msg.reply ? msg.headers?.get(HEARTBEAT_HEADER) : undefined;
    const beating = beatSubject?.startsWith(this.nats.subject('heartbeat.')) ? beatSubject : undefined;
    if (beating) this.subscribeInstance();
    const beat = (): void => {
      if (beating && this.nats.isConnected) this.nats.raw.publish(beating, this.encoder.encode(this.instanceId));
    };
    beat();
    const heartbeat = beating ? setInterval(beat, HEARTBEAT_INTERVAL_MS) : undefined;
    try {
      let payload: unknown;
      try {
        payload = await this.payloads.decodeMessage(msg.data, msg.headers);
      } catch (error) {
        await reply({ ok: false, error: { code: 'internal', message: `undecodable message: ${(error as Error).message}` } });
        return;
      }
      const deadline = Number(msg.headers?.get(DEADLINE_HEADER) || Number.NaN);
      await handler({ payload, requestId, ...(msg.reply && Number.isFinite(deadline) ? { deadline } : {}) }, reply);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Answers pings on this process's instance subject (see HEARTBEAT_AFTER_MS); once, on first need. */
  private subscribeInstance(): void {
    if (this.instanceSubscribed) return;
    this.instanceSubscribed = true;
    this.nats.raw.subscribe(this.nats.subject(`instance.${this.instanceId}`), {
      callback: (_err, msg) => {
        msg?.respond(new Uint8Array(0));
      },
    });
  }

  /**
   * Shutdown, first step (before the other modules stop): take no new messages (replicas in the queue group get
   * them), and finish the ones being handled, whose replies still go out. The connection stays open for what the
   * other modules finish (a worker's current job persisting its result, the gateway's requests in flight).
   */
  async onModuleDestroy(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.drain().catch(() => undefined)));
    this.subscriptions.clear();
    await Promise.all(this.inFlight);
  }
}
