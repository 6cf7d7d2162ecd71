import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { QpuEvents, QpuRpc, RpcError, type Principal, type QpuJobHistoryResponse, type QpuJobStatus, type QpuJobStatusChangedEvent } from '#qdc/contracts';
import { EventHandler, QDC_CONFIG, RpcClient, type QdcConfig } from '#qdc/platform';
import { SseResponse } from '../http/sse-response.js';
import { StreamSlots } from '../http/stream-slots.js';

const TERMINAL: ReadonlySet<QpuJobStatus> = new Set(['completed', 'failed', 'cancelled']);

/** What one job's event stream sends (SPEC §7). */
export type QpuJobStreamEvent =
  | { type: 'status'; status: QpuJobStatus; at: string }
  | { type: 'results'; results: Record<string, number> }
  | { type: 'error'; error: string };

/**
 * `GET /qpus/jobs/{job_id}/events`: a job's state changes as server-sent events, then its results (or error),
 * then the end. The broker's persisted history is the source (`qpu.job.history.v1`; event id = the change's
 * number, so Last-Event-ID resumes exactly); the broker's `status-changed` events — one gateway-wide
 * subscription — say when to read it again, and every keepalive tick reads it too (an event lost while NATS
 * reconnected delays an update by one tick, never loses it).
 */
@Injectable()
export class QpuJobEventsService {
  private readonly logger = new Logger(QpuJobEventsService.name);
  /** Job id → the streams waiting for its next change. */
  private readonly watchers = new Map<string, Set<() => void>>();

  constructor(
    private readonly rpc: RpcClient,
    private readonly slots: StreamSlots,
    @Inject(QDC_CONFIG) private readonly config: Pick<QdcConfig, 'QDC_SSE_KEEPALIVE_MS'>,
  ) {}

  /** A job's status changed: its open streams read its history again. */
  @EventHandler(QpuEvents.jobStatusChanged)
  onStatusChanged(event: QpuJobStatusChangedEvent): void {
    for (const wake of this.watchers.get(event.jobId) ?? []) wake();
  }

  async stream(caller: Principal, jobId: string, lastEventIdHeader: string | string[] | undefined, requestId: string, reply: FastifyReply): Promise<void> {
    const seen = lastEventId(lastEventIdHeader);
    const history = () => this.rpc.call(QpuRpc.history, { ownerId: caller.ownerId, jobId }, { requestId, timeoutMs: 10_000 });
    const release = this.slots.acquire(caller.keyId);
    let first: QpuJobHistoryResponse;
    try {
      first = await history(); // unknown or another owner's job: 404 before any stream byte
    } catch (error) {
      release();
      throw error;
    }
    let sent = seen;
    let reading = false;
    let again = false;
    const sse = new SseResponse(reply, this.config.QDC_SSE_KEEPALIVE_MS, () => wake());
    const emit = ({ job, transitions }: QpuJobHistoryResponse): void => {
      for (const t of transitions) {
        if (t.seq > sent) {
          sse.send(t.seq, { type: 'status', status: t.to, at: t.at } satisfies QpuJobStreamEvent);
          sent = t.seq;
        }
        if (!TERMINAL.has(t.to)) continue;
        // The outcome is the event after the terminal change; a client that has it gets nothing more.
        const outcome: QpuJobStreamEvent | null =
          t.to === 'completed' && job.results
            ? { type: 'results', results: job.results }
            : t.to === 'failed'
              ? { type: 'error', error: job.error ?? 'failed' }
              : null;
        if (outcome && sent < t.seq + 1) sse.send(t.seq + 1, outcome);
        sse.close();
        return;
      }
    };
    const wake = (): void => {
      if (sse.ended) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      history()
        .then(emit, (error: Error) => this.logger.warn(`[${requestId}] job ${jobId} events: ${error.message}`))
        .finally(() => {
          reading = false;
          if (again) {
            again = false;
            wake();
          }
        });
    };
    const watchers = this.watchers.get(jobId) ?? new Set();
    this.watchers.set(jobId, watchers.add(wake));
    sse.onEnd(() => {
      watchers.delete(wake);
      if (watchers.size === 0 && this.watchers.get(jobId) === watchers) this.watchers.delete(jobId);
      release();
    });
    sse.open();
    emit(first);
    // A change between the first read and the subscription above is caught by this second read.
    wake();
  }
}

/** Last-Event-ID of a job stream: the number of the last event the client has (absent: 0). */
function lastEventId(header: string | string[] | undefined): number {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return 0;
  if (!/^\d{1,6}$/.test(value))
    throw new RpcError('invalid_input', `Last-Event-ID must be the id of an event this stream sent (an integer); got '${value.slice(0, 40)}'`, {
      loc: ['header', 'last-event-id'],
      type: 'int_parsing',
    });
  return Number(value);
}
