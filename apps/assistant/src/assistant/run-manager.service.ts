import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  AssistantEvents,
  assistantAliveIntervalMs,
  type AssistantChatMessage,
  type AssistantRunControl,
  type AssistantRunStartRequest,
  type AssistantRunStartResponse,
} from '#qdc/contracts';
import { EventBus, QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { assistantRunDuration, assistantRunsActive } from './assistant.metrics.js';
import { EngineFailure, RunCancelled, type AssistantEngine, type EngineResult } from './assistant-engine.js';
import { RunEventsPublisher } from './run-events.publisher.js';
import { ThreadsRepository } from './threads.repository.js';

export const ASSISTANT_ENGINE = Symbol('ASSISTANT_ENGINE');

interface ActiveRun {
  abort: AbortController;
  detachTimer?: NodeJS.Timeout;
  finished?: Promise<void>;
}

/** On shutdown, how long running runs get to publish their `cancelled` event. */
const SHUTDOWN_WAIT_MS = 5_000;

/**
 * Runs: each start request gets an immediate reply and runs in the background, publishing its
 * events; exactly one terminal event (completed | error | cancelled) ends it. A detached run (the
 * client went away) is cancelled after the grace period unless the client reattaches.
 */
@Injectable()
export class RunManager implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RunManager.name);
  private readonly runs = new Map<string, ActiveRun>();
  private aliveTimer?: NodeJS.Timeout;

  constructor(
    @Inject(ASSISTANT_ENGINE) private readonly engine: AssistantEngine,
    private readonly events: RunEventsPublisher,
    private readonly threads: ThreadsRepository,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
    private readonly nats: EventBus,
  ) {}

  /** Lists the running runs every alive interval (gateways end a stream whose run stops being listed). */
  onApplicationBootstrap(): void {
    this.aliveTimer = setInterval(() => {
      if (!this.runs.size) return;
      void this.nats.publish(AssistantEvents.runsAlive, { runIds: [...this.runs.keys()] }).catch(() => undefined);
    }, assistantAliveIntervalMs(this.config.QDC_SSE_KEEPALIVE_MS));
    this.aliveTimer.unref();
  }

  get activeRuns(): number {
    return this.runs.size;
  }

  start(request: AssistantRunStartRequest): AssistantRunStartResponse {
    const threadId = request.threadId ?? randomUUID();
    if (this.runs.has(request.runId)) return { runId: request.runId, threadId };
    const run: ActiveRun = { abort: new AbortController() };
    this.runs.set(request.runId, run);
    assistantRunsActive.inc();
    // Started on the next turn of the event loop, so the start reply goes out before the engine's work.
    run.finished = new Promise<void>((r) => setImmediate(r))
      .then(() => this.execute(request, threadId, run))
      .finally(() => {
        clearTimeout(run.detachTimer);
        this.runs.delete(request.runId);
        assistantRunsActive.dec();
      });
    return { runId: request.runId, threadId };
  }

  control({ runId, action }: AssistantRunControl): void {
    const run = this.runs.get(runId);
    if (!run) return;
    clearTimeout(run.detachTimer);
    run.detachTimer = undefined;
    if (action === 'cancel') run.abort.abort();
    else if (action === 'detach') run.detachTimer = setTimeout(() => run.abort.abort(), this.config.QDC_ASSISTANT_DETACH_GRACE_MS);
  }

  private async execute(request: AssistantRunStartRequest, threadId: string, run: ActiveRun): Promise<void> {
    const started = Date.now();
    const sink = this.events.sink(request.runId, request.ownerId);
    // Internal first event (not relayed): lets a resume find the run and its owner before any output exists.
    sink.emit({ type: 'started', thread_id: threadId });
    let result: EngineResult | undefined;
    let status: 'completed' | 'error' | 'cancelled' = 'completed';
    let fresh: AssistantChatMessage[] = [];
    let opening: Promise<unknown> = Promise.resolve();
    try {
      // A thread the server names is new: create it while the engine runs instead of reading it first.
      opening = request.threadId ? this.threads.openThread(request.ownerId, threadId) : this.threads.createThread(request.ownerId, threadId).then(() => []);
      opening.catch(() => undefined);
      const history = request.threadId ? ((await opening) as AssistantChatMessage[]) : [];
      fresh = newMessages(history, request.messages);
      result = await this.engine.run({
        messages: [...history, ...fresh],
        codeMode: request.codeMode,
        mode: request.mode,
        budget: request.budget,
        signal: run.abort.signal,
        token: (content) => sink.emit({ type: 'token', content }),
      });
      if (run.abort.signal.aborted) throw new RunCancelled();
      await opening;
      if (result.files.length) sink.emit({ type: 'files', files: result.files });
      // The turn is stored before `completed` goes out, so a client that continues the thread at once finds it.
      await this.threads.append(request.ownerId, threadId, request.runId, [...fresh, { role: 'assistant', content: result.text }]);
      fresh = [];
      sink.emit({
        type: 'completed',
        thread_id: threadId,
        usage: {
          prompt_tokens: result.promptTokens,
          completion_tokens: result.completionTokens,
          total_tokens: result.promptTokens + result.completionTokens,
          tool_calls: result.toolCalls,
          duration_ms: Date.now() - started,
          engine: result.engine,
          model: result.model,
        },
        verification: result.verification,
      });
    } catch (error) {
      if (error instanceof RunCancelled || run.abort.signal.aborted) {
        status = 'cancelled';
        sink.emit({ type: 'cancelled', thread_id: threadId });
      } else {
        status = 'error';
        const message = error instanceof EngineFailure ? error.message : 'the assistant failed to answer (internal error)';
        if (!(error instanceof EngineFailure)) this.logger.error(`run ${request.runId}: ${(error as Error)?.stack ?? error}`);
        sink.emit({ type: 'error', error: message });
      }
    }
    // A failed or cancelled turn keeps the user's messages in the thread.
    if (fresh.length)
      await opening
        .then(() => this.threads.append(request.ownerId, threadId, request.runId, fresh))
        .catch((error: Error) => this.logger.error(`run ${request.runId}: messages not stored: ${error.message}`));
    assistantRunDuration.observe({ status }, (Date.now() - started) / 1000);
    try {
      await sink.flush();
    } catch (error) {
      this.logger.error(`run ${request.runId}: publishing events failed: ${(error as Error).message}`);
    }
    await this.threads
      .recordUsage({
        runId: request.runId,
        ownerId: request.ownerId,
        threadId,
        engine: result?.engine ?? 'unknown',
        model: result?.model ?? null,
        status,
        promptTokens: result?.promptTokens ?? 0,
        completionTokens: result?.completionTokens ?? 0,
        toolCalls: result?.toolCalls ?? 0,
        repairs: result?.verification?.repairs ?? 0,
        durationMs: Date.now() - started,
      })
      .catch((error: Error) => this.logger.error(`run ${request.runId}: usage not recorded: ${error.message}`));
  }

  /** Shutdown (e.g. a rolling update): running runs end with `cancelled` rather than silently. */
  async onModuleDestroy(): Promise<void> {
    clearInterval(this.aliveTimer);
    const running = [...this.runs.values()];
    for (const run of running) run.abort.abort();
    await Promise.race([Promise.all(running.map((r) => r.finished)), new Promise((r) => setTimeout(r, SHUTDOWN_WAIT_MS).unref())]);
  }
}

/** The request's messages that the thread does not hold yet: clients may resend the whole conversation or only the new turn. */
export function newMessages(history: AssistantChatMessage[], incoming: AssistantChatMessage[]): AssistantChatMessage[] {
  if (history.length && incoming.length > history.length && history.every((m, i) => incoming[i].role === m.role && incoming[i].content === m.content)) {
    return incoming.slice(history.length);
  }
  return incoming;
}
