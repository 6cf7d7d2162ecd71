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
  /**
   * How long to keep sending while the subject has no responders (default NO_RESPONDERS_GRACE_MS, never past the
   * timeout); 0 answers `unavailable` at once (a readiness probe asks "is it there now?").
   */
  noRespondersGraceMs?: number;
}

/**
 * How long a request to a subject without responders — its service is restarting (kill -9, OOM, a rollout) and has
 * not subscribed yet — keeps trying before it answers `unavailable` (503 + Retry-After at the gateway), so that a
 * restart that ends meanwhile costs the caller a delay instead of an error and its client's retry. Safe to send again:
 * "no responders" means the request reached no process. As long as the NATS reconnect grace (RECONNECT_GRACE_MS).
 */
export const NO_RESPONDERS_GRACE_MS = 2_000;
/** Pause between two tries of a subject without responders: a restarted service is reached this soon after it subscribes. */
export const NO_RESPONDERS_RETRY_MS = 100;

const isNoResponders = (error: unknown): boolean =>
  (error as Error)?.name === 'NoRespondersError' || /no responders/i.test(String((error as Error)?.message ?? error));

/**
 * The answer, checked against the contract's response schema at the receiving edge (the caller), as the handler checks
 * the request: an answer outside its contract (a callee of another version, a handler's bug) is `internal` here, not
 * a wrong value further on. The answer itself is passed on as it came — parsing would strip fields the schema does
 * not name — so checking changes nothing for an answer within its contract.
 */
function checkedAnswer<C extends RpcContract>(contract: C, answer: unknown): RpcResponseOf<C> {
  const checked = contract.response.safeParse(answer);
  if (checked.success) return answer as RpcResponseOf<C>;
  const issues = checked.error.issues.map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`).join('; ');
  throw new RpcError('internal', `${contract.subject} answered outside its contract (${issues})`);
}

/** The request reached no process (`untilResponders` tries again). */
class NoResponders extends Error {}

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
    const grace = Math.min(options.noRespondersGraceMs ?? NO_RESPONDERS_GRACE_MS, timeout);
    const answer = !tracingEnabled()
      ? await this.timed(subject, body, hdrs, timeout, grace)
      : await inSpan(`nats request ${subject}`, { kind: SpanKind.CLIENT, attributes: natsAttributes(subject, requestId) }, () => {
          injectTraceHeaders(hdrs); // the context of this span: the callee's span is its child
          return this.timed(subject, body, hdrs, timeout, grace);
        });
    return checkedAnswer(contract, answer);
  }

  private async timed(subject: string, body: Uint8Array, hdrs: MsgHdrs, timeout: number, grace: number): Promise<unknown> {
    const started = performance.now();
    try {
      const data = await this.untilResponders(subject, body, hdrs, timeout, grace);
      natsRequestDuration.observe({ subject, outcome: 'ok' }, secondsSince(started));
      return data;
    } catch (error) {
      natsRequestDuration.observe({ subject, outcome: (error as RpcError).code ?? 'internal' }, secondsSince(started));
      throw error;
    }
  }

  /**
   * `requestOnce`, sent again every NO_RESPONDERS_RETRY_MS while the subject has no responders, for at most `grace` ms
   * (each try with what is left of the timeout); then `unavailable`.
   */
  private async untilResponders(subject: string, body: Uint8Array, hdrs: MsgHdrs, timeout: number, grace: number): Promise<unknown> {
    const started = Date.now();
    for (;;) {
      try {
        return await this.requestOnce(subject, body, hdrs, Math.max(1, timeout - (Date.now() - started)), timeout);
      } catch (error) {
        if (!(error instanceof NoResponders)) throw error;
        if (Date.now() - started + NO_RESPONDERS_RETRY_MS > grace) throw new RpcError('unavailable', `no service is answering ${subject}`);
        await new Promise((resolve) => setTimeout(resolve, NO_RESPONDERS_RETRY_MS));
      }
    }
  }

  /** One try with `timeout` ms left of the call's `total`. */
  private async requestOnce(subject: string, body: Uint8Array, hdrs: MsgHdrs, timeout: number, total: number): Promise<unknown> {
    await this.nats.awaitLink(subject, timeout);
    let msg: Msg;
    try {
      const send = () => this.nats.untilLinkLost(subject, this.nats.raw.request(this.nats.subject(subject), body, { timeout, headers: hdrs }));
      if (total > HEARTBEAT_AFTER_MS) {
        const beatSubject = this.nats.subject(`heartbeat.${randomUUID()}`);
        hdrs.set(HEARTBEAT_HEADER, beatSubject);
        msg = await this.whileHandlerAlive(subject, beatSubject, send);
      } else {
        msg = await send();
      }
    } catch (error) {
      if (error instanceof RpcError) throw error;
      const text = String((error as Error)?.message ?? error);
      if (isNoResponders(error)) throw new NoResponders();
      if (/timeout/i.test(text) || (error as Error)?.name === 'TimeoutError') {
        throw new RpcError('timeout', `${subject} did not answer within ${total} ms`);
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
