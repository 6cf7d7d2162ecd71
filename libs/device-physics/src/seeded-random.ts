// Seeded pseudo-random numbers for reproducible synthetic data.
// Uniforms: mulberry32 (T. Ettinger, 2017; a 32-bit multiply–xorshift generator, period 2^32).
// Normals: Box–Muller transform (Box & Muller, Ann. Math. Statist. 29, 610 (1958)).

export interface SeededRandom {
  /** Uniform on [0, 1). */
  uniform(): number;
  /** Uniform on [low, high). */
  between(low: number, high: number): number;
  /** Log-uniform on [low, high), both > 0. */
  logBetween(low: number, high: number): number;
  /** Integer uniform on [low, high], inclusive. */
  integer(low: number, high: number): number;
  /** Standard normal N(0, 1). */
  normal(): number;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** Mixes a seed with a stream name so that different generators fed the same seed do not correlate. */
export function deriveSeed(seed: number, stream: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < stream.length; i++) h = Math.imul(h ^ stream.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
  return (h ^ (h >>> 15)) >>> 0;
}

export function createSeededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  let spareNormal: number | null = null;

  const uniform = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  const normal = (): number => {
    if (spareNormal !== null) {
      const z = spareNormal;
      spareNormal = null;
      return z;
    }
    let u = uniform();
    while (u <= Number.MIN_VALUE) u = uniform();
    const v = uniform();
    const r = Math.sqrt(-2 * Math.log(u));
    spareNormal = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };

  return {
    uniform,
    between: (low, high) => low + (high - low) * uniform(),
    logBetween: (low, high) => Math.exp(Math.log(low) + (Math.log(high) - Math.log(low)) * uniform()),
    integer: (low, high) => low + Math.floor((high - low + 1) * uniform()),
    normal,
    chance: (p) => uniform() < p,
  };
}
