// Queue workers start paused and take jobs only once everything a job needs answers.

export interface DependencyLogger {
  warn(message: string): void;
}

/**
 * Retries `check` every `intervalMs` until it resolves, logging the reason every tenth attempt. `check` throws
 * (or rejects) with what is not ready yet.
 */
export async function waitForDependencies(check: () => Promise<void>, logger: DependencyLogger, intervalMs = 500): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await check();
      return;
    } catch (error) {
      if (attempt % 10 === 0) logger.warn(`waiting for dependencies: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** Throws unless the ioredis client behind a BullMQ worker is connected. */
export async function requireRedisReady(client: Promise<{ status: string }>): Promise<void> {
  if ((await client).status !== 'ready') throw new Error('Redis is not ready');
}

/** Whether the ioredis client behind a BullMQ worker is connected (readiness probes). */
export async function isRedisReady(client: Promise<{ status: string }>): Promise<boolean> {
  try {
    return (await client).status === 'ready';
  } catch {
    return false;
  }
}
