import { generateRealisticDiamondMap } from './realistic-diamond-map.generator.js';

const none = { powerLaw: false, broadening: false, cotunnelling: false, saturation: false, gateJump: false, heightDrift: 0 };

describe(generateRealisticDiamondMap.name, () => {
  it('power-law maps span a large dynamic range (≥ 10² over the near-zero-bias first step) and stay blockaded (no sequential current) inside the labelled diamonds', () => {
    for (const seed of [11, 12, 13]) {
      const sut = generateRealisticDiamondMap(seed, { ...none, powerLaw: true, readout: 'current' });
      expect(sut.dynamicRange).toBeGreaterThanOrEqual(1e2);
      expect(sut.dynamicRange).toBeLessThanOrEqual(3e5);
      // Inside a diamond near zero bias (blockade pixel with all 8 neighbours blockaded, |bias| ≤ E_C/4) |I| ≪ the
      // largest current. (Near the top/bottom vertices the growth amplifies the thermal tail: physical, not tested.)
      let inside = 0;
      let max = 0;
      for (const v of sut.clean) max = Math.max(max, Math.abs(v));
      for (let y = 1; y < sut.rows - 1; y++) {
        for (let x = 1; x < sut.cols - 1; x++) {
          const i = y * sut.cols + x;
          if (Math.abs(y - sut.zeroBiasRow) > sut.chargingEnergy / 4) continue;
          if ([-1, 0, 1].every((dy) => [-1, 0, 1].every((dx) => sut.blockade[i + dy * sut.cols + dx]))) inside = Math.max(inside, Math.abs(sut.clean[i]!));
        }
      }
      expect(inside).toBeLessThan(0.05 * max);
    }
  });

  it('labels each complete diamond with its left/right vertices on the zero-bias row and top/bottom on either side', () => {
    const sut = generateRealisticDiamondMap(21, { ...none, heightDrift: 0.45 });
    const complete = sut.diamonds.filter((d) => d.complete);
    expect(complete.length).toBeGreaterThan(0);
    for (const d of complete) {
      expect(d.left[1]).toBe(sut.zeroBiasRow);
      expect(d.right[1]).toBe(sut.zeroBiasRow);
      expect(d.top[1]).toBeLessThan(sut.zeroBiasRow);
      expect(d.bottom[1]).toBeGreaterThan(sut.zeroBiasRow);
      expect(d.left[0]).toBeLessThan(d.right[0]);
    }
    // Heights drift along the gate: the diamonds differ in charging energy.
    const energies = sut.diamonds.map((d) => d.chargingEnergy);
    expect(Math.max(...energies) / Math.min(...energies)).toBeGreaterThan(1.1);
  });

  it('marks diamonds that straddle a gate jump as not complete, and draws every listed variation', () => {
    const sut = generateRealisticDiamondMap(31, { ...none, gateJump: true, saturation: true, cotunnelling: true });
    expect(sut.variations).toEqual(expect.arrayContaining(['gate-jump', 'saturation', 'cotunnelling']));
    // Saturation: the rail value repeats (clipped pixels share one value).
    const counts = new Map<number, number>();
    for (const v of sut.data) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThan(50);
  });

  it("generates non-square grids with the caller's shape", () => {
    const sut = generateRealisticDiamondMap(41, { rows: 500, cols: 70 });
    expect(sut.data).toHaveLength(500 * 70);
    expect(sut.blockade).toHaveLength(500 * 70);
    expect(sut.diamonds.some((d) => d.complete)).toBe(true);
  });
});
