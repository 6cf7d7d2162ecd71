import { encodeNpy } from '#qdc/arrays';
import { generateCoulombBlockadeTrace, generatePinchOffTrace, generateTurnOnTrace, tuningSeeds } from '#qdc/device-physics';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const npy = (data: ArrayLike<number>, shape: number[] = [data.length]) => encodeNpy({ shape, data });

function lcgNoise(length: number): Float64Array {
  let state = 7;
  return Float64Array.from({ length }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  });
}

const SEED = tuningSeeds(1, 2500)[0]!;
const blockade = (length: number) => generateCoulombBlockadeTrace(SEED, { length, kind: 'blockade', snrRange: [30, 60] });
const pinch = generatePinchOffTrace(SEED, { kind: 'pinch-off', snrRange: [50, 100] });
const turn = generateTurnOnTrace(SEED, { kind: 'turn-on', snrRange: [50, 100] });

interface Case {
  id: string;
  nominal: number;
  input: Float64Array;
  check(output: Record<string, unknown>): void;
  nothing(output: Record<string, unknown>): void;
}

const classifierCase = (id: string, nominal: number, scored: boolean): Case => ({
  id,
  nominal,
  input: blockade(nominal).trace,
  check: (o) => {
    expect(o['classification']).toBe(true);
    if (scored) expect(o['score'] as number).toBeGreaterThan(0.5);
  },
  nothing: (o) => {
    expect(o['classification']).toBe(false);
    if (scored) expect(o['score'] as number).toBeLessThan(0.5);
  },
});

const CASES: Case[] = [
  classifierCase('coulomb-blockade-classifier-v0', 100, false),
  classifierCase('coulomb-blockade-classifier-v1', 100, false),
  classifierCase('coulomb-blockade-classifier-v2', 128, true),
  classifierCase('coulomb-blockade-classifier-v3', 128, true),
  {
    id: 'pinch-off-classifier-v0',
    nominal: 100,
    input: pinch.trace,
    check: (o) => expect(o['classification']).toBe(true),
    nothing: (o) => expect(o['classification']).toBe(false),
  },
  {
    id: 'pinch-off-parameter-extractor-v0',
    nominal: 100,
    input: pinch.trace,
    check: (o) => {
      expect(Math.abs((o['cut_off_index'] as number) - pinch.cutOff!)).toBeLessThanOrEqual(2);
      expect(Math.abs((o['transition_index'] as number) - pinch.transition!)).toBeLessThanOrEqual(2);
      expect(Math.abs((o['saturation_index'] as number) - pinch.saturation!)).toBeLessThanOrEqual(2);
    },
    nothing: (o) => expect([o['cut_off_index'], o['transition_index'], o['saturation_index']]).toEqual([null, null, null]),
  },
  {
    id: 'turn-on-classifier-v0',
    nominal: 100,
    input: turn.trace,
    check: (o) => expect(o['classification']).toBe(true),
    nothing: (o) => expect(o['classification']).toBe(false),
  },
  {
    id: 'turn-on-parameter-extractor-v0',
    nominal: 100,
    input: turn.trace,
    check: (o) => expect(Math.abs((o['threshold_index'] as number) - turn.thresholdIndex!)).toBeLessThanOrEqual(2),
    nothing: (o) => expect(o['threshold_index']).toBeNull(),
  },
];

describe('1-D models through the control API (real system)', () => {
  let sut: TestSystem;
  let token: string;
  const run = (model: string, bytes: Uint8Array, extra: Record<string, string> = {}) =>
    fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: multipart({ model, ...extra }, { name: 'trace.npy', bytes }),
    });

  beforeAll(async () => {
    sut = await startSystem();
    token = await sut.createKey('one-d-lab', 'control');
  });
  afterAll(async () => {
    await sut?.stop();
  });

  it('lists every 1-D id', async () => {
    const listed = (await (await fetch(`${sut.baseUrl}/v0/models?limit=1000`, { headers: { authorization: `Bearer ${token}` } })).json()).map(
      (m: { id: string }) => m.id,
    );
    for (const c of CASES) expect(listed).toContain(c.id);
  });

  it.each(CASES.map((c) => [c.id, c] as const))(
    '%s: finds the simulated truth, rejects a wrong shape, plots, and answers noise with nothing found',
    async (_, c) => {
      const ok = await run(c.id, npy(c.input));
      expect(ok.status).toBe(200);
      c.check((await ok.json()).output);

      const wrong = await run(c.id, npy(new Float64Array(2 * c.nominal), [2, c.nominal]));
      expect(wrong.status).toBe(422);
      expect((await wrong.json()).detail[0].msg).toMatch(new RegExp(`expected a 1-D trace of length (≥ \\d+|${c.nominal}); got shape \\[2, ${c.nominal}\\]`));

      const plotted = await run(c.id, npy(c.input), { plot: 'true' });
      expect(plotted.status).toBe(200);
      expect((await plotted.json()).output.plot).toMatch(/^data:image\/svg\+xml;base64,/);

      const noise = await run(c.id, npy(lcgNoise(c.nominal)));
      expect(noise.status).toBe(200);
      c.nothing((await noise.json()).output);

      const nan = await run(c.id, npy(Float64Array.from(c.input, (v, i) => (i === 3 ? Number.NaN : v))));
      expect(nan.status).toBe(422);
    },
  );
});
