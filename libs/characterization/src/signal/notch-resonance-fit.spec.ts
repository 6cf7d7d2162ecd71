import { fitNotchResonance, notchPowerFactor } from './notch-resonance-fit.js';

describe(fitNotchResonance.name, () => {
  it('recovers centre, linewidth and coupling of a noiseless Fano-rotated notch', () => {
    const n = 301;
    const truth = { centre: 151.3, linewidth: 12.5, d: 0.7, phi: 0.3, b: 2.0 };
    const power = Float64Array.from({ length: n }, (_, x) => truth.b * notchPowerFactor((2 * (x - truth.centre)) / truth.linewidth, truth.d, truth.phi));
    const sut = fitNotchResonance(power, 100, 200, { centre: 150, linewidth: 8, couplingRatio: 0.5, baseline: 1.8 });
    expect(sut).not.toBeNull();
    expect(sut!.centre).toBeCloseTo(truth.centre, 2);
    expect(sut!.linewidth).toBeCloseTo(truth.linewidth, 2);
    expect(sut!.couplingRatio).toBeCloseTo(truth.d, 3);
    expect(sut!.phi).toBeCloseTo(truth.phi, 3);
  });

  it('gives 1 − |S21|² a Lorentzian FWHM of fr/Ql at φ = 0', () => {
    const d = 0.6;
    const atHalf = 1 - notchPowerFactor(1, d, 0);
    expect(atHalf / (1 - notchPowerFactor(0, d, 0))).toBeCloseTo(0.5, 12);
  });
});
