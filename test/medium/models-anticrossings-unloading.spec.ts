// API tests of the anticrossing and electron-unloading models through the real system (gateway → NATS → worker →
// results); the (2, 801, 127) spectroscopy map (1.6 MB) travels through the object store.
import { encodeNpy } from '#qdc/arrays';
import { generateAnticrossingSpectroscopy, generateElectronUnloadingMap, tuningSeeds } from '#qdc/device-physics';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

describe('anticrossing and electron-unloading models through the control API', () => {
  let sut: TestSystem;
  let token: string;
  const post = (model: string, shape: number[], data: Float64Array, extra: Record<string, string> = {}) =>
    fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: multipart({ model, ...extra }, { name: 'map.npy', bytes: encodeNpy({ shape, data }) }),
    });
  const noise = (length: number): Float64Array => {
    let state = 11;
    return Float64Array.from({ length }, () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state / 2 ** 31;
    });
  };

  beforeAll(async () => {
    sut = await startSystem();
    token = await sut.createKey('issue5-lab', 'control');
  });
  afterAll(async () => {
    await sut?.stop();
  });

  it('lists the three ids', async () => {
    const listed = (await (await fetch(`${sut.baseUrl}/v0/models?limit=1000`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }[];
    for (const id of ['anticrossing-detector-v0', 'electron-unload-detector-v0', 'electron-unload-texture-detector-v0'])
      expect(listed.map((m) => m.id)).toContain(id);
  });

  it('anticrossing-detector-v0: finds the crossings of a simulated map with a plot, nothing in noise, 422 for a wrong shape', async () => {
    const t = generateAnticrossingSpectroscopy(tuningSeeds(1, 9_602)[0]!, { kind: 'crossings', snr: 40 });
    const res = await post('anticrossing-detector-v0', [...t.shape], t.data, { plot: 'true' });
    expect(res.status).toBe(200);
    const out = (await res.json()).output;
    expect(out.anticrossings.length).toBe(t.crossings.length);
    for (const [k, c] of t.crossings.entries()) expect(Math.hypot(out.anticrossings[k].x - c.x, out.anticrossings[k].y - c.y)).toBeLessThanOrEqual(4);
    expect(out.plot).toMatch(/^data:image\/svg\+xml;base64,/);
    const quiet = await post('anticrossing-detector-v0', [2, 801, 127], noise(2 * 801 * 127));
    expect((await quiet.json()).output.anticrossings).toEqual([]);
    const wrong = await post('anticrossing-detector-v0', [801, 127], new Float64Array(801 * 127));
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(await wrong.json())).toContain('(2, 801, 127)');
  });

  it('electron-unload models: steps and clusters of a simulated map with plots, nothing in noise, 422 for a wrong shape', async () => {
    const t = generateElectronUnloadingMap(tuningSeeds(1, 9_601)[0]!, { transitions: 3, snr: 20 });
    for (const id of ['electron-unload-detector-v0', 'electron-unload-texture-detector-v0']) {
      const res = await post(id, [101, 51], t.data, { plot: 'true' });
      expect(res.status).toBe(200);
      const out = (await res.json()).output;
      expect(out.plot).toMatch(/^data:image\/svg\+xml;base64,/);
      if (id === 'electron-unload-detector-v0') {
        expect(out.unload_indices.length).toBe(3);
        out.unload_indices.forEach((i: number, k: number) => {
          expect(Math.abs(i - t.unloadIndices[k]!)).toBeLessThanOrEqual(2);
        });
      } else {
        expect(out.texture_clusters.some((c: { kind: string }) => c.kind === 'step' || c.kind === 'telegraph')).toBe(true);
      }
      const quiet = (await (await post(id, [101, 51], noise(101 * 51))).json()).output;
      expect(quiet[id === 'electron-unload-detector-v0' ? 'unload_indices' : 'texture_clusters']).toEqual([]);
      const wrong = await post(id, [51, 101], new Float64Array(51 * 101));
      expect(wrong.status).toBe(422);
      expect(JSON.stringify(await wrong.json())).toContain('(101, 51)');
    }
  });
});
