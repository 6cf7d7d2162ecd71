// API tests of the surface-code decoders through the real system (gateway → NATS → worker → results): tensors made
// by our own Pauli-frame sampler (libs/qec), uploaded as .npy (float32 and uint8), decoded and checked against the
// sampler's ground truth; the official client's all-zero (1, 4, 3, 3, 3) float32 fixture (TestIsingDecodingModels).
import { Redis } from 'ioredis';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { pureNoiseSyndromes, rotatedSurfaceCode, sampleMemoryExperiment } from '#qdc/qec';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

const IDS = ['ising-decoding-v1-fast', 'ising-decoding-v1-accurate'] as const;

describe('ising decoding models through the control API', () => {
  let sut: TestSystem;
  let redis: Redis;
  let token: string;
  const post = (model: string, bytes: Uint8Array, extra: Record<string, string> = {}) =>
    fetch(`${sut.baseUrl}/v0/models`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: multipart({ model, ...extra }, { name: 'syndromes.npy', bytes }),
    });

  beforeAll(async () => {
    sut = await startSystem();
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    token = await sut.createKey('issue15-lab', 'control');
  });
  afterAll(async () => {
    await redis?.quit();
    await sut?.stop();
  });

  it('lists both ids with their input shape, under /v0/models and /v0/control/models', async () => {
    for (const path of ['/v0/models?limit=1000', '/v0/control/models?limit=1000']) {
      const listed = (await (await fetch(`${sut.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        id: string;
        input_shape_requirements: string;
      }[];
      for (const id of IDS) expect(listed.find((m) => m.id === id)?.input_shape_requirements).toContain('(B, 4, T, D, D)');
    }
  });

  it.each(IDS)("%s: the official client's all-zero (1, 4, 3, 3, 3) float32 syndrome answers a ModelResult with logits, variant and batch_size", async (id) => {
    const res = await post(id, encodeNpy({ shape: [1, 4, 3, 3, 3], data: new Float32Array(108) }, { dtype: 'f4' }));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.model).toBe(id);
    expect(body.output.variant).toBe(id === 'ising-decoding-v1-fast' ? 'fast' : 'accurate');
    expect(body.output.batch_size).toBe(1);
    expect(body.output.logits).toHaveLength(1);
    expect(body.output.logits[0]).toHaveLength(2);
    expect(body.output.logits[0][0]).toHaveLength(3);
    expect(body.output.logical_flips).toEqual([[0, 0]]);
    expect([body.output.distance, body.output.rounds]).toEqual([3, 3]);
  });

  it.each(IDS)(
    '%s: sampled d = 5, T = 5 syndromes (uint8 and float32): flips match the truth at p = q = 0.5 % (union-find: ≥ 99 %), corrections clear every last-round syndrome, with a plot',
    async (id) => {
      const d = 5;
      const T = 5;
      const shots = 150;
      const samples = sampleMemoryExperiment({ distance: d, rounds: T, noise: { kind: 'phenomenological', p: 0.005, q: 0.005 }, shots, seed: 15_001 });
      const code = rotatedSurfaceCode(d);
      for (const dtype of ['u1', 'f4'] as const) {
        const res = await post(id, encodeNpy({ shape: [shots, 4, T, d, d], data: samples.syndromes }, { dtype }), { plot: 'true' });
        expect(res.status).toBe(200);
        const out = (await res.json()).output;
        expect(out.batch_size).toBe(shots);
        expect(out.plot).toMatch(/^data:image\/svg\+xml;base64,/);
        let wrong = 0;
        for (let b = 0; b < shots; b++) {
          for (const type of [0, 1] as const) {
            for (const s of code.stabilizers[type]) {
              let last = 0;
              for (let t = 0; t < T; t++) last ^= samples.syndromes[((b * 4 + type) * T + t) * d * d + s.cell]!;
              expect(s.qubits.reduce((a, q) => a ^ (out.logits[b][type][Math.floor(q / d)][q % d] > 0 ? 1 : 0), 0)).toBe(last);
            }
            if (out.logical_flips[b][type] !== samples.logicalFlips[b * 2 + type]) wrong++;
          }
        }
        // Seeded samples: matching gets every one right; union-find (a weaker decoder) may miss at most 1 %.
        if (id === 'ising-decoding-v1-accurate') expect(wrong).toBe(0);
        else expect(wrong).toBeLessThanOrEqual((2 * shots) / 100);
      }
    },
  );

  it.each(IDS)('%s: 422 for masks that do not fit D and for wrong shapes, saying what was expected', async (id) => {
    const samples = sampleMemoryExperiment({ distance: 3, rounds: 2, noise: { kind: 'code-capacity', p: 0.1 }, shots: 1, seed: 2 });
    // A d = 3 tensor whose Z mask is the X mask: the layout does not fit.
    const swapped = Float32Array.from(samples.syndromes);
    swapped.set(samples.syndromes.subarray(2 * 18, 3 * 18), 3 * 18);
    const badMask = await post(id, encodeNpy({ shape: [1, 4, 2, 3, 3], data: swapped }, { dtype: 'f4' }));
    expect(badMask.status).toBe(422);
    const detail = (await badMask.json()).detail[0];
    expect(detail.loc).toEqual(['body', 'data']);
    expect(detail.msg).toContain('expected the Z-stabilizer mask (channel 3) of a distance-3 rotated surface code');
    for (const [shape, message] of [
      [[4, 3, 3, 3], 'expected a (B, 4, T, D, D) syndrome tensor'],
      [[1, 4, 2, 4, 4], 'odd distance'],
    ] as const) {
      const count = shape.reduce((a: number, b: number) => a * b, 1);
      const res = await post(id, encodeNpy({ shape: [...shape], data: new Float32Array(count) }, { dtype: 'f4' }));
      expect(res.status).toBe(422);
      expect((await res.json()).detail[0].msg).toContain(message);
    }
  });

  it('decodes a batch that takes seconds on a model thread: the same worker answers small runs meanwhile (20 or more; 4 when it decoded on its event loop), and every correction clears its syndrome', async () => {
    // 40 shots of pure noise at d = 25, T = 1 (100 000 elements; ≈ 2 s for matching on this machine): before, the
    // decode held the worker's event loop, so nothing else on that worker (the small run's group job, BullMQ's lock
    // renewal, the probes) moved until it ended.
    const d = 25;
    const shots = 40;
    const syndromes = pureNoiseSyndromes(d, shots, 29_001);
    const code = rotatedSurfaceCode(d);
    const decoding = post('ising-decoding-v1-accurate', encodeNpy({ shape: [shots, 4, 1, d, d], data: syndromes }, { dtype: 'u1' }));
    let decoded = false;
    void decoding.then(() => (decoded = true));

    const activeKey = `${sut.namespace}:bull:inference:active`;
    while ((await redis.llen(activeKey)) === 0) {
      if (decoded) throw new Error('the decode ended before it was seen active: it is too small for this test');
      await new Promise((r) => setTimeout(r, 5));
    }
    // Small runs one after the other until the decode answers: the worker keeps serving them while it decodes. On the
    // main thread only those in the moments after the decode, while its result is being stored, could slip through.
    const trace = generateCoulombPeakTrace(tuningSeeds(1, 2_902)[0]!, { length: 128, kind: 'peaks' }).trace;
    const smallBytes = encodeNpy({ shape: [128], data: trace });
    let answeredDuringDecode = 0;
    while (!decoded) {
      const small = await post('coulomb-blockade-peak-detector-v2', smallBytes);
      expect(small.status).toBe(200);
      await small.arrayBuffer();
      if (!decoded) answeredDuringDecode++;
    }
    expect(answeredDuringDecode).toBeGreaterThanOrEqual(20);

    const res = await decoding;
    expect(res.status).toBe(200);
    const out = (await res.json()).output;
    expect(out.batch_size).toBe(shots);
    for (let b = 0; b < shots; b++) {
      for (const type of [0, 1] as const) {
        for (const s of code.stabilizers[type]) {
          const parity = s.qubits.reduce((a, q) => a ^ (out.logits[b][type][Math.floor(q / d)][q % d] > 0 ? 1 : 0), 0);
          expect(parity).toBe(syndromes[(b * 4 + type) * d * d + s.cell]);
        }
      }
    }
  });
});
