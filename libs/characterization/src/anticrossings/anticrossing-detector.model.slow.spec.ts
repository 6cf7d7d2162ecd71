import { generateAnticrossingSpectroscopy, tuningSeeds } from '#qdc/device-physics';
import { ModelInputError } from '../model-input-error.js';
import { renderPlot, runModel } from '../model-runner.js';
import { detectAnticrossings, type Anticrossing } from './anticrossing-detector.model.js';
import { anticrossingScore, countAnticrossingMatches, emptyAnticrossingCounts } from './anticrossing-score.js';

const ID = 'anticrossing-detector-v0';
const SHAPE = [2, 801, 127];
const point = (a: { x: number; y: number; splittingPx?: number; splitting_px?: number }) => ({
  x: a.x,
  y: a.y,
  splitting: a.splittingPx ?? a.splitting_px ?? 0,
});

function lcgNoise(length: number, seed = 7): Float64Array {
  let state = seed;
  return Float64Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  });
}

describe('anticrossing-detector-v0', () => {
  it('finds the avoided crossings with F1 ≥ 0.9 (within 4 px), position error ≤ 1.5 px and splitting error ≤ 3 rows', () => {
    const counts = emptyAnticrossingCounts();
    for (const seed of tuningSeeds(12, 2000)) {
      const t = generateAnticrossingSpectroscopy(seed, { kind: 'crossings' });
      const found = runModel(ID, { shape: SHAPE, data: t.data })['anticrossings'] as Anticrossing[];
      countAnticrossingMatches(found.map(point), t.crossings.map(point), t.ignored.map(point), counts);
    }
    const score = anticrossingScore(counts);
    expect(counts.truePositives).toBeGreaterThan(15);
    expect(score.f1).toBeGreaterThanOrEqual(0.9);
    expect(score.meanPositionError).toBeLessThanOrEqual(1.5);
    expect(score.meanSplittingError).toBeLessThanOrEqual(3);
  });

  it('reports nothing without a crossing: dispersive qubit, no qubit, pure noise, uniform random input, constant input', () => {
    for (const seed of tuningSeeds(1, 2100)) {
      for (const kind of ['dispersive', 'no-qubit', 'noise'] as const) {
        const t = generateAnticrossingSpectroscopy(seed, { kind });
        expect(detectAnticrossings(t.data, 801, 127).anticrossings).toEqual([]);
      }
    }
    expect(runModel(ID, { shape: SHAPE, data: lcgNoise(2 * 801 * 127) })['anticrossings']).toEqual([]);
    expect(runModel(ID, { shape: SHAPE, data: new Float64Array(2 * 801 * 127).fill(1) })['anticrossings']).toEqual([]);
  });

  it('is deterministic and plots the magnitude channel with the crossings', () => {
    const t = generateAnticrossingSpectroscopy(tuningSeeds(1, 2200)[0]!, { kind: 'crossings' });
    const input = { shape: SHAPE, data: t.data };
    const out = runModel(ID, input);
    expect(runModel(ID, input)).toEqual(out);
    const svg = Buffer.from(renderPlot(ID, input, out, { darkMode: false }).split(',')[1]!, 'base64').toString('utf8');
    expect(svg).toContain('<image');
    expect(svg).toContain('anticrossing');
    // 127 flux columns stretched to a readable 360 px next to the 560 px frequency axis.
    expect(svg).toMatch(/<image x="60" y="40" width="360" height="560"/);
  });

  it('rejects a wrong shape with ModelInputError', () => {
    expect(() => runModel(ID, { shape: [801, 127], data: new Float64Array(801 * 127) })).toThrow(ModelInputError);
    expect(() => runModel(ID, { shape: [2, 800, 127], data: new Float64Array(2 * 800 * 127) })).toThrow(
      /expected a \(2, 801, 127\) spectroscopy map.*got shape \[2, 800, 127\]/,
    );
  });
});
