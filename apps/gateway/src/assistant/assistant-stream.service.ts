import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Msg, Subscription } from '@nats-io/transport-node';
import {
  ASSISTANT_ALIVE_MISSES,
  ASSISTANT_EVENT_INDEX_HEADER,
  ASSISTANT_OWNER_HEADER,
  AssistantEvents,
  AssistantRpc,
  RpcError,
  assistantAliveIntervalMs,
  assistantRunEventsSubject,
  assistantRunStream,
  type AssistantAgentsListResponse,
  type AssistantRunControl,
  type AssistantRunStartRequest,
  type AssistantRunsAlive,
  type Principal,
} from '#qdc/contracts';
import { EventBus, EventHandler, NatsConnection, QDC_CONFIG, RpcClient, type QdcConfig } from '#qdc/platform';
import { ApiError } from '../http/api-errors.js';
import { parseAssistantRequest } from './assistant-request.js';

const TERMINAL_PREFIXES = ['{"type":"completed"', '{"type":"error"', '{"type":"cancelled"'];
/** How long a resume waits for the run's first stored event before answering 404. */
const RESUME_LOOKUP_MS = 2_000;
const LAST_EVENT_ID = /^([0-9a-f-]{36}):(\d+)$/i;

/**
 * POST /agents: validates the body (422 before any stream byte), starts a run in apps/assistant
 * and relays its events as SSE (`id: <run>:<n>` + `data: <json>`), with `: keepalive` comments while
 * idle. A new run is relayed from a core NATS subscription opened before the run starts (nothing
 * is missed, nothing waits for a consumer); a reconnect with Last-Event-ID replays the run's
 * JetStream subject from the start and skips what the client already has. A client that goes away
 * detaches the run, which apps/assistant cancels after its grace period unless the client returns.
 */
@Injectable()
export class AssistantStreamService implements OnApplicationBootstrap {
  private readonly logger = new Logger(AssistantStreamService.name);
  /** Run id → when an assistant last listed it as running. */
  private readonly alive = new Map<string, number>();
  private readonly staleAfterMs: number;

  constructor(
    private readonly nats: NatsConnection,
    private readonly rpc: RpcClient,
    private readonly events: EventBus,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {
    this.staleAfterMs = ASSISTANT_ALIVE_MISSES * assistantAliveIntervalMs(config.QDC_SSE_KEEPALIVE_MS) + 1_000;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.nats.connect();
  }

  /** The runs an assistant replica is still running (a run unlisted for the stale period has lost its process). */
  @EventHandler(AssistantEvents.runsAlive)
  onRunsAlive(event: AssistantRunsAlive): void {
    const now = Date.now();
    for (const id of event.runIds) this.alive.set(id, now);
  }

  /** False once a run has gone unlisted for the stale period (its assistant process died); forgets the run. */
  private runAlive(runId: string, since: number): boolean {
    const now = Date.now();
    const seen = Math.max(this.alive.get(runId) ?? 0, since);
    return now - seen < this.staleAfterMs;
  }

  private relay(reply: FastifyReply, runId: string, seen: number): SseRelay {
    const opened = Date.now();
    const relay = new SseRelay(
      reply,
      runId,
      seen,
      this.config.QDC_SSE_KEEPALIVE_MS,
      () => this.control(runId, 'detach'),
      () => this.runAlive(runId, opened),
    );
    relay.onEnd(() => this.alive.delete(runId));
    return relay;
  }

  async agents(requestId: string): Promise<AssistantAgentsListResponse> {
    return this.rpc.call(AssistantRpc.agents, {}, { requestId });
  }

  async stream(caller: Principal, body: unknown, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const b = parseAssistantRequest(body);
    const lastEventId = request.headers['last-event-id'];
    if (typeof lastEventId === 'string' && lastEventId.trim()) return this.resume(caller, lastEventId.trim(), reply);

    const runId = randomUUID();
    const relay = this.relay(reply, runId, 0);
    const sub: Subscription = this.nats.subscribeRaw(this.nats.subject(assistantRunEventsSubject(runId)), (msg) => relay.push(msg));
    relay.onEnd(() => sub.unsubscribe());
    const start: AssistantRunStartRequest = {
      runId,
      ownerId: caller.ownerId,
      messages: b.messages,
      budget: b.budget ?? 'high',
      codeMode: b.code_mode ?? 'inline',
      // The vendor documents build and learn; any other (older) value is accepted and means build.
      mode: b.mode === 'learn' ? 'learn' : 'build',
      ...(b.thread_id ? { threadId: b.thread_id } : {}),
    };
    try {
      await this.rpc.call(AssistantRpc.runStart, start, { requestId: request.id });
    } catch (error) {
      sub.unsubscribe();
      throw error;
    }
    relay.open();
  }

  private async resume(caller: Principal, lastEventId: string, reply: FastifyReply): Promise<void> {
    const m = LAST_EVENT_ID.exec(lastEventId);
    if (!m) throw new RpcError('invalid_input', `Last-Event-ID must be an event id this server sent ('<run id>:<n>'); got '${lastEventId.slice(0, 80)}'`);
    const [, runId, seen] = m;
    const notFound = () =>
      new ApiError(
        404,
        `run ${runId} is unknown or older than the replay window (${Math.round(this.config.QDC_ASSISTANT_RUN_RETENTION_MS / 1000)} s); send the request again without Last-Event-ID`,
      );
    let iterator: AsyncIterator<{ data: Uint8Array; headers?: Msg['headers']; subject: string }>;
    let stop: () => void;
    try {
      const consumer = await this.nats
        .jetstream()
        .consumers.get(assistantRunStream(this.config.QDC_NAMESPACE), { filter_subjects: this.nats.subject(assistantRunEventsSubject(runId)) });
      const messages = await consumer.consume();
      stop = () => void messages.close();
      iterator = messages[Symbol.asyncIterator]() as typeof iterator;
    } catch {
      throw notFound();
    }
    const first = await Promise.race([iterator.next(), new Promise<null>((r) => setTimeout(() => r(null), RESUME_LOOKUP_MS))]);
    if (!first || first.done || first.value.headers?.get(ASSISTANT_OWNER_HEADER) !== caller.ownerId) {
      stop();
      throw notFound();
    }
    const relay = this.relay(reply, runId, Number(seen));
    relay.onEnd(stop);
    relay.open();
    this.control(runId, 'attach');
    relay.push(first.value);
    void (async () => {
      try {
        for (let next = await iterator.next(); !next.done && !relay.ended; next = await iterator.next()) relay.push(next.value);
      } catch (error) {
        this.logger.warn(`resume of run ${runId} stopped: ${(error as Error).message}`);
        relay.close();
      }
    })();
  }

  private control(runId: string, action: AssistantRunControl['action']): void {
    void this.events.publish(AssistantEvents.runControl, { runId, action } satisfies AssistantRunControl).catch(() => undefined);
  }
}

/** One SSE response: queues events until the headers are out, numbers them, keeps the connection alive, ends on the terminal event. */
class SseRelay {
  private opened = false;
  private queue: { data: Uint8Array; headers?: Msg['headers'] }[] = [];
  private lastWrite = Date.now();
  private keepalive?: NodeJS.Timeout;
  private endHandlers: (() => void)[] = [];
  private finished = false;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly reply: FastifyReply,
    private readonly runId: string,
    private lastIndex: number,
    private readonly keepaliveMs: number,
    private readonly onClientGone: () => void,
    private readonly runAlive: () => boolean,
  ) {}

