// A small seeded generator (mulberry32, T. Ettinger 2017) and geometric skipping for sparse Bernoulli draws
// (Devroye, Non-Uniform Random Variate Generation (1986), §X.2): the sampler's only randomness.

export type Random = () => number;

/** Uniform floats in [0, 1) from a 32-bit seed; the same seed gives the same stream. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sets each of `bits[0 … length)` to 1 independently with probability p (XOR, so existing flips compose). */
export function flipBernoulli(bits: Uint8Array, offset: number, length: number, p: number, random: Random): void {
  if (p <= 0) return;
  if (p >= 1) {
    for (let i = 0; i < length; i++) bits[offset + i]! ^= 1;
    return;
  }
  const logQ = Math.log1p(-p);
  let i = -1;
  for (;;) {
    i += 1 + Math.floor(Math.log(1 - random()) / logQ);
    if (i >= length) return;
    bits[offset + i]! ^= 1;
  }
}
