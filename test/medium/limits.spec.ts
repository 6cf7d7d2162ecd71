import { connect } from 'node:net';
import { encodeNpy } from '#qdc/arrays';
import { freePort, multipart, startSystem, type TestSystem } from './system.harness.js';

/** Sends raw bytes and returns the raw response (for requests fetch refuses to build). */
function rawRequest(baseUrl: string, request: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((done, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let response = '';
    socket.on('data', (chunk) => (response += chunk.toString()));
    socket.on('close', () => done(response));
    // The server may reset the socket right after answering; what it answered is what we check.
    socket.on('error', (error) => (response ? done(response) : reject(error)));
  });
}

describe('limits (upload size, JSON size, per-key rate)', () => {
  let sut: TestSystem;
  let key: string;
  let other: string;
  const call = (path: string, token: string, init: RequestInit = {}) =>
    fetch(`${sut.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) } });

  beforeAll(async () => {
    sut = await startSystem({
      env: { QDC_UPLOAD_LIMIT_BYTES: String(1024 * 1024), QDC_RATE_LIMIT_PER_MINUTE: '8', QDC_CORS_ORIGINS: 'https://console.lab.example' },
    });
    [key, other] = await Promise.all([sut.createKey('limited-lab', 'control'), sut.createKey('other-lab', 'control')]);
  });
  afterAll(async () => {
    await sut?.stop();
  });

  it('answers 413 for an upload over the limit and stays healthy', async () => {
    const big = encodeNpy({ shape: [200_000], data: new Float64Array(200_000) }); // 1.6 MB > 1 MiB
    const res = await call('/v0/models', key, {
      method: 'POST',
      body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 'big.npy', bytes: big }),
    });
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

  describe('hostile HTTP (issue 18)', () => {
    let hostile: string;
    beforeAll(async () => {
      hostile = await sut.createKey('hostile-lab', 'control');
    });

    it('answers a multipart body that does not parse with 422, FastAPI-style, not 500', async () => {
      const wrongBoundary = await call('/v0/models', hostile, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=expected' },
        body: '--other\r\nContent-Disposition: form-data; name="model"\r\n\r\nx\r\n--other--\r\n',
      });
      const jsonAsMultipart = await call('/v0/models', hostile, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: JSON.stringify({ model: 'coulomb-blockade-peak-detector-v2', data: [1, 2, 3] }),
      });
      for (const res of [wrongBoundary, jsonAsMultipart]) {
        expect(res.status).toBe(422);
        const body = await res.json();
        expect(body.detail[0].loc).toEqual(['body']);
        expect(body.detail[0].type).toBe('value_error.multipart');
        expect(body.detail[0].msg).toMatch(/^expected a well-formed multipart\/form-data body; /);
      }
    });

    it('answers oversized headers with 431 and a FastAPI-style body', async () => {
      const { port } = new URL(sut.baseUrl);
      const response = await rawRequest(sut.baseUrl, `GET /v0/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(response).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(response.split('\r\n\r\n')[1]).toBe('{"detail":"Request header fields too large"}');
    });

    it('echoes a plain X-Request-Id and replaces one that is too long or not plain', async () => {
      const echo = await fetch(`${sut.baseUrl}/v0/health`, { headers: { 'x-request-id': 'lab-a:run-42.1' } });
      expect(echo.headers.get('x-request-id')).toBe('lab-a:run-42.1');
      for (const id of ['r'.repeat(129), 'has space', 'semi;colon', '<script>']) {
        const res = await fetch(`${sut.baseUrl}/v0/health`, { headers: { 'x-request-id': id } });
        expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      }
    });

    it('sends security headers, and CORS only to the configured origins', async () => {
      const plain = await fetch(`${sut.baseUrl}/v0/health`, { headers: { origin: 'https://evil.example' } });
      expect(plain.headers.get('x-content-type-options')).toBe('nosniff');
      expect(plain.headers.get('x-frame-options')).toBe('DENY');
      expect(plain.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(plain.headers.get('access-control-allow-origin')).toBeNull();
      const preflight = await fetch(`${sut.baseUrl}/v0/models`, {
        method: 'OPTIONS',
        headers: { origin: 'https://console.lab.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://console.lab.example');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
      const allowed = await call('/v0/models?limit=1', hostile, { headers: { origin: 'https://console.lab.example' } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://console.lab.example');
    });

    it('exports Prometheus metrics without auth, labelled by route pattern', async () => {
      await call('/v0/model-results/00000000-0000-4000-8000-000000000000', hostile);
      const res = await fetch(`${sut.baseUrl}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/^qdc_http_request_duration_seconds_count\{[^}]*method="GET",route="\/v0\/model-results\/:id",status="404"[^}]*\} [1-9]/m);
      expect(text).toMatch(/^qdc_nats_request_duration_seconds_count\{[^}]*subject="results\.key\.verify\.v1",outcome="ok"[^}]*\} [1-9]/m);
      expect(text).toContain('service="gateway"');
    });

    it('accepts the bearer scheme in any case (RFC 7235: schemes are case-insensitive), and nothing else', async () => {
      for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
        const res = await fetch(`${sut.baseUrl}/v0/model-results?limit=1`, { headers: { authorization: `${scheme} ${hostile}` } });
        expect(res.status).toBe(200);
      }
      for (const authorization of [`Token ${hostile}`, `Basic ${hostile}`, 'bearer', `bearer${hostile}`]) {
        const res = await fetch(`${sut.baseUrl}/v0/model-results?limit=1`, { headers: { authorization } });
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        expect(await res.json()).toEqual({ detail: 'Not authenticated' });
      }
    });

    it('refuses a calendar date that does not exist', async () => {
      const res = await call('/v0/model-results?start_date=2026-02-30', hostile);
      expect(res.status).toBe(422);
      expect((await res.json()).detail).toEqual([
        { loc: ['query', 'start_date'], msg: "not a valid date: '2026-02-30' (2026-02-30 does not exist)", type: 'datetime_parsing' },
      ]);
    });
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

  it('holds one budget per key across two gateway replicas (kept in Redis): 8 allowed in all, not 8 per replica', async () => {
    const port = await freePort();
    sut.launch('gateway-2', 'dist/apps/gateway/src/main.js', { PORT: String(port) });
    const second = `http://127.0.0.1:${port}`;
    for (const deadline = Date.now() + 60_000; ; ) {
      const ready = await fetch(`${second}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`second gateway did not become ready; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const shared = await sut.createKey('replicated-lab', 'control');
    const answers: { gateway: string; status: number; retryAfter: string | null; body: unknown }[] = [];
    for (let i = 0; i < 16; i++) {
      const gateway = i % 2 === 0 ? sut.baseUrl : second; // alternate between the replicas
      const res = await fetch(`${gateway}/v0/models?limit=1`, { headers: { authorization: `Bearer ${shared}` } });
      answers.push({ gateway, status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() });
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(8).fill(200), ...Array(8).fill(429)]);
    for (const refused of answers.slice(8)) {
      const seconds = Number(refused.retryAfter);
      expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60).toBe(true);
      expect(refused.body).toEqual({ detail: `Rate limit exceeded; retry in ${seconds} s` });
    }
    expect(new Set(answers.slice(8).map((a) => a.gateway))).toEqual(new Set([sut.baseUrl, second])); // both refuse
  });
});
