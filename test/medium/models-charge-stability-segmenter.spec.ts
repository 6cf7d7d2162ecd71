// API test of the listed charge-stability-diagram segmenter through the real system (gateway → NATS → worker →
// results): a (128, 128) map answers 200 with a label map of the input shape, another shape answers 422.
import { encodeNpy } from '#qdc/arrays';
import { MODEL_CATALOGUE, meanRegionIoU } from '#qdc/characterization';
import { generateChargeStabilityDiagram, tuningSeeds } from '#qdc/device-physics';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const ID = 'charge-stability-diagram-segmenter-v0';

describe('charge-stability-diagram-segmenter-v0 through the control API', () => {
  let sut: TestSystem;
  let token: string;
  const post = (model: string, shape: number[], data: Float64Array, extra: Record<string, string> = {}) =>
    fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: multipart({ model, ...extra }, { name: 'csd.npy', bytes: encodeNpy({ shape, data }) }),
    });

  beforeAll(async () => {
    sut = await startSystem();
    token = await sut.createKey('csd-seg-lab', 'control');
  });
  afterAll(async () => {
    await sut?.stop();
  });

  it('is listed in the catalogue and by the API', async () => {
    expect(MODEL_CATALOGUE.map((m) => m.id)).toContain(ID);
    const listed = (await (await fetch(`${sut.baseUrl}/v0/models?limit=1000`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }[];
    expect(listed.map((m) => m.id)).toContain(ID);
  });

  it('segments a clean simulated double dot: 200, an int label map of the input shape, region_count, readout, plot', async () => {
    const d = generateChargeStabilityDiagram(tuningSeeds(1, 9_503)[0]!, { rows: 128, cols: 128, kind: 'double', readout: 'sensor', snrRange: [30, 40], nuisances: false });
    const res = await post(ID, [128, 128], d.data, { plot: 'true' });
    expect(res.status).toBe(200);
    const out = (await res.json()).output;
    expect(out.segmentation).toHaveLength(128);
    expect(out.segmentation.every((row: unknown[]) => row.length === 128 && row.every(Number.isInteger))).toBe(true);
    const labels = (out.segmentation as number[][]).flat();
    expect(out.region_count).toBe(Math.max(...labels));
    expect(out.readout).toBe('sensor');
    expect(meanRegionIoU(labels, d.regions)).toBeGreaterThanOrEqual(0.8);
    expect(out.plot).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('rejects a wrong shape with 422 naming the expected one', async () => {
    const wrong = await post(ID, [64, 64], new Float64Array(64 * 64));
    expect(wrong.status).toBe(422);
    expect(JSON.stringify(await wrong.json())).toContain('(128, 128)');
  });
});
