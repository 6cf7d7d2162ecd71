import { tuningSeeds } from '../seeds.js';
import { DIAMOND_SLOPE_RANGE, generateCoulombDiamondMap, type CoulombDiamondLabel } from './coulomb-diamond-map.generator.js';

const SEEDS = tuningSeeds(30, 3000);

function insideDiamond(d: CoulombDiamondLabel, x: number, y: number): boolean {
  const polygon = [d.left, d.top, d.right, d.bottom];
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describe(generateCoulombDiamondMap.name, () => {
  it('is deterministic and has the requested shape', () => {
    const a = generateCoulombDiamondMap(SEEDS[0]!);
    const b = generateCoulombDiamondMap(SEEDS[0]!);
    expect(a.data).toEqual(b.data);
    expect(a.data.length).toBe(128 * 128);
    const big = generateCoulombDiamondMap(SEEDS[0]!, { rows: 256, cols: 256 });
    expect(big.blockade.length).toBe(256 * 256);
  });

  it('labels parallelograms: zero-bias left/right vertices, top/bottom at ± the charging energy, lever arm = E / width', () => {
    for (const seed of SEEDS) {
      const map = generateCoulombDiamondMap(seed);
      expect(map.diamonds.filter((d) => d.complete).length).toBeGreaterThanOrEqual(1);
      for (const d of map.diamonds) {
        expect(d.left[1]).toBeCloseTo(map.zeroBiasRow, 9);
        expect(d.right[1]).toBeCloseTo(map.zeroBiasRow, 9);
        expect(d.left[0]).toBeLessThan(d.right[0]);
        expect(d.top[1]).toBeCloseTo(map.zeroBiasRow - d.chargingEnergy, 9);
        expect(d.bottom[1]).toBeCloseTo(map.zeroBiasRow + d.chargingEnergy, 9);
        expect(d.leverArm).toBeCloseTo(d.chargingEnergy / (d.right[0] - d.left[0]), 9);
        expect(d.leverArm).toBeCloseTo(map.leverArm, 9);
        // Opposite edges are parallel (two slopes), within the slope range.
        const s1 = Math.abs((d.top[1] - d.left[1]) / (d.top[0] - d.left[0]));
        const s2 = Math.abs((d.right[1] - d.bottom[1]) / (d.right[0] - d.bottom[0]));
        const s3 = Math.abs((d.right[1] - d.top[1]) / (d.right[0] - d.top[0]));
        expect(s1).toBeCloseTo(s2, 6);
        for (const s of [s1, s3]) {
          expect(s).toBeGreaterThanOrEqual(DIAMOND_SLOPE_RANGE[0] - 1e-9);
          expect(s).toBeLessThanOrEqual(DIAMOND_SLOPE_RANGE[1] + 1e-9);
        }
      }
    }
  });

  it('blockade mask = pixel centres inside the labelled diamonds, where the clean current vanishes', () => {
    for (const seed of SEEDS.slice(0, 10)) {
      const map = generateCoulombDiamondMap(seed, { readout: 'current' });
      let disagree = 0;
      let blockaded = 0;
      const insideCurrents: number[] = [];
      let maxCurrent = 0;
      for (const v of map.clean) maxCurrent = Math.max(maxCurrent, Math.abs(v));
      for (let y = 0; y < map.rows; y++) {
        for (let x = 0; x < map.cols; x++) {
          const i = y * map.cols + x;
          const inside = map.diamonds.some((d) => insideDiamond(d, x, y));
          if (inside !== (map.blockade[i] === 1)) disagree++;
          if (map.blockade[i]) {
            blockaded++;
            insideCurrents.push(Math.abs(map.clean[i]!));
          }
        }
      }
      expect(disagree).toBeLessThanOrEqual(0.002 * map.rows * map.cols);
      expect(blockaded).toBeGreaterThan(0.2 * map.rows * map.cols);
      // Thermally broadened near the edges, suppressed inside: the median blockade current is ≤ 1 % of the largest.
      insideCurrents.sort((a, b) => a - b);
      expect(insideCurrents[insideCurrents.length >> 1]!).toBeLessThan(0.01 * maxCurrent);
    }
  });

  it('conductance read-out is mostly dI/dV ≥ 0 (negative differential conductance only where slow states open)', () => {
    const map = generateCoulombDiamondMap(SEEDS[1]!, { readout: 'conductance' });
    let min = Infinity;
    let max = -Infinity;
    for (const v of map.clean) {
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    expect(min).toBeGreaterThan(-0.4 * max);
  });
});
