import { CALIBRATION_TRACE_FAMILIES, generateLabCalibrationTrace, tuningSeeds } from '#qdc/device-physics';
import { assessCalibration, keyParameterOf } from '../assess-calibration.js';

// Lab-like traces (issue #29) on tuning seeds; bench/accuracy/calibration.ts reports the held-out ones.
const SEEDS = tuningSeeds(30, 3000);
// T1 and echo are noise-limited (the benchmark's ceiling rows: ~0.88 and ~0.83), DRAG at 60 % noise close to it.
const FLOOR: Record<string, number> = { t1: 0.8, 't2-echo': 0.7, drag: 0.8 };

describe('calibration fits on lab-like traces', () => {
  it.each(CALIBRATION_TRACE_FAMILIES)('%s: key parameter within tolerance on most tuning traces', (family) => {
    let within = 0;
    for (const seed of SEEDS) {
      const trace = generateLabCalibrationTrace(family, seed);
      const value =
        assessCalibration(trace.series, { experiment: family, xUnit: trace.xUnit }).assessment.fit?.parameters[keyParameterOf(family)]?.value ?? NaN;
      const tolerance =
        family === 'drag'
          ? 0.1 * trace.extra.range!
          : family.endsWith('spectroscopy')
            ? 0.25 * trace.extra.linewidth!
            : (family === 't1' || family === 't2-echo' ? 0.1 : family === 'ramsey' ? 0.03 : 0.05) * trace.truth.value;
      if (Math.abs(value - trace.truth.value) <= tolerance) within++;
    }
    expect(within / SEEDS.length).toBeGreaterThanOrEqual(FLOOR[family] ?? 0.9);
  });
});
