import { DECODE_COST_US_PER_CELL, estimateDecodeCost } from './decode-cost.js';
import { sampleMemoryExperiment } from './pauli-frame.sampler.js';
import { readSyndromeTensor } from './syndrome-tensor.js';

function noiseTensor(shots: number, rounds: number, d: number, density: number) {
  const n = d * d;
  const data = new Uint8Array(shots * 4 * rounds * n);
  let state = 3;
  for (let b = 0; b < shots; b++) {
    for (let i = 0; i < 2 * rounds * n; i++) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      data[b * 4 * rounds * n + i] = state / 2 ** 31 < density ? 1 : 0;
    }
  }
  return readSyndromeTensor([shots, 4, rounds, d, d], data);
}

describe(estimateDecodeCost.name, () => {
  it('has cost tables that never fall with density or distance', () => {
    for (const variant of ['fast', 'accurate'] as const) {
      for (const table of [DECODE_COST_US_PER_CELL[variant].multiRound, DECODE_COST_US_PER_CELL[variant].fewRounds]) {
        table.forEach((row, d) => {
          row.forEach((cost, rho) => {
            expect(cost).toBeGreaterThan(0);
            if (rho > 0) expect(cost).toBeGreaterThanOrEqual(row[rho - 1]!);
            if (d > 0) expect(cost).toBeGreaterThanOrEqual(table[d - 1]![rho]!);
          });
        });
      }
    }
  });

  it('counts events and grows with density and size', () => {
    const quiet = estimateDecodeCost(noiseTensor(10, 5, 5, 0.01), 'accurate');
    const busy = estimateDecodeCost(noiseTensor(10, 5, 5, 0.5), 'accurate');
    const twice = estimateDecodeCost(noiseTensor(20, 5, 5, 0.5), 'accurate');
    expect(busy.seconds).toBeGreaterThan(quiet.seconds);
    expect(twice.seconds).toBeCloseTo(2 * busy.seconds, 6);
    expect(busy.events).toBeGreaterThan(0.4 * busy.detectors);
    expect(busy.detectors).toBe(10 * 5 * 24);
  });

  it('puts 3 000 shots of d = 5, T = 5 at p = 1 % below 5 s, and pure noise in one round of d = 25 at 20–200 ms per shot', () => {
    const samples = sampleMemoryExperiment({ distance: 5, rounds: 5, noise: { kind: 'phenomenological', p: 0.01, q: 0.01 }, shots: 3000, seed: 3 });
    const typical = estimateDecodeCost(readSyndromeTensor([3000, 4, 5, 5, 5], samples.syndromes), 'accurate');
    expect(typical.seconds).toBeGreaterThan(0.05);
    expect(typical.seconds).toBeLessThan(5);
    const noisy = estimateDecodeCost(noiseTensor(1, 1, 25, 0.5), 'accurate').seconds;
    expect(noisy).toBeGreaterThan(0.02);
    expect(noisy).toBeLessThan(0.2);
  });
});
