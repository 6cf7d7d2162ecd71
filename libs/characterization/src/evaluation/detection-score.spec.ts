import { addDetectionCounts, countDetections, scoreDetections } from './detection-score.js';

describe(countDetections.name, () => {
  it('matches one-to-one within tolerance, closest first', () => {
    const sut = countDetections([10, 11, 30, 50], { indices: [10, 31, 70], tolerance: 2 });
    expect(sut).toEqual({ truePositives: 2, falsePositives: 2, falseNegatives: 1 });
  });

  it('uses per-truth tolerances', () => {
    expect(countDetections([14], { indices: [10], tolerance: [5] }).truePositives).toBe(1);
    expect(countDetections([14], { indices: [10], tolerance: [3] }).truePositives).toBe(0);
  });

  it('excuses detections on ignored truths', () => {
    expect(countDetections([0, 20], { indices: [20], tolerance: 2, ignored: [-1] })).toEqual({ truePositives: 1, falsePositives: 0, falseNegatives: 0 });
  });
});

describe(scoreDetections.name, () => {
  it('computes precision, recall and F1', () => {
    const sut = scoreDetections(
      addDetectionCounts({ truePositives: 8, falsePositives: 1, falseNegatives: 0 }, { truePositives: 0, falsePositives: 1, falseNegatives: 2 }),
    );
    expect(sut.precision).toBeCloseTo(0.8);
    expect(sut.recall).toBeCloseTo(0.8);
    expect(sut.f1).toBeCloseTo(0.8);
  });

  it('scores an empty problem as perfect', () => {
    expect(scoreDetections({ truePositives: 0, falsePositives: 0, falseNegatives: 0 }).f1).toBe(1);
  });
});
