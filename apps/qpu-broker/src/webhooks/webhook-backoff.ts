/**
 * When a failed delivery is tried again: exponential backoff with "equal jitter" (half the delay fixed, half random,
 * so retries of many deliveries that failed together spread out but never come sooner than half the step), capped,
 * and no later than the retry window after the first attempt; past it the delivery is failed.
 */
export interface BackoffPolicy {
  /** Delay after the first failed attempt (ms); doubles with every further one. */
  baseMs: number;
  maxMs: number;
  /** From the first attempt: no attempt is scheduled later than this. */
  windowMs: number;
}

/** Delay after the `attempt`-th failed attempt (1-based), before jitter: base · 2^(attempt−1), at most max. */
export const backoffStepMs = (attempt: number, policy: Pick<BackoffPolicy, 'baseMs' | 'maxMs'>): number =>
  Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(attempt - 1, 40));

export type RetryDecision = { retry: true; at: Date } | { retry: false };

/** After failed attempt number `attempt` (1-based) at `now`: the next attempt's time, or none (window over). */
export function nextRetry(attempt: number, firstAttemptAt: Date, now: Date, policy: BackoffPolicy, random: () => number = Math.random): RetryDecision {
  const step = backoffStepMs(attempt, policy);
  const delay = step / 2 + random() * (step / 2);
  const at = now.getTime() + delay;
  const end = firstAttemptAt.getTime() + policy.windowMs;
  if (now.getTime() >= end) return { retry: false };
  // The last attempt lands at the window's end rather than being skipped.
  return { retry: true, at: new Date(Math.min(at, end)) };
}
