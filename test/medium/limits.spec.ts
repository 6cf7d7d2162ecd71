import { encodeNpy } from '#qdc/arrays';
import { multipart, startSystem, type TestSystem } from './system.harness.js';


describe('limits (upload size, JSON size, per-key rate)', () => {
  let sut: TestSystem;
  let key: string;
  let other: string;
  const call = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${sut.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) } });

  beforeAll(async () => {
    sut = await startSystem({ env: { QDC_UPLOAD_LIMIT_BYTES: String(1024 * 1024), QDC_RATE_LIMIT_PER_MINUTE: '8' } });
    [key, other] = await Promise.all([sut.createKey('limited-lab', 'control'), sut.createKey('other-lab', 'control')]);
  });
  afterAll(async () => {
    await sut?.stop();
  });

  it('answers 413 for an upload over the limit and stays healthy', async () => {
    const big = encodeNpy({ shape: [200_000], data: new Float64Array(200_000) }); // 1.6 MB > 1 MiB
    const res = await call('/v0/models', key, { method: 'POST', body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 'big.npy', bytes: big }) });
    expect(res.status).toBe(413);
    expect((await res.json()).detail).toMatch(/too large/i);
    expect(await sut.query('SELECT count(*)::int AS n FROM model_results')).toEqual([{ n: 0 }]);
    expect((await fetch(`${sut.baseUrl}/v0/health`)).status).toBe(200);
  });

  it('answers 413 for a JSON body over 1 MiB', async () => {
    const res = await call('/v0/model-results/00000000-0000-4000-8000-000000000000/vote', key, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ vote: 1, feedback: 'x'.repeat(1_100_000) }),
    });
    expect(res.status).toBe(413);
  });

  it('answers 429 with Retry-After once a key spends its budget, without affecting other keys', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 12; i++) {
      const res = await call('/v0/models?limit=1', key);
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter = res.headers.get('retry-after');
        expect((await res.json()).detail).toMatch(/rate limit/i);
      }
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(8);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await call('/v0/models?limit=1', other)).status).toBe(200);
  });
});
