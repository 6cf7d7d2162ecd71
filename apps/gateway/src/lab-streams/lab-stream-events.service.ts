import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { DeliverPolicy } from '@nats-io/jetstream';
import { LabStreamEvent, LabStreamsRpc, RpcError, labEventStream, type Principal } from '#qdc/contracts';
import { NatsConnection, QDC_CONFIG, RpcClient, type QdcConfig } from '#qdc/platform';
import { ApiError } from '../http/api-errors.js';
import { SseResponse } from '../http/sse-response.js';
import { StreamSlots } from '../http/stream-slots.js';

/**
 * `GET /v0/lab-streams/{lab}/{name}/events`: a live stream's per-frame events (LabStreamEvent, exactly as published
 * on the lab's results subject) as server-sent events, `id` = the event's `seq`. They are read from the stream's
 * event store (labEventStream, JetStream) with an ordered consumer: from now on for a new client, from the start of
 * what is kept (the dedup window) and past the client's Last-Event-ID for a resumed one. Only the lab's owner and
 * admin keys may read them; anyone else gets the 404 of a stream that does not exist.
 */
@Injectable()
export class LabStreamEventsService {
  private readonly logger = new Logger(LabStreamEventsService.name);

  constructor(
    private readonly nats: NatsConnection,
    private readonly rpc: RpcClient,
    private readonly slots: StreamSlots,
    @Inject(QDC_CONFIG) private readonly config: Pick<QdcConfig, 'QDC_SSE_KEEPALIVE_MS' | 'QDC_NAMESPACE'>,
  ) {}

  async stream(
    caller: Principal,
    lab: string,
    name: string,
    lastEventIdHeader: string | string[] | undefined,
    requestId: string,
    reply: FastifyReply,
  ): Promise<void> {
    const seen = lastEventId(lastEventIdHeader);
    const notFound = new ApiError(404, `no lab stream '${name}' of lab '${lab}' visible to this key`);
    const streams = await this.rpc.call(LabStreamsRpc.list, { lab }, { requestId }).catch((error: unknown) => {
      // A lab id that is not well formed names no stream.
      if (error instanceof RpcError && error.code === 'invalid_input') throw notFound;
      throw error;
    });
    const stream = streams.find((s) => s.name === name);
    if (!stream || !(caller.scopes.includes('admin') || stream.owner_id === caller.ownerId)) throw notFound;

    const release = this.slots.acquire(caller.keyId);
    let messages: AsyncIterable<{ data: Uint8Array }> & { close(): Promise<unknown> };
    try {
      const consumer = await this.nats.jetstream().consumers.get(labEventStream(this.config.QDC_NAMESPACE, lab, name), {
        deliver_policy: seen > 0 ? DeliverPolicy.All : DeliverPolicy.New,
      });
      messages = await consumer.consume();
    } catch (error) {
      release();
      throw new RpcError('unavailable', `event store of ${lab}/${name} could not be read: ${(error as Error).message}`);
    }
    const sse = new SseResponse(reply, this.config.QDC_SSE_KEEPALIVE_MS);
    sse.onEnd(() => {
      void messages.close();
      release();
    });
    sse.open();
    const decoder = new TextDecoder();
    void (async () => {
      try {
        for await (const msg of messages) {
          if (sse.ended) break;
          const parsed = LabStreamEvent.safeParse(JSON.parse(decoder.decode(msg.data)));
          if (!parsed.success || parsed.data.seq <= seen) continue;
          sse.send(parsed.data.seq, parsed.data);
        }
      } catch (error) {
        this.logger.warn(`[${requestId}] events of ${lab}/${name} stopped: ${(error as Error).message}`);
      }
      sse.close();
    })();
  }
}

/** Last-Event-ID of a lab stream: the `seq` of the last event the client has (absent: 0, only new events). */
function lastEventId(header: string | string[] | undefined): number {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return 0;
  if (!/^\d{1,15}$/.test(value))
    throw new RpcError('invalid_input', `Last-Event-ID must be the seq of an event this stream sent (an integer); got '${value.slice(0, 40)}'`, {
      loc: ['header', 'last-event-id'],
      type: 'int_parsing',
    });
  return Number(value);
}
