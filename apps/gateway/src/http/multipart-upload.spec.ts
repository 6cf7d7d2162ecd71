import { Busboy } from '@fastify/busboy';
import { splitPlainForm } from './multipart-upload.js';

type Part = { name: string; value: string } | { name: string; fileName: string; content: Buffer };

/** What busboy (the streaming path, and the reference) reads from the same body. */
function busboyParts(body: Buffer, contentType: string): Promise<Part[]> {
  return new Promise((resolve, reject) => {
    const parts: Part[] = [];
    const pending: Promise<void>[] = [];
    const bb = new Busboy({ headers: { 'content-type': contentType } });
    bb.on('field', (name: string, value: string) => parts.push({ name, value }));
    bb.on('file', (name: string, stream: NodeJS.ReadableStream, fileName: string) => {
      const chunks: Buffer[] = [];
      const part: Part = { name, fileName, content: Buffer.alloc(0) };
      parts.push(part);
      pending.push(
        new Promise((done) => {
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            part.content = Buffer.concat(chunks);
            done();
          });
        }),
      );
    });
    bb.on('error', reject);
    bb.on('finish', () => Promise.all(pending).then(() => resolve(parts), reject));
    bb.end(body);
  });
}

async function formBody(fields: [string, string][], file?: { field: string; name: string; bytes: Uint8Array }): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  if (file) form.append(file.field, new Blob([Buffer.from(file.bytes)]), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type')! };
}

/** A body as python-requests (urllib3) writes one: boundary a hex token, Content-Type only on the file. */
function requestsBody(parts: string[], boundary = '4f0d7c2b9e0a4c1d8e7f6a5b4c3d2e1f'): { body: Buffer; type: string } {
  return {
    body: Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`, 'latin1'),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe(splitPlainForm.name, () => {
  const bytes = Uint8Array.from({ length: 1152 }, (_, i) => (i * 37) % 256);

  it('reads a form as fetch/undici writes it exactly as busboy does (fields, file name, every byte)', async () => {
    const { body, type } = await formBody(
      [
        ['model', 'coulomb-blockade-peak-detector-v2'],
        ['plot', 'true'],
      ],
      { field: 'data', name: 't.npy', bytes },
    );
    const parts = splitPlainForm(body, type);
    expect(parts).not.toBeNull();
    expect(parts).toEqual(await busboyParts(body, type));
    expect(parts!.map((p) => p.name)).toEqual(['model', 'plot', 'data']);
  });

  it('reads a form as python-requests writes it (file bytes containing CR LF and dashes stay whole)', async () => {
    const content = '\x93NUMPY\r\n--not-the-boundary\r\n\r\n';
    const { body, type } = requestsBody([
      'Content-Disposition: form-data; name="model"\r\n\r\nelectron-unloading-v1',
      `Content-Disposition: form-data; name="data"; filename="trace.npy"\r\nContent-Type: application/octet-stream\r\n\r\n${content}`,
    ]);
    const parts = splitPlainForm(body, type);
    expect(parts).toEqual(await busboyParts(body, type));
    expect((parts![1] as { content: Buffer }).content.toString('latin1')).toBe(content);
  });

  it('takes a quoted boundary and an empty file name as busboy does', async () => {
    const boundary = 'a b:c';
    const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="data"; filename=""\r\n\r\nxyz\r\n--${boundary}--`, 'latin1');
    const type = `multipart/form-data; boundary="${boundary}"`;
    expect(splitPlainForm(body, type)).toEqual(await busboyParts(body, type));
  });

  it.each([
    ['a preamble', 'preamble\r\n--B\r\nContent-Disposition: form-data; name="model"\r\n\r\nm\r\n--B--'],
    ['an epilogue', '--B\r\nContent-Disposition: form-data; name="model"\r\n\r\nm\r\n--B--\r\nbye'],
    ['a file name with a path (busboy keeps its last segment)', '--B\r\nContent-Disposition: form-data; name="data"; filename="dir/t.npy"\r\n\r\nx\r\n--B--'],
    ['an RFC 5987 file name', '--B\r\nContent-Disposition: form-data; name="data"; filename*=UTF-8\'\'t%C3%A9.npy\r\n\r\nx\r\n--B--'],
    ['a JSON field (@fastify/multipart parses it)', '--B\r\nContent-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{}\r\n--B--'],
    ['another header', '--B\r\nContent-Disposition: form-data; name="model"\r\nContent-Transfer-Encoding: binary\r\n\r\nm\r\n--B--'],
    ['an unquoted name', '--B\r\nContent-Disposition: form-data; name=model\r\n\r\nm\r\n--B--'],
    ['a field named like a prototype member', '--B\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nm\r\n--B--'],
    [
      'two files (the files limit)',
      '--B\r\nContent-Disposition: form-data; name="data"; filename="a"\r\n\r\nx\r\n--B\r\nContent-Disposition: form-data; name="data"; filename="b"\r\n\r\ny\r\n--B--',
    ],
    ['a missing close delimiter', '--B\r\nContent-Disposition: form-data; name="model"\r\n\r\nm\r\n'],
    ['another boundary', '--other\r\nContent-Disposition: form-data; name="model"\r\n\r\nx\r\n--other--\r\n'],
    ['JSON sent as multipart', '{"model": "coulomb-blockade-peak-detector-v2", "data": [1, 2, 3]}'],
  ])('leaves a body with %s to busboy', (_case, text) => {
    expect(splitPlainForm(Buffer.from(text, 'latin1'), 'multipart/form-data; boundary=B')).toBeNull();
  });

  it('leaves more than 16 fields (the fields limit) to busboy', () => {
    const { body, type } = requestsBody(Array.from({ length: 17 }, (_, i) => `Content-Disposition: form-data; name="f${i}"\r\n\r\nv`));
    expect(splitPlainForm(body, type)).toBeNull();
  });
});