  get ended(): boolean {
    return this.finished;
  }

  onEnd(handler: () => void): void {
    this.endHandlers.push(handler);
  }

  open(): void {
    const { reply } = this;
    reply.hijack();
    const headers: Record<string, string> = {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    };
    const requestId = reply.getHeader('x-request-id');
    if (typeof requestId === 'string') headers['x-request-id'] = requestId;
    reply.raw.writeHead(200, headers);
    reply.raw.flushHeaders?.();
    this.opened = true;
    const gone = (): void => {
      if (!this.finished) {
        this.onClientGone();
        this.close();
      }
    };
    reply.raw.on('close', gone);
    // The client may have left while the run was being started.
    if (reply.raw.destroyed || reply.request.raw.socket?.destroyed) {
      gone();
      return;
    }
    this.keepalive = setInterval(
      () => {
        if (!this.runAlive()) {
          // The process running it died: end with an error instead of keeping the client waiting forever.
          this.write(`data: ${JSON.stringify({ type: 'error', error: `the assistant stopped answering (run ${this.runId}); please retry` })}\n\n`);
          this.close();
          return;
        }
        if (Date.now() - this.lastWrite >= this.keepaliveMs) this.write(': keepalive\n\n');
      },
      Math.max(10, Math.floor(this.keepaliveMs / 2)),
    );
    const queued = this.queue;
    this.queue = [];
    for (const msg of queued) this.push(msg);
  }

  push(msg: { data: Uint8Array; headers?: Msg['headers'] }): void {
    if (this.finished) return;
    if (!this.opened) {
      this.queue.push(msg);
      return;
    }
    const index = Number(msg.headers?.get(ASSISTANT_EVENT_INDEX_HEADER) ?? 0);
    if (index <= this.lastIndex) return;
    this.lastIndex = index;
    const data = this.decoder.decode(msg.data);
    if (data.startsWith('{"type":"started"')) return;
    this.write(`id: ${this.runId}:${index}\ndata: ${data}\n\n`);
    if (TERMINAL_PREFIXES.some((p) => data.startsWith(p))) this.close();
  }

  private write(text: string): void {
    this.lastWrite = Date.now();
    this.reply.raw.write(text);
  }

  close(): void {
    if (this.finished) return;
    this.finished = true;
    clearInterval(this.keepalive);
    for (const h of this.endHandlers) h();
    if (!this.reply.raw.writableEnded) this.reply.raw.end();
  }
}
