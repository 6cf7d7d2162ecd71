import { AsyncLocalStorage } from 'node:async_hooks';

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `fn` with `requestId` as the current request: every log line written inside it (also after awaits) carries
 * the id, and NATS requests sent inside it forward it, so nothing passes the id by hand through call chains.
 */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
