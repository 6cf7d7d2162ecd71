import { generateOffsetPinchOffTrace, OFFSET_PINCH_OFF_LENGTH_RANGE, OFFSET_PINCH_OFF_OFFSET_RANGE } from './offset-pinch-off.generator.js';
import { tuningSeeds } from '../seeds.js';

describe(generateOffsetPinchOffTrace.name, () => {
  it('makes 1 000–10 000-sample sweeps with an offset of 1–8 % of the open level, labels inside the window', () => {
    for (const seed of tuningSeeds(30, 7700)) {
      const t = generateOffsetPinchOffTrace(seed);
      const n = t.trace.length;
      expect(n).toBeGreaterThanOrEqual(OFFSET_PINCH_OFF_LENGTH_RANGE[0]);
      expect(n).toBeLessThanOrEqual(OFFSET_PINCH_OFF_LENGTH_RANGE[1]);
      expect(Math.abs(t.offsetRatio)).toBeGreaterThanOrEqual(OFFSET_PINCH_OFF_OFFSET_RANGE[0]);
      expect(Math.abs(t.offsetRatio)).toBeLessThanOrEqual(OFFSET_PINCH_OFF_OFFSET_RANGE[1]);
      if (t.isPinchOff) {
        for (const label of [t.cutOff!, t.transition!, t.saturation!]) {
          expect(label).toBeGreaterThan(0);
          expect(label).toBeLessThan(n - 1);
        }
        // The saturation knee lies on the open side, the cut-off on the closed side.
        expect(Math.sign(t.cutOff! - t.transition!)).toBe(t.closing ? 1 : -1);
      } else {
        expect(t.transition).toBeNull();
      }
    }
  });

  it('is deterministic per seed', () => {
    expect(Array.from(generateOffsetPinchOffTrace(5).trace)).toEqual(Array.from(generateOffsetPinchOffTrace(5).trace));
  });
});
