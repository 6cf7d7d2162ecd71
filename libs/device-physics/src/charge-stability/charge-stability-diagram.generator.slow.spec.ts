// Label consistency of the constant-interaction charge-stability simulator.
import { generateChargeStabilityDiagram, groundStateLabels, familyAngleDegrees, MIN_FAMILY_ANGLE_DEGREES } from './charge-stability-diagram.generator.js';
import { tuningSeeds } from '../seeds.js';

describe('generateChargeStabilityDiagram', () => {
  it('is deterministic from the seed', () => {
    const a = generateChargeStabilityDiagram(5, { rows: 32 });
    const b = generateChargeStabilityDiagram(5, { rows: 32 });
    expect(Array.from(a.data)).toEqual(Array.from(b.data));
  });

  it('labels the requested class, double dots with two line families ≥ 20° apart', () => {
    for (const seed of tuningSeeds(20)) {
      for (const kind of ['double', 'single', 'none'] as const) {
        const d = generateChargeStabilityDiagram(seed, { rows: 48, kind });
        expect(d.label).toBe(kind);
        if (kind === 'double') expect(familyAngleDegrees(d.model!)).toBeGreaterThanOrEqual(MIN_FAMILY_ANGLE_DEGREES);
        if (kind === 'none') expect(d.segments).toHaveLength(0);
      }
    }
  });

  it('puts every mask pixel within 1 px of an exact segment and gives regions one label per charge state', () => {
    for (const seed of tuningSeeds(10, 100)) {
      const d = generateChargeStabilityDiagram(seed, { rows: 64, kind: 'double' });
      for (let i = 0; i < d.transitionMask.length; i++) {
        if (!d.transitionMask[i]) {
          expect(d.regions[i]).toBeGreaterThan(0);
          continue;
        }
        expect(d.regions[i]).toBe(0);
        const x = i % 64;
        const y = Math.floor(i / 64);
        const near = d.segments.some((s) => {
          const l = Math.hypot(s.x2 - s.x1, s.y2 - s.y1) || 1;
          const t = Math.max(0, Math.min(1, ((x - s.x1) * (s.x2 - s.x1) + (y - s.y1) * (s.y2 - s.y1)) / (l * l)));
          return Math.hypot(x - s.x1 - t * (s.x2 - s.x1), y - s.y1 - t * (s.y2 - s.y1)) <= 1;
        });
        expect(near).toBe(true);
      }
      const stateOf = new Map<number, string>();
      for (let i = 0; i < d.regions.length; i++) {
        if (!d.regions[i]) continue;
        const state = `${d.occupation1[i]},${d.occupation2[i]}`;
        expect(stateOf.get(d.regions[i]!) ?? state).toBe(state);
        stateOf.set(d.regions[i]!, state);
      }
    }
  });

  it('fills electrons one at a time: neighbouring ground states differ by one electron or an interdot move', () => {
    const d = generateChargeStabilityDiagram(11, { rows: 64, kind: 'double', nuisances: false });
    const labels = groundStateLabels(d.model!, 64, 64);
    expect(labels.segments.every((s) => s.kind !== 'other')).toBe(true);
    expect(labels.familyCrossings.dot1).toBeGreaterThan(16);
    expect(labels.familyCrossings.dot2).toBeGreaterThan(16);
  });

  it('labels each segment with its noise-free contrast: clean sensor steps are visible, transport lines carry current, interdot lines none', () => {
    const sensor = generateChargeStabilityDiagram(tuningSeeds(1, 200)[0]!, {
      rows: 64,
      kind: 'double',
      readout: 'sensor',
      snrRange: [30, 40],
      nuisances: false,
    });
    const steps = sensor.segments
      .filter((s) => s.kind !== 'interdot')
      .map((s) => s.visibility)
      .sort((a, b) => a - b);
    expect(steps.length).toBeGreaterThan(4);
    expect(steps[steps.length >> 1]).toBeGreaterThan(10);
    expect(sensor.segments.every((s) => s.contrast >= 0 && Number.isFinite(s.visibility))).toBe(true);
    const transport = generateChargeStabilityDiagram(tuningSeeds(1, 201)[0]!, {
      rows: 64,
      kind: 'double',
      readout: 'transport',
      snrRange: [30, 40],
      nuisances: false,
    });
    const dots = transport.segments.filter((s) => s.kind !== 'interdot');
    expect(dots.every((s) => s.visibility >= 4)).toBe(true);
    const interdot = transport.segments.filter((s) => s.kind === 'interdot' && Math.hypot(s.x2 - s.x1, s.y2 - s.y1) > 6);
    for (const s of interdot) expect(s.contrast).toBeLessThan(0.5 * Math.min(...dots.map((d) => d.contrast)));
  });
});
