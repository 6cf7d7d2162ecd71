// The library's two caches hold scratch (v2 peak-detector workspaces, double-dot classifiers) that every call
// overwrites: a result must never depend on what ran before it.
import { DOUBLE_DOT_CLASSIFIER_VERSIONS, doubleDotClassifier } from './charge-stability/double-dot-classifier.entries.js';
import { classifyDoubleDotPatch, createDoubleDotClassifier } from './charge-stability/double-dot-classifier.model.js';
import { COULOMB_PEAK_ENTRIES, peakOutput } from './coulomb-peaks/coulomb-peak.entries.js';
import { createPeakDetectorV2Workspace, detectCoulombPeaksV2 } from './coulomb-peaks/coulomb-peak-detector-v2.model.js';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A noisy trace of `length` samples with a few Lorentzian peaks. */
function peakTrace(length: number, seed: number): Float64Array {
  const rng = seeded(seed);
  const centres = Array.from({ length: 3 }, () => rng() * length);
  return Float64Array.from({ length }, (_, i) => centres.reduce((sum, c) => sum + 1 / (1 + ((i - c) / 2) ** 2), 0) + 0.05 * (rng() - 0.5));
}

describe('cached scratch', () => {
  const v2 = COULOMB_PEAK_ENTRIES.find((e) => e.spec.id === 'coulomb-blockade-peak-detector-v2')!;

  it('the v2 peak detector answers as with a fresh workspace, lengths and traces interleaved beyond the cache bound', () => {
    const traces = Array.from({ length: 24 }, (_, i) => peakTrace([128, 100, 64, 200, 31, 128, 77, 90, 150, 40, 55, 128][i % 12], i + 1));
    const fresh = traces.map((t) => peakOutput(detectCoulombPeaksV2(t, 0, t.length, createPeakDetectorV2Workspace(t.length))));
    for (let round = 0; round < 2; round++)
      traces.forEach((t, i) => {
        expect(v2.run(t)).toEqual(fresh[i]);
        expect(v2.run(traces[0])).toEqual(fresh[0]);
      });
    const block = new Float64Array(3 * 128);
    for (const [row, k] of [0, 5, 11].entries()) block.set(traces[k], row * 128);
    expect(v2.runRows!(block, 3, 128)).toEqual([fresh[0], fresh[5], fresh[11]]);
  });

  it('each double-dot classifier answers as a freshly built one, patches and versions interleaved', () => {
    for (const version of DOUBLE_DOT_CLASSIFIER_VERSIONS) {
      const rng = seeded(version.size * 31 + version.id.length);
      const patches = Array.from({ length: 3 }, () => Float64Array.from({ length: version.size ** 2 }, () => rng()));
      const expected = patches.map((p) => classifyDoubleDotPatch(createDoubleDotClassifier(version.size, version.size, version.weights), p));
      patches.forEach((p, i) => {
        expect(classifyDoubleDotPatch(doubleDotClassifier(version.id), p)).toEqual(expected[i]);
        const other = DOUBLE_DOT_CLASSIFIER_VERSIONS.find((v) => v.size === version.size && v.id !== version.id)!;
        classifyDoubleDotPatch(doubleDotClassifier(other.id), patches[(i + 1) % 3]);
        expect(classifyDoubleDotPatch(doubleDotClassifier(version.id), p)).toEqual(expected[i]);
      });
    }
  });

  it('an unknown classifier id is refused', () => {
    expect(() => doubleDotClassifier('no-such-classifier')).toThrow('unknown double-dot classifier no-such-classifier');
  });
});
