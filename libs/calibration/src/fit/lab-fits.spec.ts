import { createSeededRandom } from '#qdc/device-physics';
import { fitDecayWithFloor, fitDragCrossing, fitResonatorLine, fitSpectroscopyLines } from './lab-fits.js';

const linspace = (a: number, b: number, n: number) => Array.from({ length: n }, (_, i) => a + ((b - a) * i) / (n - 1));

describe(fitResonatorLine.name, () => {
  it('answers f_r of a Fano-asymmetric notch, not the dip minimum', () => {
    const random = createSeededRandom(1);
    const [fr, kappa, d, phi] = [5, 1e-3, 0.8, 0.6];
    const x = linspace(fr - 8e-3, fr + 8e-3, 401);
    const y = x.map((f) => {
      const w = (2 * (f - fr)) / kappa;
      const den = 1 + w * w;
      const re = 1 - (d * (Math.cos(phi) + w * Math.sin(phi))) / den;
      const im = -(d * (Math.sin(phi) - w * Math.cos(phi))) / den;
      return (1 + 5 * (f - fr)) * Math.hypot(re, im) + 0.005 * random.normal();
    });
    const minimum = x[y.indexOf(Math.min(...y))]!;
    expect(Math.abs(minimum - fr)).toBeGreaterThan(0.2 * kappa);
    const sut = fitResonatorLine({ x, y }, 'GHz', '');
    expect(Math.abs(sut!.summary.parameters.frequency!.value - fr)).toBeLessThan(0.05 * kappa);
    expect(sut!.summary.parameters.fwhm!.value).toBeCloseTo(kappa, 4);
  });
});

describe(fitSpectroscopyLines.name, () => {
  it('answers the stronger of two qubit lines', () => {
    const random = createSeededRandom(2);
    const x = linspace(4.99, 5.01, 201);
    const g = 1e-3;
    const y = x.map((f) => 0.3 / (1 + ((f - 5) / g) ** 2) + 0.15 / (1 + ((f - 5 - 3.5 * g) / g) ** 2) + 0.1 + 0.01 * random.normal());
    const sut = fitSpectroscopyLines({ x, y }, 'GHz', '');
    expect(Math.abs(sut!.summary.parameters.frequency!.value - 5)).toBeLessThan(0.1 * g);
    expect(sut!.summary.parameters.frequency_2!.value).toBeCloseTo(5 + 3.5 * g, 3);
  });
});

describe(fitDecayWithFloor.name, () => {
  it('fits T1 with a thermal floor and a readout glitch', () => {
    const random = createSeededRandom(3);
    const x = linspace(1, 150, 25);
    const y = x.map((t) => 0.2 + 0.7 * Math.exp(-t / 40) + 0.005 * random.normal());
    y[7]! += 0.08;
    const sut = fitDecayWithFloor({ x, y }, 't1', 'µs', '');
    expect(Math.abs(sut!.summary.parameters.t1!.value - 40) / 40).toBeLessThan(0.03);
    expect(sut!.summary.parameters.offset!.value).toBeCloseTo(0.2, 1);
  });
});

describe(fitDragCrossing.name, () => {
  it('answers the common crossing of three noisy sequences', () => {
    const random = createSeededRandom(4);
    const x = linspace(-3, 2, 31);
    const slopes = [0.3, -0.25, 0.6];
    const series = slopes.map((m) => ({ x, y: x.map((b) => 0.05 + m * (b + 0.7) + 0.08 * random.normal()) }));
    const sut = fitDragCrossing(series, '', '');
    expect(Math.abs(sut!.summary.parameters.crossing!.value + 0.7)).toBeLessThan(0.1 * 5);
    expect(sut!.summary.parameters.slope_3!.value).toBeCloseTo(0.6, 1);
  });
});
