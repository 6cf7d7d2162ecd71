import { Injectable, Logger } from '@nestjs/common';
import { headers as natsHeaders, type Subscription } from '@nats-io/transport-node';
import type { EventContract, EventPayloadOf } from '#qdc/contracts';
import { injectTraceHeaders, tracingEnabled } from '../tracing/tracing.js';
import { NatsConnection } from './nats-connection.js';
import { PayloadStore } from './payload-store.js';

/**
 * Events (libs/contracts `defineEvent`: published, no reply, fanned out to every subscriber) and the job outcomes a
 * worker publishes for the producer waiting on them. A body over the inline limit goes through the object store like
 * a request's (PayloadStore). Handlers of events inside a service are `@EventHandler(contract)` methods (RpcServer);
 * `listen` is for code that listens by itself (a producer's outcome inbox, a worker's cancellations, SSE relays).
 */
@Injectable()
export class EventBus {
  private readonly logger = new Logger(EventBus.name);

  constructor(
    private readonly nats: NatsConnection,
    private readonly payloads: PayloadStore,
  ) {}

  publish<C extends EventContract>(event: C, payload: EventPayloadOf<C>): Promise<void> {
    return this.publishOn(event.subject, payload);
  }

  /** Publishes on a subject made at run time (a job's outcome inbox, `jobOutcomeSubject`). */
  async publishOn(subject: string, payload: unknown): Promise<void> {
    const hdrs = natsHeaders();
    const traced = tracingEnabled();
    if (traced) injectTraceHeaders(hdrs);
    const body = await this.payloads.encodeMessage(payload, hdrs);
    this.nats.raw.publish(this.nats.subject(subject), body, traced || body.length === 0 ? { headers: hdrs } : undefined);
  }

  /** A standing subscription to an event; a payload that breaks the contract is logged and dropped. */
  listen<C extends EventContract>(event: C, onEvent: (payload: EventPayloadOf<C>) => void): Subscription {
    return this.listenOn(event.subject, (_subject, payload) => {
      const parsed = event.payload.safeParse(payload);
      // The contract's own schema: its output is the event's payload type.
      if (parsed.success) onEvent(parsed.data as EventPayloadOf<C>);
      else this.logger.warn(`dropped a message on ${event.subject} that does not match its contract`);
    });
  }

  /**
   * A standing subscription to a subject pattern made at run time (without the namespace); each message's payload is
   * decoded as `publishOn` sent it and handed over with its subject (without the namespace). Undecodable ones are
   * logged and dropped.
   */
  listenOn(subject: string, onMessage: (subject: string, payload: unknown) => void): Subscription {
    const prefix = this.nats.subject('');
    return this.nats.raw.subscribe(this.nats.subject(subject), {
      callback: (err, msg) => {
        if (err) return;
        this.payloads.decodeMessage(msg.data, msg.headers).then(
          (payload) => onMessage(msg.subject.slice(prefix.length), payload),
          (error: Error) => this.logger.warn(`undecodable message on ${msg.subject}: ${error.message}`),
        );
      },
    });
  }
}
