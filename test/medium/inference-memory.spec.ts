import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { multipart, residentBytes, startSystem, type TestSystem } from './system.harness.js';

const MiB = 1024 * 1024;

/** `rows` copies of one 128-sample peak trace as a float32 .npy (rows × 512 bytes). */
function batchBytes(rows: number): Uint8Array {
  const trace = generateCoulombPeakTrace(tuningSeeds(1, 4242)[0]!, { length: 128, kind: 'peaks', snrRange: [30, 40] }).trace;
  const flat = new Float32Array(rows * 128);
  for (let r = 0; r < rows; r++) flat.set(trace, r * 128);
  return encodeNpy({ shape: [rows, 128], data: flat }, { dtype: 'f4' });
}

/**
 * The inference worker gives a large batch's memory back (issue 18: like the simulation worker, it may keep the
 * buffers of its last job while idle): after three 60 000-row batches (30 MiB uploads, their decoded arrays, the
 * outputs' JSON) its resident set returns near where it was after a small warm-up batch. One batch thread (a worker
 * with one CPU): measured before the fix 152 → 331 MiB (peak 341); after, 146 → 141 MiB (peak 166).
 */
describe('inference worker memory after large batches', () => {
  let sut: TestSystem;
  let key: string;

  beforeAll(async () => {
    sut = await startSystem({ workers: 1, env: { QDC_INFERENCE_THREADS: '1' } });
    key = await sut.createKey('memory-lab', 'control');
  }, 120_000);
  afterAll(async () => {
    await sut?.stop();
  });

  const batch = (rows: number) =>
    fetch(`${sut.baseUrl}/v0/models/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: `batch-${rows}.npy`, bytes: batchBytes(rows) }),
    });

  it('returns to within 100 MiB of its resident set before the large batches', async () => {
    const pid = sut.processes.get('worker-0')!.pid!;
    // Warm-up: code and model loaded.
    expect((await batch(1 << 10)).status).toBe(200);
    expect((await batch(600)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = residentBytes(pid);
    let peak = before;
    for (let i = 0; i < 3; i++) {
      const res = await batch(60_000);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { output: { outputs: unknown[] } }).output.outputs).toHaveLength(60_000);
      peak = Math.max(peak, residentBytes(pid));
    }
    const deadline = Date.now() + 15_000;
    let after = residentBytes(pid);
    while (after - before > 100 * MiB && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = residentBytes(pid);
    }
    console.log(`inference worker RSS: before ${Math.round(before / MiB)} MiB, peak ${Math.round(peak / MiB)} MiB, after ${Math.round(after / MiB)} MiB`);
    expect(Math.round((after - before) / MiB)).toBeLessThan(100);
  }, 300_000);
});
