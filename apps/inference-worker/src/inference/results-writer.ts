import { Inject, Injectable, Logger } from '@nestjs/common';
import { RpcError, type RpcContract, type RpcRequestOf, type RpcResponseOf } from '#qdc/contracts';
import { QDC_CONFIG, RpcClient, type QdcConfig } from '#qdc/platform';

/** First and largest pause between two attempts to store a result while results does not answer. */
const PERSIST_RETRY_FIRST_MS = 100;
const PERSIST_RETRY_MAX_MS = 2000;
/**
 * How long the first attempt waits for results' answer; each later attempt waits twice as long as the one before. A
 * request lost inside a results that was killed is never answered: sent again after this, it reaches the restarted
 * results (idempotent by job id) instead of waiting out the whole retry window. A results that is only slow still
 * answers the first request (the second finds the row by job id).
 */
export const PERSIST_ATTEMPT_FIRST_MS = 2500;

/**
 * The inference worker's writes to apps/results (`ResultsRpc.create`, `createMany`: idempotent by job id). While
 * results does not answer (restarting, or its reply timed out), tries again with backoff for QDC_RESULTS_RETRY_MS (8 s
 * from the first attempt) or until the job's deadline, whichever comes first; then throws `unavailable`: the caller
 * answers 503 with Retry-After rather than waiting out a long outage, and BullMQ retries the job later, so the result
 * is stored once and a retry of the request with the same X-Request-Id answers it. An attempt that gets no answer is
 * sent again after PERSIST_ATTEMPT_FIRST_MS (then twice as long each time).
 */
@Injectable()
export class ResultsWriter {
  private readonly logger = new Logger(ResultsWriter.name);

  constructor(
    private readonly rpc: RpcClient,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  async store<C extends RpcContract>(contract: C, request: RpcRequestOf<C>, jobDeadline: number): Promise<RpcResponseOf<C>> {
    const started = Date.now();
    // The retry window starts with the first attempt: a results killed while it holds the request never replies, and
    // waiting for the NATS timeout (30 s) before retrying is what kept callers waiting half a minute.
    const deadline = Math.min(jobDeadline, started + this.config.QDC_RESULTS_RETRY_MS);
    let attemptMs = PERSIST_ATTEMPT_FIRST_MS;
    for (let pause = PERSIST_RETRY_FIRST_MS; ; pause = Math.min(PERSIST_RETRY_MAX_MS, pause * 2)) {
      try {
        // A hung results must not hold the job past the window either (a late commit is found again by job id).
        const timeoutMs = Math.max(1000, Math.min(attemptMs, this.config.QDC_NATS_TIMEOUT_MS, deadline - Date.now()));
        attemptMs *= 2;
        return await this.rpc.call(contract, request, { timeoutMs });
      } catch (error) {
        const retryable = error instanceof RpcError && (error.code === 'unavailable' || error.code === 'timeout');
        if (!retryable) throw error;
        if (Date.now() + pause >= deadline) {
          throw new RpcError(
            'unavailable',
            `the results service did not store the result (tried for ${((Date.now() - started) / 1000).toFixed(1)} s: ${error.message}); retry`,
          );
        }
        this.logger.warn(`storing the result failed (${error.message}); trying again in ${pause} ms`);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }
}
