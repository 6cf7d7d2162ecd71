// API tests of the Coulomb-diamond models through the real system (gateway → NATS → worker → results):
// nominal shapes, a simulated map with exact vertices, plots, wrong shapes (422) and pure noise (nothing found).
import { encodeNpy } from '#qdc/arrays';
import { MODEL_CATALOGUE } from '#qdc/characterization';
import { generateCoulombDiamondMap, tuningSeeds, type CoulombDiamondMap } from '#qdc/device-physics';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const IDS = ['coulomb-diamond-segmenter-v0', 'coulomb-diamond-detector-v0', 'coulomb-diamond-detector-v1', 'coulomb-diamond-detector-v2'];
const sizeOf = (id: string): number => (id === 'coulomb-diamond-detector-v0' ? 256 : 128);
type Vertices = [number, number][];

describe('Coulomb-diamond models through the control API', () => {
  let sut: TestSystem;
  let token: string;
  const maps = new Map<number, CoulombDiamondMap>();
  const mapOf = (size: number): CoulombDiamondMap => {
    if (!maps.has(size))
      maps.set(size, generateCoulombDiamondMap(tuningSeeds(1, 9_700)[0]!, { rows: size, cols: size, readout: 'current', snrRange: [30, 40] }));
    return maps.get(size)!;
  };
  /** What each id takes: the raw map, or (detector-v0) the blockade mask. */
  const inputOf = (id: string): Float64Array => {
    const map = mapOf(sizeOf(id));
    return id === 'coulomb-diamond-detector-v0' ? Float64Array.from(map.blockade) : map.data;
  };
  const post = (model: string, shape: number[], data: Float64Array, extra: Record<string, string> = {}) =>
    fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: multipart({ model, ...extra }, { name: 'diamonds.npy', bytes: encodeNpy({ shape, data }) }),
    });

  beforeAll(async () => {
    sut = await startSystem();
    token = await sut.createKey('diamond-lab', 'control');
  });
  afterAll(async () => {
    await sut?.stop();
  });

  it('lists every Coulomb-diamond id', async () => {
    const listed = (await (await fetch(`${sut.baseUrl}/v0/models?limit=1000`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }[];
    for (const id of IDS) {
      expect(MODEL_CATALOGUE.map((m) => m.id)).toContain(id);
      expect(listed.map((m) => m.id)).toContain(id);
    }
  });

  it.each(IDS.filter((id) => id.includes('detector')))('%s: finds the complete diamonds of a simulated map within 4 px, plots them', async (id) => {
    const size = sizeOf(id);
    const map = mapOf(size);
    const res = await post(id, [size, size], inputOf(id), { plot: 'true' });
    expect(res.status).toBe(200);
    const out = (await res.json()).output as { diamond_vertices: Vertices[]; plot: string; charging_energy?: number[] };
    const complete = map.diamonds.filter((d) => d.complete);
    expect(complete.length).toBeGreaterThan(0);
    for (const truth of complete) {
      const vertices = [truth.left, truth.top, truth.right, truth.bottom];
      const found = out.diamond_vertices.find((d) => d.every((v, k) => Math.hypot(v[0] - vertices[k]![0], v[1] - vertices[k]![1]) <= 4));
      expect(found).toBeDefined();
    }
    expect(out.plot).toMatch(/^data:image\/svg\+xml;base64,/);
    if (id === 'coulomb-diamond-detector-v2') expect(out.charging_energy).toHaveLength(out.diamond_vertices.length);
  });

  it('coulomb-diamond-segmenter-v0: returns a (128, 128) 0/1 mask that overlaps the true blockade (IoU ≥ 0.85)', async () => {
    const map = mapOf(128);
    const res = await post('coulomb-diamond-segmenter-v0', [128, 128], map.data);
    expect(res.status).toBe(200);
    const mask = (await res.json()).output.segmentation as number[][];
    expect(mask).toHaveLength(128);
    let both = 0;
    let either = 0;
    mask.forEach((row, r) => {
      row.forEach((v, c) => {
        expect([0, 1]).toContain(v);
        const truth = map.blockade[r * 128 + c] === 1;
        if (v === 1 && truth) both++;
        if (v === 1 || truth) either++;
      });
    });
    expect(both / either).toBeGreaterThanOrEqual(0.85);
  });

  it.each(IDS)('%s: a map smaller than 32 × 32 (or not 2-D) is a 422 naming the expected shape', async (id) => {
    const size = sizeOf(id);
    const res = await post(id, [size, 16], new Float64Array(size * 16));
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain('at least (32, 32)');
    const flat = await post(id, [size * size], new Float64Array(size * size));
    expect(flat.status).toBe(422);
  });

  it.each(IDS)('%s: pure noise finds nothing (not an error)', async (id) => {
    const size = sizeOf(id);
    let state = 11;
    const noise = Float64Array.from({ length: size * size }, () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31 - 0.5;
    });
    const res = await post(id, [size, size], id === 'coulomb-diamond-detector-v0' ? noise.map((v) => (v > 0.45 ? 1 : 0)) : noise);
    expect(res.status).toBe(200);
    const out = (await res.json()).output;
    if (id === 'coulomb-diamond-segmenter-v0') expect((out.segmentation as number[][]).flat().filter((v) => v === 1).length).toBe(0);
    else expect(out.diamond_vertices).toEqual([]);
  });
});
