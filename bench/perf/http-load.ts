import { spawnSync } from 'node:child_process';
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
}

export type LoadClient = 'wrk' | 'autocannon';

/**
 * The load generator: wrk (C, Debian package `wrk`) when it is on PATH, else autocannon. autocannon parses responses
 * in JavaScript on one core of the same machine, so for bodies of a few kB it measures itself rather than the server
 * (measured: bare Fastify sending our 21.5 kB catalogue does ~15k req/s under autocannon, ~47k under wrk).
 */
export const loadClient: LoadClient = spawnSync('wrk', ['--version'], { encoding: 'utf8' }).error ? 'autocannon' : 'wrk';

/** Closed-loop HTTP load: `connections` keep-alive connections, each sending its next request on the last answer. */
export async function httpLoad(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  if (loadClient === 'wrk') return wrkLoad(url, options);
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers: options.headers, pipelining: 1 });
  return { requestsPerSecond: result.requests.average, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

function wrkLoad(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): LoadResult {
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  // One wrk thread: the server under test gets the other core.
  const run = spawnSync('wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, ...headerArgs, url], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr || run.stdout}`);
  const count = (pattern: RegExp): number => Number(pattern.exec(run.stdout)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(run.stdout);
  return {
    requestsPerSecond: count(/Requests\/sec:\s+([\d.]+)/),
    errors: socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: count(/Non-2xx or 3xx responses: (\d+)/),
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
