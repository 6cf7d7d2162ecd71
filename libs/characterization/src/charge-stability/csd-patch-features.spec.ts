// Sensor-jump removal on simulated sensor patches (tuning seeds 9001–9060, no nuisances): a step added in
// acquisition order to a patch without transitions is found and undone; clean patches keep their data.
import { generateChargeStabilityDiagram, tuningSeeds } from '#qdc/device-physics';
import { createPatchWorkspace, removePlane, removeSensorJumps } from './csd-patch-features.js';

const SIZE = 16;
const patches = tuningSeeds(60, 9_000).map((seed) =>
  generateChargeStabilityDiagram(seed, { rows: SIZE, cols: SIZE, kind: 'none', readout: 'sensor', nuisances: false }),
);

function planeRemoved(data: Float64Array): { ws: ReturnType<typeof createPatchWorkspace>; flat: Float64Array } {
  const ws = createPatchWorkspace(SIZE, SIZE);
  removePlane(data, 0, SIZE, ws);
  return { ws, flat: Float64Array.from(ws.flat) };
}

describe(removeSensorJumps.name, () => {
  it('removes nothing from ≥ 95 % of patches without jumps (57 of 60 here)', () => {
    const removed = patches.map((p) => removeSensorJumps(planeRemoved(p.data).ws));
    expect(removed.filter((n) => n > 0).length).toBeLessThanOrEqual(3);
  });

  it('undoes a 4 σ step in acquisition order on ≥ 85 % of background patches (17 of 19 here) (to within 1 σ, up to a plane)', () => {
    const background = patches.filter((p) => p.scene === 'background');
    expect(background.length).toBeGreaterThanOrEqual(15);
    const restored = background.filter((p, k) => {
      const at = 3 * SIZE + 2 + ((k * 37) % (10 * SIZE)); // rows 3–12, any column
      const { ws } = planeRemoved(Float64Array.from(p.data, (v, i) => (i >= at ? v + 4 * p.noiseStd : v)));
      if (removeSensorJumps(ws) !== 1) return false;
      // The step also tilts the fitted plane: compare the difference to the jump-free patch after a plane refit.
      const reference = planeRemoved(p.data).flat;
      const residual = planeRemoved(Float64Array.from(ws.flat, (v, i) => v - reference[i]!)).flat.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      return residual < p.noiseStd;
    });
    expect(restored.length).toBeGreaterThanOrEqual(0.85 * background.length);
  });
});
