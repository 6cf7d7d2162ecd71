import { rotatedSurfaceCode, sampleMemoryExperiment } from '#qdc/qec';
import { findModel } from '../model-catalogue.js';
import { ModelInputError } from '../model-input-error.js';
import { renderPlot, runModel } from '../model-runner.js';
import { DECODING_TIME_BUDGET_S, MAX_DECODING_LOGITS } from './index.js';

const IDS = ['ising-decoding-v1-fast', 'ising-decoding-v1-accurate'] as const;

describe('decoding catalogue entries', () => {
  it.each(IDS)('%s is listed with its input shape', (id) => {
    const spec = findModel(id)!;
    expect(spec.inputShapeRequirements).toContain('(B, 4, T, D, D)');
    expect(spec.batch).toBe(false);
  });

  it.each(IDS)("%s answers the official client's all-zero (1, 4, 3, 3, 3) float32 tensor: no correction, no flip", (id) => {
    const sut = runModel(id, { shape: [1, 4, 3, 3, 3], data: new Float64Array(4 * 27) });
    expect(sut['variant']).toBe(id.endsWith('fast') ? 'fast' : 'accurate');
    expect(sut['batch_size']).toBe(1);
    expect(sut['distance']).toBe(3);
    expect(sut['rounds']).toBe(3);
    expect(sut['logical_flips']).toEqual([[0, 0]]);
    expect(sut['inexact_shots']).toEqual(id.endsWith('fast') ? undefined : []);
    const logits = sut['logits'] as number[][][][];
    expect(logits).toHaveLength(1);
    expect(logits[0]).toHaveLength(2);
    for (const channel of logits[0]!) {
      expect(channel).toHaveLength(3);
      for (const row of channel) expect(row).toEqual([-4.5951, -4.5951, -4.5951]);
    }
  });

  it.each(IDS)('%s: logits > 0 clear every last-round syndrome and the flips match the truth at low noise', (id) => {
    const d = 5;
    const T = 5;
    const shots = 200;
    const samples = sampleMemoryExperiment({ distance: d, rounds: T, noise: { kind: 'phenomenological', p: 0.005, q: 0.005 }, shots, seed: 31 });
    const sut = runModel(id, { shape: [shots, 4, T, d, d], data: Float64Array.from(samples.syndromes) });
    const logits = sut['logits'] as number[][][][];
    const flips = sut['logical_flips'] as number[][];
    const code = rotatedSurfaceCode(d);
    let wrong = 0;
    for (let b = 0; b < shots; b++) {
      for (const type of [0, 1] as const) {
        for (const s of code.stabilizers[type]) {
          let last = 0;
          for (let t = 0; t < T; t++) last ^= samples.syndromes[((b * 4 + type) * T + t) * d * d + s.cell]!;
          const corrected = s.qubits.reduce((a, q) => a ^ (logits[b]![type]![Math.floor(q / d)]![q % d]! > 0 ? 1 : 0), 0);
          expect(corrected).toBe(last);
        }
        if (flips[b]![type] !== samples.logicalFlips[b * 2 + type]) wrong++;
      }
    }
    expect(wrong).toBe(0);
  });

  it.each(IDS)('%s: 422-type errors for a mask that does not fit D, a bad shape and an oversized request', (id) => {
    const samples = sampleMemoryExperiment({ distance: 3, rounds: 2, noise: { kind: 'code-capacity', p: 0 }, shots: 1, seed: 1 });
    const data = Float64Array.from(samples.syndromes);
    data[2 * 2 * 9 + 2] = 1; // X mask, round 0, cell (0, 2): no X stabilizer there at d = 3
    expect(() => runModel(id, { shape: [1, 4, 2, 3, 3], data })).toThrow(ModelInputError);
    expect(() => runModel(id, { shape: [1, 4, 2, 3, 3], data })).toThrow('X-stabilizer mask (channel 2)');
    expect(() => runModel(id, { shape: [4, 2, 3, 3], data: new Float64Array(72) })).toThrow('expected a (B, 4, T, D, D) syndrome tensor');
    const wide = [Math.floor(MAX_DECODING_LOGITS / 18) + 1, 4, 1, 3, 3];
    expect(() => runModel(id, { shape: wide, data: new Float64Array(wide.reduce((a, b) => a * b, 1)) })).toThrow(
      new RegExp(`at most ${MAX_DECODING_LOGITS} output logits .*: split it into 2 or more requests of at most \\d+ shots`),
    );
  });

  it.each(IDS)('%s refuses by estimated decoding time, not size: pure noise at d = 25, T = 1 beyond the budget, saying how to split', (id) => {
    // Half the detectors firing in a single round is the decoders' worst case (≈ 100 ms per shot here for accurate).
    const d = 25;
    const n = d * d;
    const shots = 2400;
    const data = new Float64Array(shots * 4 * n);
    let state = 9;
    for (let b = 0; b < shots; b++) {
      for (let i = 0; i < 2 * n; i++) {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        data[b * 4 * n + i] = state / 2 ** 31;
      }
    }
    expect(() => runModel(id, { shape: [shots, 4, 1, d, d], data })).toThrow(
      new RegExp(
        `expected a batch that decodes within ${DECODING_TIME_BUDGET_S} s; .* estimated at \\d+ s for the \\w+ decoder: split it into \\d+ or more requests of at most \\d+ shots`,
      ),
    );
  });

  it.each(IDS)('%s decodes 3 000 shots of d = 5, T = 5 (1.5 M elements) exactly as its two halves decoded apart', (id) => {
    const [B, T, d] = [3000, 5, 5];
    const samples = sampleMemoryExperiment({ distance: d, rounds: T, noise: { kind: 'phenomenological', p: 0.01, q: 0.01 }, shots: B, seed: 29 });
    const data = Float64Array.from(samples.syndromes);
    const whole = runModel(id, { shape: [B, 4, T, d, d], data });
    const perShot = 4 * T * d * d;
    const first = runModel(id, { shape: [B / 2, 4, T, d, d], data: data.subarray(0, (B / 2) * perShot) });
    const second = runModel(id, { shape: [B / 2, 4, T, d, d], data: data.subarray((B / 2) * perShot) });
    expect(whole['batch_size']).toBe(B);
    expect(whole['logits']).toEqual([...(first['logits'] as unknown[]), ...(second['logits'] as unknown[])]);
    expect(whole['logical_flips']).toEqual([...(first['logical_flips'] as unknown[]), ...(second['logical_flips'] as unknown[])]);
    if (id.endsWith('accurate')) expect(whole['inexact_shots']).toEqual([]);
    // And the decoders still agree with the sampler's logical flips almost always at p = 1 %.
    const wrong = (whole['logical_flips'] as number[][]).reduce(
      (sum, pair, b) => sum + (pair[0] !== samples.logicalFlips[2 * b] ? 1 : 0) + (pair[1] !== samples.logicalFlips[2 * b + 1] ? 1 : 0),
      0,
    );
    expect(wrong / (2 * B)).toBeLessThan(0.01);
  });

  it.each(IDS)('%s decodes pure-noise syndromes within the time budget, clearing every last-round syndrome', (id) => {
    const d = 11;
    const T = 11;
    const B = 8;
    const n = d * d;
    const data = new Float64Array(B * 4 * T * n);
    let state = 5;
    for (let b = 0; b < B; b++) {
      for (let i = 0; i < 2 * T * n; i++) {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        data[b * 4 * T * n + i] = state / 2 ** 31;
      }
    }
    const output = runModel(id, { shape: [B, 4, T, d, d], data });
    const logits = output['logits'] as number[][][][];
    expect(logits.length).toBe(B);
    // Half the detectors firing: every shot's matching component is far above the exact bound.
    if (id === 'ising-decoding-v1-accurate') expect(output['inexact_shots']).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    else expect(output['inexact_shots']).toBeUndefined();
    const code = rotatedSurfaceCode(d);
    for (let b = 0; b < B; b++) {
      for (const type of [0, 1] as const) {
        for (const s of code.stabilizers[type]) {
          // Events summed over rounds = last-round syndrome; the correction must reproduce it.
          let events = 0;
          for (let t = 0; t < T; t++) events ^= data[((b * 4 + type) * T + t) * n + s.cell]! > 0.5 ? 1 : 0;
          let syndrome = 0;
          for (const q of s.qubits) syndrome ^= logits[b]![type]![Math.floor(q / d)]![q % d]! > 0 ? 1 : 0;
          expect(syndrome).toBe(events);
        }
      }
    }
  });

  it.each(IDS)('%s draws shot 0 with its corrections', (id) => {
    const samples = sampleMemoryExperiment({ distance: 5, rounds: 3, noise: { kind: 'phenomenological', p: 0.03, q: 0.03 }, shots: 2, seed: 4 });
    const input = { shape: [2, 4, 3, 5, 5], data: Float64Array.from(samples.syndromes) };
    const output = runModel(id, input);
    for (const darkMode of [false, true]) expect(renderPlot(id, input, output, { darkMode })).toMatch(/^data:image\/svg\+xml;base64,/);
  });
});
