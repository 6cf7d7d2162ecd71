// Seed ranges for synthetic data. Parameters of every model are tuned, and unit tests run,
// on TUNING seeds only; the accuracy benchmark uses BENCHMARK seeds, which nothing is tuned on.

export const TUNING_SEEDS = { first: 1, last: 9_999 } as const;
export const BENCHMARK_SEEDS = { first: 1_000_000, last: 1_999_999 } as const;

function seedRange(range: { first: number; last: number }, count: number, offset: number): number[] {
  const available = range.last - range.first + 1;
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(offset) || offset < 0 || offset + count > available) {
    throw new RangeError(`expected 0 ≤ offset, offset + count ≤ ${available}; got offset ${offset}, count ${count}`);
  }
  return Array.from({ length: count }, (_, i) => range.first + offset + i);
}

/** `count` consecutive tuning seeds starting `offset` seeds into the tuning range. */
export function tuningSeeds(count: number, offset = 0): number[] {
  return seedRange(TUNING_SEEDS, count, offset);
}

/** `count` consecutive held-out benchmark seeds starting `offset` seeds into the benchmark range. */
export function benchmarkSeeds(count: number, offset = 0): number[] {
  return seedRange(BENCHMARK_SEEDS, count, offset);
}
