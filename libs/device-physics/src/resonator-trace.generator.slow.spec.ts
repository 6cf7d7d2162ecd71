import { generateRealisticResonatorTrace, kerrPulledDetuning, resonanceFactor, REALISTIC_RESONATOR_SNR_MIN } from './resonator-trace.generator.js';
import { tuningSeeds } from './seeds.js';

describe(generateRealisticResonatorTrace.name, () => {
  it('is deterministic per seed', () => {
    const a = generateRealisticResonatorTrace(11);
    expect(Array.from(generateRealisticResonatorTrace(11).trace)).toEqual(Array.from(a.trace));
  });

  it('samples every documented variation over 300 tuning seeds', () => {
    const seen = {
      reflection: 0,
      notch: 0,
      dB: 0,
      linear: 0,
      zoomed: 0,
      kerr: 0,
      steps: 0,
      ripple: 0,
      coarse: 0,
      long: 0,
      uneven: 0,
      multi: 0,
      none: 0,
      overCoupled: 0,
      underCoupled: 0,
    };
    for (const seed of tuningSeeds(300, 100)) {
      const t = generateRealisticResonatorTrace(seed);
      seen[t.mode]++;
      seen[t.format]++;
      if (t.zoomed) seen.zoomed++;
      if (t.dips.some((d) => d.kerr !== 0)) seen.kerr++;
      if (t.steps > 0) seen.steps++;
      if (t.rippleAmplitude > 0) seen.ripple++;
      if (t.trace.length <= 120) seen.coarse++;
      if (t.trace.length >= 5000) seen.long++;
      if (t.grid !== 'uniform') seen.uneven++;
      if (t.dips.length > 1) seen.multi++;
      if (t.dips.length === 0) seen.none++;
      if (t.dips.some((d) => d.qiOverQc > 1)) seen.overCoupled++;
      if (t.dips.some((d) => d.qiOverQc < 1)) seen.underCoupled++;
      expect(t.trace.length).toBeGreaterThanOrEqual(50);
      expect(t.trace.length).toBeLessThanOrEqual(20_000);
      expect(t.snr).toBeGreaterThanOrEqual(REALISTIC_RESONATOR_SNR_MIN);
      for (const d of t.dips) {
        expect(Math.abs(d.phi)).toBeLessThanOrEqual(0.5);
        expect(d.index).toBeGreaterThanOrEqual(0);
        expect(d.index).toBeLessThan(t.trace.length);
        expect(d.width).toBeGreaterThan(0);
      }
      if (t.format === 'linear') expect(t.trace.every((v) => v >= 0)).toBe(true);
    }
    for (const [key, count] of Object.entries(seen)) expect({ key, present: count > 0 }).toEqual({ key, present: true });
  });

  it('labels the zoomed dip with a FWHM of the requested fraction of the span', () => {
    const t = generateRealisticResonatorTrace(5, { zoomed: true, fill: 0.5, length: 1000, dipCount: 1, kerr: false });
    expect(t.dips[0]!.width / 999).toBeCloseTo(0.5, 2);
  });

  it('puts the label at the bottom of the noiseless lineshape: off fr for a Fano dip, at fr for φ = 0', () => {
    const fano = generateRealisticResonatorTrace(7, {
      dipCount: 1,
      phi: 0.5,
      length: 2001,
      zoomed: true,
      fill: 0.1,
      kerr: false,
      snrRange: [1e5, 1e5],
      ripple: false,
      steps: false,
      grid: 'uniform',
    });
    const symmetric = generateRealisticResonatorTrace(7, {
      dipCount: 1,
      phi: 0,
      length: 2001,
      zoomed: true,
      fill: 0.1,
      kerr: false,
      snrRange: [1e5, 1e5],
      ripple: false,
      steps: false,
      grid: 'uniform',
    });
    expect(Math.abs(symmetric.dips[0]!.index - symmetric.dips[0]!.centre)).toBeLessThanOrEqual(1);
    expect(Math.abs(fano.dips[0]!.index - fano.dips[0]!.centre)).toBeGreaterThan(5);
  });

  it('follows Probst Eq. (3) in reflection: critical coupling (2Ql/Qc = 1) empties the dip', () => {
    const [re, im] = resonanceFactor(0, { couplingRatio: 0.5, phi: 0, kerr: 0 }, 'reflection');
    expect(Math.hypot(re, im)).toBeCloseTo(0, 12);
    const [nre, nim] = resonanceFactor(0, { couplingRatio: 0.5, phi: 0, kerr: 0 }, 'notch');
    expect(Math.hypot(nre, nim)).toBeCloseTo(0.5, 12);
  });

  it('makes a bistable Kerr dip with an abrupt edge on the side the resonance is pulled to', () => {
    // Above the Duffing critical point the pulled detuning jumps between neighbouring drive detunings.
    let jump = 0;
    let at = 0;
    for (let y = -6; y < 8; y += 0.01) {
      const d = Math.abs(kerrPulledDetuning(y + 0.01, 3) - kerrPulledDetuning(y, 3));
      if (d > jump) [jump, at] = [d, y];
    }
    expect(jump).toBeGreaterThan(1);
    expect(at).toBeGreaterThan(0);
    // Below it (ξ = 0.5) the response is single-valued and smooth.
    let smooth = 0;
    for (let y = -6; y < 8; y += 0.01) smooth = Math.max(smooth, Math.abs(kerrPulledDetuning(y + 0.01, 0.5) - kerrPulledDetuning(y, 0.5)));
    expect(smooth).toBeLessThan(0.05);
  });

  it('writes dB as 20 log10 |S| of the same complex trace', () => {
    const linear = generateRealisticResonatorTrace(5, { format: 'linear', length: 201 });
    const db = generateRealisticResonatorTrace(5, { format: 'dB', length: 201 });
    for (let i = 0; i < 201; i += 20) expect(db.trace[i]!).toBeCloseTo(20 * Math.log10(linear.trace[i]!), 9);
    for (let i = 0; i < 201; i += 20) expect(linear.trace[i]!).toBeCloseTo(Math.hypot(linear.real[i]!, linear.imag[i]!), 12);
  });
});
