import { generateElectronUnloadingMap, tuningSeeds } from '#qdc/device-physics';
import { countDetections, addDetectionCounts, type DetectionCounts } from '../evaluation/detection-score.js';
import { ModelInputError } from '../model-input-error.js';
import { renderPlot, runModel } from '../model-runner.js';
import type { TextureDetection } from './electron-unload-texture.model.js';
import { addTextureIou, emptyTextureIouCounts, kindMapOf, textureIouScore } from './texture-score.js';

const SHAPE = [101, 51];
const SEEDS = tuningSeeds(120, 5000);

function lcgNoise(length: number, seed = 3): Float64Array {
  let state = seed;
  return Float64Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  });
}

describe('electron-unload-detector-v0', () => {
  const ID = 'electron-unload-detector-v0';

  it('finds the unload steps with F1 ≥ 0.97 (±2 rows), time and barrier maps', () => {
    let counts: DetectionCounts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
    for (const seed of SEEDS) {
      const t = generateElectronUnloadingMap(seed);
      const found = runModel(ID, { shape: SHAPE, data: t.data })['unload_indices'] as number[];
      counts = addDetectionCounts(counts, countDetections(found, { indices: t.unloadIndices, tolerance: 2 }));
    }
    const f1 = (2 * counts.truePositives) / (2 * counts.truePositives + counts.falsePositives + counts.falseNegatives);
    expect(counts.truePositives).toBeGreaterThan(200);
    expect(f1).toBeGreaterThanOrEqual(0.97);
  });

  it('answers maps without transitions, uniform noise and constant input with no indices', () => {
    for (const seed of SEEDS.slice(0, 20))
      expect(runModel(ID, { shape: SHAPE, data: generateElectronUnloadingMap(seed, { transitions: 0 }).data })['unload_indices']).toEqual([]);
    expect(runModel(ID, { shape: SHAPE, data: lcgNoise(101 * 51) })['unload_indices']).toEqual([]);
    expect(runModel(ID, { shape: SHAPE, data: new Float64Array(101 * 51).fill(2) })['unload_indices']).toEqual([]);
  });

  it('rejects a wrong shape with ModelInputError', () => {
    expect(() => runModel(ID, { shape: [51, 101], data: new Float64Array(51 * 101) })).toThrow(ModelInputError);
    expect(() => runModel(ID, { shape: [101], data: new Float64Array(101) })).toThrow(/expected a \(101, 51\) charge-sensor map.*got shape \[101\]/);
  });
});

describe('electron-unload-texture-detector-v0', () => {
  const ID = 'electron-unload-texture-detector-v0';

  it('labels flat / step / telegraph pixels with mean IoU ≥ 0.6 and pixel accuracy ≥ 0.9', () => {
    const counts = emptyTextureIouCounts();
    for (const seed of SEEDS.slice(0, 60)) {
      const t = generateElectronUnloadingMap(seed);
      const out = runModel(ID, { shape: SHAPE, data: t.data }) as unknown as TextureDetection;
      addTextureIou(kindMapOf(out, 101, 51), t.texture, counts);
    }
    const score = textureIouScore(counts);
    expect(score.meanIou).toBeGreaterThanOrEqual(0.6);
    expect(score.pixelAccuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('returns clusters with label, kind and bbox, and plots them; nothing found for noise and constant input', () => {
    const t = generateElectronUnloadingMap(SEEDS[0]!, { snr: 20, transitions: 3 });
    const input = { shape: SHAPE, data: t.data };
    const out = runModel(ID, input) as unknown as TextureDetection;
    expect(out.texture_clusters.length).toBeGreaterThan(1);
    for (const c of out.texture_clusters) {
      expect(['flat', 'step', 'telegraph']).toContain(c.kind);
      expect(c.bbox[0]).toBeLessThanOrEqual(c.bbox[2]);
      expect(c.bbox[1]).toBeLessThanOrEqual(c.bbox[3]);
    }
    expect(runModel(ID, input)).toEqual(out);
    const svg = Buffer.from(renderPlot(ID, input, out as unknown as Record<string, unknown>, { darkMode: true }).split(',')[1]!, 'base64').toString('utf8');
    expect(svg).toContain('<image');
    expect(runModel(ID, { shape: SHAPE, data: lcgNoise(101 * 51, 9) })['texture_clusters']).toEqual([]);
    expect(runModel(ID, { shape: SHAPE, data: new Float64Array(101 * 51) })['texture_clusters']).toEqual([]);
    expect(() => runModel(ID, { shape: [101, 50], data: new Float64Array(101 * 50) })).toThrow(ModelInputError);
  });
});
