import { Inject, Injectable } from '@nestjs/common';
import { headers as natsHeaders, type Msg, type MsgHdrs } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import { REQUEST_ID_HEADER, RpcError, RpcErrorBody, type RpcContract, type RpcReply, type RpcRequestOf, type RpcResponseOf } from '#qdc/contracts';
import { QDC_CONFIG } from '../config/config.module.js';
import type { QdcConfig } from '../config/config.js';
import { currentRequestId } from '../logging/request-context.js';
import { natsRequestDuration, secondsSince } from '../metrics/metrics.js';
import { SpanKind, inSpan, injectTraceHeaders, tracingEnabled } from '../tracing/tracing.js';
import { NatsConnection } from './nats-connection.js';
import {
  DEADLINE_HEADER,
  HEARTBEAT_AFTER_MS,
  HEARTBEAT_FIRST_BEAT_MS,
  HEARTBEAT_HEADER,
  HEARTBEAT_INTERVAL_MS,
  HEARTBEAT_LOST_MS,
  natsAttributes,
} from './nats-headers.js';
import { PayloadStore } from './payload-store.js';

export interface CallOptions {
  /** Default: the current request's (withRequestId), else a new one. */
  requestId?: string;
  /** Default QDC_NATS_TIMEOUT_MS. The callee gets `now + timeoutMs` as the caller's deadline (Qdc-Deadline). */
  timeoutMs?: number;
}

/**
 * Request/reply over NATS, typed by the exchange's contract (libs/contracts `defineRpc`): the payload is the contract's
 * request, the answer its response — the handler on the other side (`@RpcHandler(contract)`) parses the request with
 * the same schema and answers the same type. Throws RpcError with the callee's code, or `unavailable`/`timeout`.
 */
@Injectable()
export class RpcClient {
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly nats: NatsConnection,
    private readonly payloads: PayloadStore,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  async call<C extends RpcContract>(contract: C, request: RpcRequestOf<C>, options: CallOptions = {}): Promise<RpcResponseOf<C>> {
    const subject = contract.subject;
    const hdrs = natsHeaders();
    const requestId = options.requestId ?? currentRequestId() ?? randomUUID();
    hdrs.set(REQUEST_ID_HEADER, requestId);
    const timeout = options.timeoutMs ?? this.config.QDC_NATS_TIMEOUT_MS;
    // Absolute, so that a handler that reads the request late (its process stalled) sees that the caller has gone.
    hdrs.set(DEADLINE_HEADER, String(Date.now() + timeout));
    const body = await this.payloads.encodeMessage(request, hdrs);
    if (!tracingEnabled()) return this.timed(subject, body, hdrs, timeout) as Promise<RpcResponseOf<C>>;
    return inSpan(`nats request ${subject}`, { kind: SpanKind.CLIENT, attributes: natsAttributes(subject, requestId) }, () => {
      injectTraceHeaders(hdrs); // the context of this span: the callee's span is its child
      return this.timed(subject, body, hdrs, timeout) as Promise<RpcResponseOf<C>>;
    });
  }

  private async timed(subject: string, body: Uint8Array, hdrs: MsgHdrs, timeout: number): Promise<unknown> {
    const started = performance.now();
    try {
      const data = await this.requestOnce(subject, body, hdrs, timeout);
      natsRequestDuration.observe({ subject, outcome: 'ok' }, secondsSince(started));
      return data;
    } catch (error) {
      natsRequestDuration.observe({ subject, outcome: (error as RpcError).code ?? 'internal' }, secondsSince(started));
      throw error;
    }
  }

  private async requestOnce(subject: string, body: Uint8Array, hdrs: MsgHdrs, timeout: number): Promise<unknown> {
    await this.nats.awaitLink(subject, timeout);
    let msg: Msg;
    try {
      const send = () => this.nats.untilLinkLost(subject, this.nats.raw.request(this.nats.subject(subject), body, { timeout, headers: hdrs }));
      if (timeout > HEARTBEAT_AFTER_MS) {
        const beatSubject = this.nats.subject(`heartbeat.${randomUUID()}`);
        hdrs.set(HEARTBEAT_HEADER, beatSubject);
        msg = await this.whileHandlerAlive(subject, beatSubject, send);
      } else {
        msg = await send();
      }
    } catch (error) {
      if (error instanceof RpcError) throw error;
      const text = String((error as Error)?.message ?? error);
      if (/no responders/i.test(text) || (error as Error)?.name === 'NoRespondersError') {
        throw new RpcError('unavailable', `no service is answering ${subject}`);
      }
      if (/timeout/i.test(text) || (error as Error)?.name === 'TimeoutError') {
        throw new RpcError('timeout', `${subject} did not answer within ${timeout} ms`);
      }
      throw new RpcError('unavailable', `NATS request ${subject} failed: ${text}`);
    }
    const reply = (await this.payloads.decodeMessage(msg.data, msg.headers)) as RpcReply<unknown>;
    if (reply && reply.ok === true) return reply.data;
    const parsed = RpcErrorBody.safeParse(reply?.ok === false ? reply.error : undefined);
    if (!parsed.success) throw new RpcError('internal', `malformed reply from ${subject}`);
    throw new RpcError(parsed.data.code, parsed.data.message, parsed.data.details);
  }

  /** The reply, or `unavailable` once the handling process has sent no heartbeat for HEARTBEAT_LOST_MS. */
  private whileHandlerAlive<R>(subject: string, beatSubject: string, send: () => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let lastBeat = Date.now();
      let instance = '';
      let probing = false;
      const beats = this.nats.raw.subscribe(beatSubject, {
        callback: (_err, msg) => {
          lastBeat = Date.now();
          if (msg?.data?.length) instance = this.decoder.decode(msg.data);
        },
      });
      const lost = (): void => {
        done();
        reject(new RpcError('unavailable', `the service handling ${subject} stopped answering (restarted?); retry with the same request id`));
      };
      const watch = setInterval(() => {
        if (probing || Date.now() - lastBeat <= HEARTBEAT_LOST_MS) return;
        // No beat yet: the handler may be busy before it even reads the request (a heavy circuit on its event loop),
        // and there is no instance to ping — wait the longer first-beat grace before calling it lost.
        if (!/^[0-9a-f-]{36}$/.test(instance)) return Date.now() - lastBeat > HEARTBEAT_FIRST_BEAT_MS ? lost() : undefined;
        // Dead, or only busy? A dead process's instance subject has no responders.
        probing = true;
        this.nats.raw.request(this.nats.subject(`instance.${instance}`), new Uint8Array(0), { timeout: 2 * HEARTBEAT_INTERVAL_MS }).then(
          () => {
            probing = false;
            lastBeat = Date.now();
          },
          (error: Error) => {
            probing = false;
            if (/no responders/i.test(String(error?.message)) || error?.name === 'NoRespondersError') lost();
            else lastBeat = Date.now(); // timed out: alive but busy
          },
        );
      }, HEARTBEAT_INTERVAL_MS);
      const done = (): void => {
        clearInterval(watch);
        beats.unsubscribe();
      };
      send().then(
        (value) => {
          done();
          resolve(value);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }
}
