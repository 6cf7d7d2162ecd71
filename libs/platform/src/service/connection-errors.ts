import { Logger } from '@nestjs/common';
import { loadConfig } from '../config/config.js';

function logLevel(): string {
  try {
    return loadConfig().LOG_LEVEL;
  } catch {
    return 'log';
  }
}

/**
 * A dependency that is down is an operating condition, not a bug: it is reported as one line
 * (what could not be reached and why), with the stack only at debug level.
 */
export function describeConnectionError(error: unknown): string | undefined {
  const e = error as { code?: string; name?: string; message?: string; address?: string; port?: number };
  const text = e?.message ?? String(error);
  const where = e?.address ? ` ${e.address}${e.port ? `:${e.port}` : ''}` : '';
  if (e?.name === 'DependencyUnavailable') return text.split('\n')[0];
  if (e?.code === 'ECONNREFUSED' || /connection refused|ECONNREFUSED/i.test(text)) return `connection refused${where}`;
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') return `host not found${where}`;
  if (e?.code === 'ETIMEDOUT' || /timed? ?out/i.test(text)) return `timed out${where}`;
  if (e?.name === 'ConnectionError' || e?.code === 'ECONNRESET') return text.split('\n')[0];
  // Prisma's adapter reports an unreachable database with P1001 / "Can't reach database server".
  if (/P1001|can't reach database server/i.test(text)) return text.split('\n')[0];
  return undefined;
}

/** A dependency that did not answer at boot, named with its URL. */
export class DependencyUnavailable extends Error {
  override readonly name = 'DependencyUnavailable';
  constructor(what: string, cause: unknown) {
    super(`${what} is not answering (${describeConnectionError(cause) ?? (cause as Error)?.message ?? String(cause)})`, { cause });
  }
}

/** The `main().catch(...)` of a service: one line for an unreachable dependency, the stack otherwise. */
export function exitOnStartupError(service: string): (error: unknown) => never {
  return (error) => {
    const logger = new Logger(service);
    const reason = describeConnectionError(error);
    if (reason) {
      logger.error(`cannot start: ${reason}; exiting (the supervisor restarts ${service} once it answers)`);
      if (/^(debug|verbose)$/.test(logLevel())) logger.debug(error instanceof Error ? (error.stack ?? error.message) : String(error));
    } else {
      logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
    process.exit(1);
  };
}

interface ErrorEmitter {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Logs a client's connection errors (ioredis via BullMQ queues, ...) as one line each instead of
 * Node's "unhandled error event" stack; the same message at most once per `quietMs`.
 */
export function logConnectionErrors(emitter: ErrorEmitter, logger: Pick<Logger, 'warn'>, what: string, quietMs = 5_000): void {
  let lastText = '';
  let lastAt = 0;
  emitter.on('error', (error) => {
    const text = describeConnectionError(error) ?? error.message.split('\n')[0];
    const now = Date.now();
    if (text === lastText && now - lastAt < quietMs) return;
    lastText = text;
    lastAt = now;
    logger.warn(`${what}: ${text}; retrying`);
  });
}
