/**
 * Seeded pseudo-random numbers: xoshiro128** (Blackman & Vigna, 2018) seeded through
 * splitmix32, so a seed reproduces the same shots on every machine.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
}

export function createRng(seed: number): Rng {
  let x = (Math.floor(seed) >>> 0) ^ ((Math.floor(seed / 2 ** 32) >>> 0) * 0x9e3779b9);
  const splitmix = (): number => {
    x = (x + 0x9e3779b9) | 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix(),
    b = splitmix(),
    c = splitmix(),
    d = splitmix();
  if ((a | b | c | d) === 0) a = 1;
  const next32 = (): number => {
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl(d, 11);
    return result;
  };
  return { next: () => (next32() * 2 ** 21 + (next32() >>> 11)) / 2 ** 53 };
}

const rotl = (v: number, k: number): number => (v << k) | (v >>> (32 - k));

/** A fresh seed when the caller gave none (reported back so the run can be reproduced). */
export const randomSeed = (): number => Math.floor(Math.random() * 2 ** 31);
