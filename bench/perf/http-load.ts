import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
}

/** Closed-loop HTTP load with autocannon (runs in this process, like any co-located client). */
export async function httpLoad(url: string, options: { connections: number; seconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers: options.headers, pipelining: 1 });
  return { requestsPerSecond: result.requests.average, errors: result.errors + result.timeouts, non2xx: result.non2xx };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
