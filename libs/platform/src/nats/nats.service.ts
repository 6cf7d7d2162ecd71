import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleDestroy } from '@nestjs/common';
import { connect, headers as natsHeaders, nanos, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { Objm, setSha256Backend, type ObjectStore } from '@nats-io/obj';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { createHash, randomUUID } from 'node:crypto';
import {
  INLINE_PAYLOAD_LIMIT_BYTES,
  REQUEST_ID_HEADER,
  RpcError,
  RpcErrorBody,
  qualify,
  type BinaryRef,
  natsServerOptions,
  type RpcReply,
} from '#qdc/contracts';
import { QDC_CONFIG, SERVICE_NAME } from '../config/config.module.js';
import type { QdcConfig } from '../config/config.js';
import type { Span } from '@opentelemetry/api';
import { DependencyUnavailable } from '../service/connection-errors.js';
import { natsRequestDuration, secondsSince } from '../metrics/metrics.js';
import { currentRequestId } from '../logging/request-context.js';
import { SpanKind, extractTraceHeaders, inSpan, injectTraceHeaders, markError, tracingEnabled } from '../tracing/tracing.js';

/** Span attributes of a NATS request or handled message (OpenTelemetry messaging conventions). */
const natsAttributes = (subject: string, requestId: string | undefined): Record<string, string> => ({
  'messaging.system': 'nats',
  'messaging.destination.name': subject,
  ...(requestId ? { 'qdc.request_id': requestId } : {}),
});

/** Header naming an object-store key that holds a message body too large for NATS. */
const PAYLOAD_OBJECT_HEADER = 'Qdc-Payload-Object';
/** Objects are transient hand-offs between services; JetStream expires them. */
export const PAYLOAD_OBJECT_TTL_MS = 60 * 60 * 1000;
/**
 * How long a request made while the connection is down waits for the reconnect before it answers `unavailable`
 * (503 with Retry-After at the gateway). Requests already in flight when the connection drops answer at once.
 */
export const RECONNECT_GRACE_MS = 2_000;

/**
 * Liveness of long requests (a queued simulation may take QDC_SIM_TIMEOUT_MS): a request whose timeout exceeds
 * HEARTBEAT_AFTER_MS names a heartbeat subject in its headers; the handling process publishes to it at once and every
 * HEARTBEAT_INTERVAL_MS until it replies; a beat names the process (its instance subject). After HEARTBEAT_LOST_MS
 * without a beat the caller pings that instance subject: NATS answers "no responders" at once when the process is
 * gone (kill -9, OOM: its subscriptions went with its connection), and the request answers `unavailable` (503 +
 * Retry-After) then instead of at its timeout; a process that is alive but busy (a long synchronous step) keeps the
 * request. A retry with the same request id finds the queued job again (job ids derive from request ids).
 */
export const HEARTBEAT_AFTER_MS = 30_000;
export const HEARTBEAT_INTERVAL_MS = 1_000;
export const HEARTBEAT_LOST_MS = 3_000;
/** Without any beat (so no instance to ping), the request is lost only after this long. */
export const HEARTBEAT_FIRST_BEAT_MS = 10_000;
const HEARTBEAT_HEADER = 'Qdc-Heartbeat';
/** When the sender of a request stops waiting for the reply (epoch ms): a handler does not start work after it. */
const DEADLINE_HEADER = 'Qdc-Deadline';

/** Room for NATS headers inside max_payload when chunking objects. */
const CHUNK_HEADROOM_BYTES = 16 * 1024;

// node:crypto instead of the pure-JS SHA-256 the object store defaults to: ~5× faster for MB payloads.
setSha256Backend('native');

export interface RequestOptions {
  /** Default: the current request's (withRequestId), else a new one. */
  requestId?: string;
  timeoutMs?: number;
}

export interface IncomingMessage<T = unknown> {
  payload: T;
  requestId: string;
  /** When the sender stops waiting for the reply (epoch ms; requests only). */
  deadline?: number;
}

/**
 * One NATS connection per process: request/reply with timeouts and a JSON reply envelope,
 * events, queue-group subscriptions, and the JetStream Object Store for large payloads.
 */
@Injectable()
export class NatsService implements OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(NatsService.name);
  private connection?: NatsConnection;
  /** This service's own subscriptions (its handlers), stopped first on shutdown. */
  private readonly subscriptions = new Set<Subscription>();
  /** Messages being handled right now; shutdown waits for them (their replies need the connection). */
  private readonly inFlight = new Set<Promise<void>>();
  private objectStore?: ObjectStore;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  private readonly reconnectListeners: (() => void)[] = [];
  /** False between a `disconnect` status and the next `reconnect`. */
  private linkUp = true;
  /** Requests in flight: each is told when the connection drops (its reply may never come). */
  private readonly onLinkLost = new Set<() => void>();
  /** Requests made while the connection is down, waiting for the reconnect. */
  private readonly onLinkBack = new Set<() => void>();
  /** This process's instance subject suffix (heartbeats name it; callers ping it to tell dead from busy). */
  private readonly instanceId = randomUUID();
  private instanceSubscribed = false;

  constructor(
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    @Inject(SERVICE_NAME) private readonly serviceName: string,
  ) {}

  async connect(): Promise<void> {
    if (this.connection) return;
    this.connection = await connect({
      ...natsServerOptions(this.config.NATS_URL),
      name: `${this.config.QDC_NAMESPACE}-${this.serviceName}`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      // nats.js otherwise captures a stack (an Error) for every request and subscription, to decorate a timeout:
      // ~0.4 ms of a small run's worker CPU under load. Our errors name the subject and request id instead.
      noAsyncTraces: true,
    }).catch((error: unknown) => {
      throw new DependencyUnavailable(`NATS at ${this.config.NATS_URL}`, error);
    });
    void this.logStatus(this.connection);
    const objm = new Objm(this.connection);
    const bucket = `${this.config.QDC_NAMESPACE}-payloads`;
    this.objectStore = await objm.create(bucket, { ttl: nanos(PAYLOAD_OBJECT_TTL_MS) }).catch(() => objm.open(bucket));
    this.logger.log(`connected to NATS ${this.config.NATS_URL} (namespace ${this.config.QDC_NAMESPACE})`);
  }

  /**
   * A lost server is one line per change (and per 5 s of reconnect attempts), not a stack trace. A disconnect fails
   * the requests in flight at once (their replies are lost with the connection) instead of leaving them to time out.
   */
  private async logStatus(connection: NatsConnection): Promise<void> {
    let lastAttemptLog = 0;
    for await (const status of connection.status()) {
      if (status.type === 'disconnect') {
        this.logger.warn(`lost NATS ${this.config.NATS_URL}; reconnecting`);
        this.setLink(false);
      } else if (status.type === 'reconnect') {
        this.logger.log(`reconnected to NATS ${this.config.NATS_URL}`);
        this.setLink(true);
        for (const listener of this.reconnectListeners) listener();
      } else if (status.type === 'reconnecting' && Date.now() - lastAttemptLog > 5_000) {
        lastAttemptLog = Date.now();
        this.logger.warn(`NATS ${this.config.NATS_URL} is not answering; still reconnecting`);
      }
    }
  }

  /** Connection status changes (from the client's status events; public for the unit spec's stand-in connection). */
  setLink(up: boolean): void {
    this.linkUp = up;
    const waiters = up ? this.onLinkBack : this.onLinkLost;
    for (const notify of [...waiters]) notify();
    waiters.clear();
  }

  get isConnected(): boolean {
    return !!this.connection && !this.connection.isClosed();
  }

  /** The connection itself, for JetStream work queues and wildcard subscriptions (lab nodes). */
  get rawConnection(): NatsConnection {
    return this.nc;
  }

  private get nc(): NatsConnection {
    if (!this.connection) throw new RpcError('unavailable', 'NATS is not connected');
    return this.connection;
  }

  /** JetStream on this connection (streams other than the payload bucket, e.g. assistant run events). */
  jetstream(): JetStreamClient {
    return jetstream(this.nc);
  }

  jetstreamManager(): Promise<JetStreamManager> {
    return jetstreamManager(this.nc);
  }

  /** A plain (core NATS) subscription to a fully qualified subject, for streams of messages. */
  subscribeRaw(subject: string, callback: (msg: Msg) => void): Subscription {
    return this.nc.subscribe(subject, { callback: (err, msg) => (err ? this.logger.error(`subscription ${subject} failed: ${err.message}`) : callback(msg)) });
  }

  subject(name: string): string {
    return qualify(this.config.QDC_NAMESPACE, name);
  }

  /** Request/reply; throws RpcError with the callee's code, or `unavailable`/`timeout`. */
  async request<T>(subject: string, payload: unknown, options: RequestOptions = {}): Promise<T> {
    const hdrs = natsHeaders();
    const requestId = options.requestId ?? currentRequestId() ?? randomUUID();
    hdrs.set(REQUEST_ID_HEADER, requestId);
    const timeout = options.timeoutMs ?? this.config.QDC_NATS_TIMEOUT_MS;
    // Absolute, so that a handler that reads the request late (its process stalled) sees that the caller has gone.
    hdrs.set(DEADLINE_HEADER, String(Date.now() + timeout));
    const body = await this.encodeBody(payload, hdrs);
    if (!tracingEnabled()) return this.timedRequest<T>(subject, body, hdrs, timeout);
    return inSpan(`nats request ${subject}`, { kind: SpanKind.CLIENT, attributes: natsAttributes(subject, requestId) }, () => {
      injectTraceHeaders(hdrs); // the context of this span: the callee's span is its child
      return this.timedRequest<T>(subject, body, hdrs, timeout);
    });
  }

  private async timedRequest<T>(subject: string, body: Uint8Array, hdrs: MsgHdrs, timeout: number): Promise<T> {
    const started = performance.now();
    try {
      const data = await this.requestOnce<T>(subject, body, hdrs, timeout);
      natsRequestDuration.observe({ subject, outcome: 'ok' }, secondsSince(started));
      return data;
    } catch (error) {
      natsRequestDuration.observe({ subject, outcome: (error as RpcError).code ?? 'internal' }, secondsSince(started));
      throw error;
    }
  }

  /** While the connection is down, waits for the reconnect (at most RECONNECT_GRACE_MS, never past the timeout). */
  private async awaitLink(subject: string, timeout: number): Promise<void> {
    if (this.linkUp) return;
    const grace = Math.min(RECONNECT_GRACE_MS, timeout);
    await new Promise<void>((resolve, reject) => {
      const back = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.onLinkBack.delete(back);
        reject(new RpcError('unavailable', `NATS is reconnecting; ${subject} was not sent (retry shortly)`));
      }, grace);
      this.onLinkBack.add(back);
    });
  }

  /** The reply, or `unavailable` as soon as the connection drops while waiting for it. */
  private untilLinkLost<R>(subject: string, pending: Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const lost = (): void => reject(new RpcError('unavailable', `NATS connection lost while ${subject} was in flight (retry shortly)`));
      this.onLinkLost.add(lost);
      pending.then(
        (value) => {
          this.onLinkLost.delete(lost);
          resolve(value);
        },
        (error: unknown) => {
          this.onLinkLost.delete(lost);
          reject(error);
        },
      );
    });
  }

  /** The reply, or `unavailable` once the handling process has sent no heartbeat for HEARTBEAT_LOST_MS. */
  private whileHandlerAlive<R>(subject: string, beatSubject: string, send: () => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let lastBeat = Date.now();
      let instance = '';
      let probing = false;
      const beats = this.nc.subscribe(beatSubject, {
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
        this.nc.request(this.subject(`instance.${instance}`), new Uint8Array(0), { timeout: 2 * HEARTBEAT_INTERVAL_MS }).then(
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

  private async requestOnce<T>(subject: string, body: Uint8Array, hdrs: MsgHdrs, timeout: number): Promise<T> {
    await this.awaitLink(subject, timeout);
    let msg: Msg;
    try {
      const send = () => this.untilLinkLost(subject, this.nc.request(this.subject(subject), body, { timeout, headers: hdrs }));
      if (timeout > HEARTBEAT_AFTER_MS) {
        const beatSubject = this.subject(`heartbeat.${randomUUID()}`);
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
    const reply = (await this.decodeBody(msg.data, msg.headers)) as RpcReply<T>;
    if (reply && reply.ok === true) return reply.data;
    const parsed = RpcErrorBody.safeParse(reply?.ok === false ? reply.error : undefined);
    if (!parsed.success) throw new RpcError('internal', `malformed reply from ${subject}`);
    throw new RpcError(parsed.data.code, parsed.data.message, parsed.data.details);
  }

  /** Publishes an event or an outcome; a body over 512 KiB goes through the object store like a request's. */
  async publish(subject: string, payload: unknown): Promise<void> {
    const hdrs = natsHeaders();
    const traced = tracingEnabled();
    if (traced) injectTraceHeaders(hdrs);
    const body = await this.encodeBody(payload, hdrs);
    this.nc.publish(this.subject(subject), body, traced || body.length === 0 ? { headers: hdrs } : undefined);
  }

  /**
   * A standing subscription whose messages are decoded (JSON or a BinaryRef envelope, as `publish` sends them) and
   * handed to `onMessage` with their subject (without the namespace); undecodable ones are logged and dropped.
   */
  listen<T>(subject: string, onMessage: (subject: string, payload: T) => void): Subscription {
    const prefix = this.subject('');
    return this.nc.subscribe(this.subject(subject), {
      callback: (err, msg) => {
        if (err) return;
        this.decodeBody(msg.data, msg.headers).then(
          (payload) => onMessage(msg.subject.slice(prefix.length), payload as T),
          (error: Error) => this.logger.warn(`undecodable message on ${msg.subject}: ${error.message}`),
        );
      },
    });
  }

  /** Calls `listener` after every reconnect to NATS (messages published meanwhile were missed). */
  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  /** Subscribe with a queue group (replicas share the work) or, for events, without one. */
  subscribe(
    subject: string,
    handler: (message: IncomingMessage, reply: (reply: RpcReply<unknown>) => Promise<void>) => Promise<void>,
    options: { queue?: string } = {},
  ): Subscription {
    const subscription = this.nc.subscribe(this.subject(subject), {
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

  private handle(
    subject: string,
    msg: Msg,
    handler: (message: IncomingMessage, reply: (reply: RpcReply<unknown>) => Promise<void>) => Promise<void>,
  ): Promise<void> {
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

  private async dispatch(
    msg: Msg,
    handler: (message: IncomingMessage, reply: (reply: RpcReply<unknown>) => Promise<void>) => Promise<void>,
    span?: Span,
  ): Promise<void> {
    const requestId = msg.headers?.get(REQUEST_ID_HEADER) || randomUUID();
    const reply = async (body: RpcReply<unknown>): Promise<void> => {
      if (body.ok === false) markError(span, body.error);
      if (!msg.reply) return;
      const hdrs = natsHeaders();
      hdrs.set(REQUEST_ID_HEADER, requestId);
      msg.respond(await this.encodeBody(body, hdrs), { headers: hdrs });
    };
    // A long request's caller listens for heartbeats while this process works on it (see HEARTBEAT_AFTER_MS).
    const beatSubject = msg.reply ? msg.headers?.get(HEARTBEAT_HEADER) : undefined;
    const beating = beatSubject?.startsWith(this.subject('heartbeat.')) ? beatSubject : undefined;
    if (beating) this.subscribeInstance();
    const beat = (): void => {
      if (beating && !this.nc.isClosed()) this.nc.publish(beating, this.encoder.encode(this.instanceId));
    };
    beat();
    const heartbeat = beating ? setInterval(beat, HEARTBEAT_INTERVAL_MS) : undefined;
    try {
      let payload: unknown;
      try {
        payload = await this.decodeBody(msg.data, msg.headers);
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
    this.nc.subscribe(this.subject(`instance.${this.instanceId}`), {
      callback: (_err, msg) => {
        msg?.respond(new Uint8Array(0));
      },
    });
  }

  private async encodeBody(payload: unknown, hdrs: MsgHdrs): Promise<Uint8Array> {
    const bytes = this.encoder.encode(JSON.stringify(payload));
    if (bytes.length <= INLINE_PAYLOAD_LIMIT_BYTES) return bytes;
    const key = await this.putObject(bytes);
    hdrs.set(PAYLOAD_OBJECT_HEADER, key);
    return new Uint8Array(0);
  }

  private async decodeBody(data: Uint8Array, hdrs?: MsgHdrs): Promise<unknown> {
    const key = hdrs?.get(PAYLOAD_OBJECT_HEADER);
    if (key) {
      const bytes = await this.getObject(key);
      void this.deleteObject(key);
      return JSON.parse(this.decoder.decode(bytes));
    }
    return data.length === 0 ? undefined : JSON.parse(this.decoder.decode(data));
  }

  async putObject(bytes: Uint8Array): Promise<string> {
    return (await this.putObjectWithDigest(bytes)).key;
  }

  /** Stores bytes; returns the key and the SHA-256 (hex) the object store computed anyway. */
  private async putObjectWithDigest(bytes: Uint8Array): Promise<{ key: string; sha256: string }> {
    const key = randomUUID();
    // Chunks as large as the server allows (default 128 KiB): fewer round trips for big uploads.
    const maxChunk = Math.max(128 * 1024, (this.connection?.info?.max_payload ?? 1024 * 1024) - CHUNK_HEADROOM_BYTES);
    const info = await this.store().putBlob({ name: key, options: { max_chunk_size: maxChunk } }, bytes);
    const sha256 = Buffer.from(info.digest.replace(/^SHA-256=/, ''), 'base64url').toString('hex');
    return { key, sha256 };
  }

  async getObject(key: string): Promise<Uint8Array> {
    const bytes = await this.store().getBlob(key);
    if (!bytes) throw new RpcError('not_found', `payload ${key} is no longer in the object store`);
    return bytes;
  }

  async deleteObject(key: string): Promise<void> {
    await this.store()
      .delete(key)
      .catch((error: Error) => this.logger.warn(`could not delete payload ${key}: ${error.message}`));
  }

  /** Small bytes inline, large ones by object-store key (no digest: the inline path hashed every result for nothing). */
  async toBinaryRef(bytes: Uint8Array): Promise<BinaryRef> {
    if (bytes.length <= INLINE_PAYLOAD_LIMIT_BYTES) return { inline: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
    return (await this.toBinaryRefWithDigest(bytes)).ref;
  }

  /** Like toBinaryRef, plus the SHA-256 of the bytes (computed once, by the object store when it stores them). */
  async toBinaryRefWithDigest(bytes: Uint8Array): Promise<{ ref: BinaryRef; sha256: string }> {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length <= INLINE_PAYLOAD_LIMIT_BYTES) {
      return { ref: { inline: view.toString('base64') }, sha256: createHash('sha256').update(view).digest('hex') };
    }
    const { key, sha256 } = await this.putObjectWithDigest(bytes);
    return { ref: { objectKey: key, size: bytes.length }, sha256 };
  }

  async fromBinaryRef(ref: BinaryRef): Promise<Uint8Array> {
    if ('inline' in ref) return new Uint8Array(Buffer.from(ref.inline, 'base64'));
    return this.getObject(ref.objectKey);
  }

  private store(): ObjectStore {
    if (!this.objectStore) throw new RpcError('unavailable', 'NATS object store is not open');
    return this.objectStore;
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

  /** Shutdown, last step (after every other module and the HTTP server): flush and close the connection. */
  async onApplicationShutdown(): Promise<void> {
    if (!this.connection) return;
    await Promise.all(this.inFlight);
    await this.connection.drain().catch(() => undefined);
    this.connection = undefined;
  }
}
