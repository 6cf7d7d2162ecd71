import { generatePinchOffTrace, generateTurnOnTrace, tuningSeeds } from '#qdc/device-physics';
import { runModel } from '../model-runner.js';
import { classifyPinchOff, extractPinchOffParameters } from './pinch-off.model.js';
import { classifyTurnOn, extractTurnOnThreshold } from './turn-on.model.js';

const SEEDS = tuningSeeds(80, 1000);

function lcgNoise(length: number): Float64Array {
  let state = 42;
  return Float64Array.from({ length }, () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5);
}

describe('pinch-off models', () => {
  it('classify labelled sweeps with accuracy ≥ 0.97', () => {
    let correct = 0;
    for (const seed of SEEDS) {
      const t = generatePinchOffTrace(seed);
      if (classifyPinchOff(t.trace)['classification'] === t.isPinchOff) correct++;
    }
    expect(correct / SEEDS.length).toBeGreaterThanOrEqual(0.97);
  });

  it('extract cut-off, transition and saturation within 2 samples on average, either sweep direction and polarity', () => {
    let error = 0;
    let count = 0;
    for (const seed of SEEDS.slice(0, 40)) {
      for (const closing of [true, false]) {
        const t = generatePinchOffTrace(seed, { kind: 'pinch-off', closing });
        const out = extractPinchOffParameters(t.trace);
        error += Math.abs((out['cut_off_index'] as number) - Math.round(t.cutOff!));
        error += Math.abs((out['transition_index'] as number) - Math.round(t.transition!));
        error += Math.abs((out['saturation_index'] as number) - Math.round(t.saturation!));
        count += 3;
      }
    }
    expect(error / count).toBeLessThanOrEqual(2);
  });

  it('answers constant input and pure noise with nothing found', () => {
    for (const trace of [new Float64Array(100), new Float64Array(100).fill(3.5), lcgNoise(100)]) {
      expect(classifyPinchOff(trace)['classification']).toBe(false);
      const out = extractPinchOffParameters(trace);
      expect([out['cut_off_index'], out['transition_index'], out['saturation_index']]).toEqual([null, null, null]);
    }
  });

  it('is rejected at the runner for a wrong length', () => {
    expect(() => runModel('pinch-off-classifier-v0', { shape: [99], data: new Float64Array(99) })).toThrow(/length 100; got shape \[99\]/);
  });
});

describe('turn-on models', () => {
  it('classify labelled sweeps with accuracy ≥ 0.97', () => {
    let correct = 0;
    for (const seed of SEEDS) {
      const t = generateTurnOnTrace(seed);
      if (classifyTurnOn(t.trace)['classification'] === t.turnsOn) correct++;
    }
    expect(correct / SEEDS.length).toBeGreaterThanOrEqual(0.97);
  });

  it('extract the threshold within 2 samples on average, rising and reversed', () => {
    let error = 0;
    let count = 0;
    for (const seed of SEEDS.slice(0, 40)) {
      for (const rising of [true, false]) {
        const t = generateTurnOnTrace(seed, { kind: 'turn-on', rising });
        const out = extractTurnOnThreshold(t.trace);
        expect(out['sweep_direction']).toBe(rising ? 'rising' : 'falling');
        error += Math.abs((out['threshold_index'] as number) - t.thresholdIndex!);
        count++;
      }
    }
    expect(error / count).toBeLessThanOrEqual(2);
  });

  it('answers constant input with nothing found', () => {
    expect(classifyTurnOn(new Float64Array(100))['classification']).toBe(false);
    expect(extractTurnOnThreshold(new Float64Array(100).fill(-2))['threshold_index']).toBeNull();
  });
});
