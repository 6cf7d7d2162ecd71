import { generateCoulombPeakTrace, generateResonatorNotchTrace, tuningSeeds } from '#qdc/device-physics';
import { findModel, MODEL_CATALOGUE } from './model-catalogue.js';
import { ModelInputError } from './model-input-error.js';
import { renderPlot, runModel, runModelBatch } from './model-runner.js';

function svgOf(uri: string): string {
  expect(uri.startsWith('data:image/svg+xml;base64,')).toBe(true);
  return Buffer.from(uri.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8');
}

describe('MODEL_CATALOGUE', () => {
  it('lists the implemented models with complete metadata', () => {
    expect(MODEL_CATALOGUE.map((m) => m.id)).toEqual(
      expect.arrayContaining([
        'coulomb-blockade-peak-detector-v0',
        'coulomb-blockade-peak-detector-v1',
        'coulomb-blockade-peak-detector-v1-mini',
        'coulomb-blockade-peak-detector-v2',
        'resonator-dip-finder-v0',
      ]),
    );
    for (const m of MODEL_CATALOGUE) {
      expect(m.name.length).toBeGreaterThan(0);
      expect(m.description.length).toBeGreaterThan(20);
      expect(new Date(m.released).toISOString().replace('.000Z', 'Z')).toBe(m.released);
      expect(m.inputShapeRequirements.length).toBeGreaterThan(0);
      expect(m.nnInputShapeRequirements).toBeNull();
      expect(m.nnOutputShapeRequirements).toBeNull();
    }
    expect(MODEL_CATALOGUE.filter((m) => m.batch).map((m) => m.id)).toEqual(['coulomb-blockade-peak-detector-v2']);
  });

  it('finds models by id', () => {
    expect(findModel('resonator-dip-finder-v0')?.id).toBe('resonator-dip-finder-v0');
    expect(findModel('nope')).toBeUndefined();
  });
});

describe(runModel.name, () => {
  it('is deterministic', () => {
    const trace = generateCoulombPeakTrace(tuningSeeds(1, 7000)[0]!, { length: 128 }).trace;
    const input = { shape: [128], data: trace };
    expect(runModel('coulomb-blockade-peak-detector-v2', input)).toEqual(runModel('coulomb-blockade-peak-detector-v2', input));
  });

  it('accepts a view into a larger buffer', () => {
    const trace = generateCoulombPeakTrace(tuningSeeds(1, 7001)[0]!, { length: 128 }).trace;
    const buffer = new Float64Array(300);
    buffer.set(trace, 100);
    const view = buffer.subarray(100, 228);
    expect(runModel('coulomb-blockade-peak-detector-v2', { shape: [128], data: view })).toEqual(
      runModel('coulomb-blockade-peak-detector-v2', { shape: [128], data: trace }),
    );
  });

  it('rejects unknown ids and mismatched data lengths', () => {
    expect(() => runModel('nope', { shape: [8], data: new Float64Array(8) })).toThrow(ModelInputError);
    expect(() => runModel('resonator-dip-finder-v0', { shape: [10], data: new Float64Array(9) })).toThrow(ModelInputError);
  });
});

describe(runModelBatch.name, () => {
  it('accepts any trace length for v2 and a single-row batch', () => {
    const data = generateCoulombPeakTrace(tuningSeeds(1, 7002)[0]!, { length: 300 }).trace;
    const [row] = runModelBatch('coulomb-blockade-peak-detector-v2', { shape: [1, 300], data });
    expect(row).toEqual(runModel('coulomb-blockade-peak-detector-v2', { shape: [300], data }));
    expect(() => runModelBatch('coulomb-blockade-peak-detector-v2', { shape: [0, 128], data: new Float64Array(0) })).toThrow(ModelInputError);
  });
});

describe(renderPlot.name, () => {
  it('draws the trace, peak markers, ticks and the model id as title; dark theme on request', () => {
    const truth = generateCoulombPeakTrace(tuningSeeds(1, 7003)[0]!, { length: 128, kind: 'peaks', peakCount: 4, snrRange: [40, 60] });
    const input = { shape: [128], data: truth.trace };
    const output = runModel('coulomb-blockade-peak-detector-v2', input);
    const light = svgOf(renderPlot('coulomb-blockade-peak-detector-v2', input, output, { darkMode: false }));
    expect(light).toContain('<svg');
    expect(light).toContain('coulomb-blockade-peak-detector-v2');
    expect(light).toContain('<polyline');
    expect((light.match(/<circle/g) ?? []).length).toBe((output['peak_indices'] as number[]).length);
    expect(light).toContain('fill="#ffffff"');
    const dark = svgOf(renderPlot('coulomb-blockade-peak-detector-v2', input, output, { darkMode: true }));
    expect(dark).toContain('fill="#121212"');
  });

  it('draws dips with linewidth bars', () => {
    const truth = generateResonatorNotchTrace(tuningSeeds(1, 7004)[0]!, { length: 501, dipCount: 2, snrRange: [100, 200] });
    const input = { shape: [501], data: truth.trace };
    const output = runModel('resonator-dip-finder-v0', input);
    const svg = svgOf(renderPlot('resonator-dip-finder-v0', input, output, { darkMode: false }));
    expect((svg.match(/<circle/g) ?? []).length).toBe(2);
    expect(svg).toContain('linewidth');
  });

  it('plots constant and very large traces', () => {
    expect(() =>
      svgOf(renderPlot('resonator-dip-finder-v0', { shape: [10], data: new Float64Array(10).fill(-3) }, { dip_indices: [] }, { darkMode: false })),
    ).not.toThrow();
    const long = Float64Array.from({ length: 20000 }, (_, i) => Math.sin(i / 50));
    const svg = svgOf(
      renderPlot('coulomb-blockade-peak-detector-v1', { shape: [20000], data: long }, { peak_indices: [5, 19999, 30000] }, { darkMode: false }),
    );
    expect(svg.length).toBeLessThan(200_000);
    expect((svg.match(/<circle/g) ?? []).length).toBe(2);
  });
});
