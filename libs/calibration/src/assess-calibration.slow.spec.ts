import { CALIBRATION_TRACE_FAMILIES, createSeededRandom, generateCalibrationTrace, tuningSeeds } from '#qdc/device-physics';
import { assessCalibration, keyParameterOf } from './assess-calibration.js';
import { levenbergMarquardt } from './fit/levenberg-marquardt.js';

const SEEDS = tuningSeeds(12, 7000);

describe(assessCalibration.name, () => {
  describe.each(CALIBRATION_TRACE_FAMILIES)('%s from data', (family) => {
    it('fits the key parameter within 5 % on ≥ 90 % of generated traces, family named by experiment', () => {
      let within = 0;
      for (const seed of SEEDS) {
        const trace = generateCalibrationTrace(family, seed, { relativeNoise: 0.02 });
        const sut = assessCalibration(trace.series, { experiment: family, xUnit: trace.xUnit });
        expect(sut.assessment.experiment).toBe(family);
        const value = sut.assessment.fit?.parameters[keyParameterOf(family)]?.value ?? NaN;
        // The DRAG crossing can be 0: its error is relative to the half-width of the scan instead.
        const scale = family === 'drag' ? (Math.max(...trace.series[0]!.x) - Math.min(...trace.series[0]!.x)) / 2 : Math.abs(trace.truth.value);
        if (Math.abs(value - trace.truth.value) <= 0.05 * scale) within++;
      }
      expect(within / SEEDS.length).toBeGreaterThanOrEqual(0.9);
    });

    it('recognises the family from its title and axis labels', () => {
      const trace = generateCalibrationTrace(family, SEEDS[0]!);
      const sut = assessCalibration(trace.series, { title: trace.title, xLabel: trace.xLabel, yLabel: trace.yLabel });
      expect(sut.assessment.experiment).toBe(family);
      expect(sut.familySource).toBe('text');
    });

    it('answers success with a reliability and a summary on clean data', () => {
      const trace = generateCalibrationTrace(family, SEEDS[1]!, { relativeNoise: 0.02 });
      const sut = assessCalibration(trace.series, { experiment: family, xUnit: trace.xUnit });
      expect(sut.assessment.status).toBe('success');
      expect(sut.assessment.reliability).toBeGreaterThan(0.5);
      expect(sut.assessment.fit!.r_squared).toBeGreaterThan(0.9);
      expect(sut.content).toContain('Status: success');
    });
  });

  it('says no-signal for pure noise', () => {
    const random = createSeededRandom(11);
    const x = Array.from({ length: 80 }, (_, i) => i * 0.01);
    const y = x.map(() => 0.5 + 0.05 * random.normal());
    for (const experiment of ['rabi-amplitude', 'ramsey', 'resonator-spectroscopy', 't1']) {
      expect(assessCalibration([{ x, y }], { experiment }).assessment.status).toBe('no-signal');
    }
  });

  it('says needs-adjustment when the DRAG crossing lies outside the scan', () => {
    const x = Array.from({ length: 30 }, (_, i) => -2 + (i * 4) / 29);
    const random = createSeededRandom(5);
    const sut = assessCalibration(
      [
        { x, y: x.map((v) => 0.2 * (v - 4) + 0.01 * random.normal()) },
        { x, y: x.map((v) => -0.15 * (v - 4) + 0.01 * random.normal()) },
      ],
      { experiment: 'drag' },
    );
    expect(sut.assessment.status).toBe('needs-adjustment');
    expect(sut.assessment.fit!.parameters.crossing!.value).toBeCloseTo(4, 0);
    expect(sut.assessment.next_step).toContain('outside the scanned range');
  });

  it('says needs-adjustment when a T1 scan is too short for the decay', () => {
    const x = Array.from({ length: 50 }, (_, i) => i);
    const random = createSeededRandom(3);
    const sut = assessCalibration([{ x, y: x.map((t) => Math.exp(-t / 100) + 0.005 * random.normal()) }], { experiment: 't1', xUnit: 'µs' });
    expect(sut.assessment.status).toBe('needs-adjustment');
    expect(sut.assessment.fit!.parameters.t1!.value).toBeGreaterThan(80);
  });

  it('says needs-adjustment when the π pulse lies beyond the amplitude scan', () => {
    const x = Array.from({ length: 50 }, (_, i) => i * 0.01);
    const sut = assessCalibration([{ x, y: x.map((a) => 0.5 * (1 - Math.cos((Math.PI * a) / 0.8))) }], { experiment: 'rabi-amplitude' });
    expect(['needs-adjustment', 'no-signal']).toContain(sut.assessment.status);
  });

  it('detects families from shape alone (no text)', () => {
    for (const family of ['t1', 'rabi-amplitude', 'drag', 'resonator-spectroscopy', 'qubit-spectroscopy'] as const) {
      const trace = generateCalibrationTrace(family, SEEDS[2]!, { relativeNoise: 0.03 });
      expect([family, assessCalibration(trace.series).assessment.experiment]).toEqual([family, family]);
    }
  });

  it('rejects mismatched arrays with a message saying what came', () => {
    expect(() => assessCalibration([{ x: [1, 2, 3, 4, 5], y: [1, 2] }])).toThrow('expected x and y of equal length; got 5 and 2');
  });
});

describe(levenbergMarquardt.name, () => {
  it('recovers the parameters of an exact exponential and reports small stderr', () => {
    const x = Array.from({ length: 40 }, (_, i) => i);
    const y = x.map((t) => 2 * Math.exp(-t / 7) + 0.3);
    const sut = levenbergMarquardt((t, [a, r, b]) => a! * Math.exp(-r! * t) + b!, x, y, [1, 0.5, 0]);
    expect(sut.parameters[0]).toBeCloseTo(2, 6);
    expect(1 / sut.parameters[1]!).toBeCloseTo(7, 5);
    expect(sut.rSquared).toBeCloseTo(1, 9);
  });
});

describe('points read from a plot', () => {
  it('fits data whose x values repeat (several points in one pixel column) without a runaway frequency grid', () => {
    const x = Array.from({ length: 120 }, (_, i) => Math.floor(i / 2) * 0.01);
    const y = x.map((a) => 0.5 * (1 - Math.cos((Math.PI * a) / 0.2)));
    const sut = assessCalibration([{ x, y }], { experiment: 'rabi-amplitude' });
    expect(sut.assessment.fit!.parameters.pi_amplitude!.value).toBeCloseTo(0.2, 3);
  });
});
