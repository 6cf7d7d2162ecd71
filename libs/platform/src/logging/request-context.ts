import { AsyncLocalStorage } from 'node:async_hooks';
import { RpcError } from '#qdc/contracts';

interface RequestContext {
  requestId: string;
  /** When the caller stops waiting (epoch ms), if it said so. */
  deadline?: number;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `fn` with `requestId` as the current request: every log line written inside it (also after awaits) carries
 * the id, and NATS requests sent inside it forward it, so nothing passes the id by hand through call chains.
 */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

/** Like withRequestId, with the caller's deadline: requests sent inside inherit it, and work can check it. */
export function withRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/** When the caller of the request being handled stops waiting (epoch ms), if it said. */
export function currentDeadline(): number | undefined {
  return storage.getStore()?.deadline;
}

/**
 * Refuses to go on with work whose caller has given up (or will have by the time it is done, `marginMs`): the work
 * would have no one to answer, and a caller that retries would get it done twice. Call it before a side effect that
 * cannot be taken back (creating a job, charging a budget).
 */
export function assertCallerWaiting(what: string, marginMs = 0): void {
  const deadline = currentDeadline();
  if (deadline !== undefined && Date.now() + marginMs > deadline) {
    throw new RpcError('timeout', `${what} was not done: the caller stopped waiting at ${new Date(deadline).toISOString()}`);
  }
}
