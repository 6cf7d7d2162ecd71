import { request } from 'node:http';
import { Objm } from '@nats-io/obj';
import { connect } from '@nats-io/transport-node';
import { inputsBucket } from '#qdc/platform';
import { npzZipBomb, torchZipBomb } from '../../libs/arrays/test/zip-bomb.js';
import { multipart, startSystem, type TestSystem } from './system.harness.js';

/**
 * Zip bombs through the gateway and an inference worker (issue 18, defect 2): a 204 KB .pt that inflates to 200 MB
 * (52 M float32 elements) is refused with a 422 naming the model's limit and the declared size, before it is
 * inflated; an archive whose directory lies stops inflating; nothing is stored; the worker keeps serving.
 */
const REQUEST_TIMEOUT_MS = 5_000;

describe('upload zip bombs (per-model decode limits)', () => {
  let sut: TestSystem;
  let key: string;
  const run = (path: string, model: string, name: string, bytes: Uint8Array) =>
    fetch(`${sut.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: multipart({ model }, { name, bytes }) });

  beforeAll(async () => {
    // A short request timeout, so a stalled body is answered within the test (the default is 5 min).
    sut = await startSystem({ env: { QDC_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    key = await sut.createKey('bomb-lab', 'control');
  }, 120_000);
  afterAll(async () => {
    await sut?.stop();
  });

  it('refuses the 204 KB .pt that inflates to 200 MB with 422 naming the limit and the declared size', async () => {
    const bomb = torchZipBomb(52_428_800);
    expect(bomb.length).toBeLessThan(300_000);
    const res = await run('/v0/models', 'coulomb-blockade-peak-detector-v2', 'bomb.pt', bomb);
    expect(res.status).toBe(422);
    expect((await res.json()).detail).toEqual([
      {
        loc: ['body', 'data'],
        msg: 'expected at most 16777216 elements for model coulomb-blockade-peak-detector-v2; the tensor record declares size [52428800] (52428800 elements)',
        type: 'value_error.too_large',
      },
    ]);
  });

  it('refuses the same bomb as a batch (409600, 128) and for a model with a small input', async () => {
    const batch = await run('/v0/models/batch', 'coulomb-blockade-peak-detector-v2', 'bomb.pt', torchZipBomb(52_428_800, { shape: [409_600, 128] }));
    expect(batch.status).toBe(422);
    expect((await batch.json()).detail[0].msg).toBe(
      'expected at most 16777216 elements for model coulomb-blockade-peak-detector-v2; the tensor record declares size [409600, 128] (52428800 elements)',
    );
    const small = await run('/v0/models', 'coulomb-blockade-peak-detector-v0', 'bomb.pt', torchZipBomb(4_000_000));
    expect(small.status).toBe(422);
    expect((await small.json()).detail[0].msg).toBe(
      'expected at most 65536 elements for model coulomb-blockade-peak-detector-v0; the tensor record declares size [4000000] (4000000 elements)',
    );
  });

  it('stops inflating an archive whose record and directory declare less than its data holds', async () => {
    const liar = torchZipBomb(1000, { inflatedBytes: 200 * 1024 * 1024 });
    const res = await run('/v0/models', 'coulomb-blockade-peak-detector-v1', 'liar.pt', liar);
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0]).toEqual({
      loc: ['body', 'data'],
      msg: "expected 'archive/data/0' to inflate to the 4000 bytes its central directory declares; it inflates to more (inflation stopped)",
      type: 'value_error.too_large',
    });
    const storage = torchZipBomb(1000, { declaredSize: 400_000_000, inflatedBytes: 4000 });
    const declared = await run('/v0/models', 'coulomb-blockade-peak-detector-v1', 'declared.pt', storage);
    expect(declared.status).toBe(422);
    expect((await declared.json()).detail[0].msg).toBe(
      "expected the .pt archive to expand to at most 17825792 bytes for model coulomb-blockade-peak-detector-v1 (zip bomb guard); its central directory declares 400000000 bytes for 'archive/data/0'",
    );
  });

  it('refuses an .npz (np.savez) bomb without inflating it, stores nothing and keeps serving', async () => {
    const res = await run('/v0/models', 'coulomb-blockade-peak-detector-v2', 'bomb.npz', npzZipBomb(200 * 1024 * 1024));
    expect(res.status).toBe(422);
    expect((await res.json()).detail[0]).toEqual({
      loc: ['body', 'data'],
      msg: 'expected a PyTorch .pt zip archive with <name>/data.pkl; got a zip holding data.npy',
      type: 'value_error.pt',
    });
    expect(await sut.query('SELECT count(*)::int AS n FROM model_results')).toEqual([{ n: 0 }]);
    const ok = await run('/v0/models', 'coulomb-blockade-peak-detector-v2', 'fine.pt', torchZipBomb(128));
    expect(ok.status).toBe(200);
    expect((await ok.json()).output).toMatchObject({ peak_indices: [] });
  });

  describe('refused while the upload is still arriving (the body below does not end until the answer has come)', () => {
    const boundary = 'qdc-early-refusal';
    /** Bodies still being sent; each test ends its own once it has the answer (else the upload would go on forever). */
    const sending = new Set<() => void>();
    afterEach(() => {
      for (const stop of sending) stop();
    });
    /** A multipart body whose `data` file starts with `head` and then does not end until stopped: only an early answer can come. */
    const endless = (model: string, head: Uint8Array) => {
      const encoder = new TextEncoder();
      let timer: NodeJS.Timeout | undefined;
      return new ReadableStream<Uint8Array>({
        start(controller) {
          sending.add(() => {
            clearInterval(timer);
            try {
              controller.close(); // the request ends (its multipart unfinished: the server is only draining it)
            } catch {
              // already cancelled by the client
            }
          });
          controller.enqueue(
            encoder.encode(
              `--${boundary}\r\ncontent-disposition: form-data; name="model"\r\n\r\n${model}\r\n--${boundary}\r\ncontent-disposition: form-data; name="data"; filename="big.npy"\r\ncontent-type: application/octet-stream\r\n\r\n`,
            ),
          );
          controller.enqueue(head);
          // A slow instrument PC: another zero now and then, until the test stops it.
          timer = setInterval(() => controller.enqueue(new Uint8Array(1024)), 200);
        },
        cancel() {
          clearInterval(timer);
        },
      });
    };
    const post = (model: string, head: Uint8Array) => {
      const body = endless(model, head);
      return fetch(`${sut.baseUrl}/v0/models`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
    };
    /** The .npy header of a float64 array of `shape` (its data would follow). */
    const npyHeader = (shape: number[]) => {
      const dict = `{'descr': '<f8', 'fortran_order': False, 'shape': (${shape.join(', ')},), }`;
      const text = `${dict.padEnd(118, ' ')}\n`;
      return new Uint8Array([0x93, ...new TextEncoder().encode('NUMPY'), 1, 0, text.length & 0xff, text.length >> 8, ...new TextEncoder().encode(text)]);
    };

    it("a .npy header declaring more elements than the model takes: 422 with the worker's message, before the data", async () => {
      const res = await post('coulomb-blockade-peak-detector-v0', npyHeader([8_000_000]));
      expect(res.status).toBe(422);
      expect((await res.json()).detail).toEqual([
        {
          loc: ['body', 'data'],
          msg: 'expected at most 65536 elements for model coulomb-blockade-peak-detector-v0; the .npy header declares shape [8000000] (8000000 elements)',
          type: 'value_error.too_large',
        },
      ]);
    });

    it('an unknown model: 404 before the file', async () => {
      const res = await post('no-such-model', npyHeader([100]));
      expect([res.status, await res.json()]).toEqual([404, { detail: 'Model not found' }]);
    });

    it('a Content-Length beyond the upload limit: 413 before the body', async () => {
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${sut.baseUrl}/v0/models`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(2 ** 30) },
        });
        req.on('response', (r) => {
          let body = '';
          r.on('data', (c) => {
            body += c;
          });
          r.on('end', () => {
            resolve({ status: r.statusCode!, body });
            req.destroy();
          });
        });
        req.on('error', reject);
        req.write(`--${boundary}\r\n`);
      });
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).detail).toMatch(/^Request body too large: 1073741824 bytes declared; uploads are limited to \d+ bytes$/);
    });

    it('a body that stalls: 408 once QDC_HTTP_REQUEST_TIMEOUT_MS has passed, and what was streamed into the input store is removed', async () => {
      // 640 KiB of a declared 2 MiB .npy: past the 512 KiB held in memory, so the file was already streaming into the store.
      const prefix = new TextEncoder().encode(
        `--${boundary}\r\ncontent-disposition: form-data; name="model"\r\n\r\nresonator-dip-finder-v0\r\n--${boundary}\r\ncontent-disposition: form-data; name="data"; filename="stalled.npy"\r\ncontent-type: application/octet-stream\r\n\r\n`,
      );
      const head = npyHeader([262_144]);
      const declared = prefix.length + head.length + 262_144 * 8 + `\r\n--${boundary}--\r\n`.length;
      const started = Date.now();
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${sut.baseUrl}/v0/models`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(declared) },
        });
        req.on('response', (r) => {
          let body = '';
          r.on('data', (c) => {
            body += c;
          });
          r.on('end', () => resolve({ status: r.statusCode!, body }));
        });
        req.on('error', reject);
        req.write(prefix);
        req.write(head);
        req.write(new Uint8Array(640 * 1024)); // and then nothing more
      });
      expect([res.status, JSON.parse(res.body)]).toEqual([408, { detail: 'Request timeout' }]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
      const nc = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
      try {
        const store = await new Objm(nc).open(inputsBucket(sut.namespace));
        const deadline = Date.now() + 15_000;
        let left = await store.list();
        while (left.length > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          left = await store.list();
        }
        expect(left.map((o) => o.name)).toEqual([]);
      } finally {
        await nc.close();
      }
    });

    afterAll(async () => {
      expect(await sut.query('SELECT count(*)::int AS n FROM model_results')).toEqual([{ n: 1 }]);
      expect((await fetch(`${sut.baseUrl}/v0/health`)).status).toBe(200);
    });
  });
});
