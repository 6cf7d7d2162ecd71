import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart'; // brings in the request.parts() typings
import { ValidationFailed, invalid } from './api-errors.js';

/** The text fields and the one file, as the file's receiver (FileReceiver) made it. */
export interface MultipartUpload<F> {
  fields: Record<string, string>;
  file?: { fieldName: string; fileName: string; content: F };
}

/**
 * Takes the file's bytes as they arrive and must read them to their end (e.g. into the input store). The chunks throw
 * an EarlyRefusal or a 413 when the upload is refused: the receiver then keeps nothing and lets that error through.
 */
export type FileReceiver<F> = (chunks: AsyncIterable<Buffer>) => Promise<F>;

/**
 * Looks at the start of the file while it arrives, with the text fields sent before it: returns true once it has
 * seen enough, throws (a 4xx) to refuse the upload there and then.
 */
export type UploadInspector = (fields: Record<string, string>, prefix: Uint8Array) => boolean;

/** Thrown when an upload is refused before it has all arrived: the caller answers, then lets the rest drain. */
export class EarlyRefusal extends Error {
  constructor(readonly refusal: unknown) {
    super('upload refused before it arrived');
  }
}

/**
 * Reads a multipart/form-data body: text fields plus the one file field, whose bytes go to `receive` as they arrive
 * (not buffered here). Files over the upload limit make @fastify/multipart throw a 413 error, which the exception
 * filter answers. With an `inspect`or, a file is refused as soon as its first bytes show it will be (EarlyRefusal):
 * not buffered, stored or queued; see drainAfterRefusal for the rest of the body. A body declaring at most
 * `smallFormBytes` is read whole first and, when it is a plain form, split here (splitPlainForm) instead.
 */
export async function readMultipart<F>(
  request: FastifyRequest,
  fileField: string,
  receive: FileReceiver<F>,
  inspect?: UploadInspector,
  smallFormBytes = 0,
): Promise<MultipartUpload<F>> {
  if (!request.isMultipart()) {
    throw invalid(
      ['body'],
      `expected a multipart/form-data body with fields 'model' and '${fileField}'; got content-type '${request.headers['content-type'] ?? 'none'}'`,
      'value_error.content_type',
    );
  }
  const upload: MultipartUpload<F> = { fields: {} };
  try {
    const small = await readSmallBody(request, smallFormBytes);
    const form = small && splitPlainForm(small, request.headers['content-type']!);
    if (form) await takeForm(form, fileField, upload, receive, inspect);
    else {
      if (small) replayBody(request, small);
      await readParts(request, fileField, upload, receive, inspect);
    }
  } catch (error) {
    if (error instanceof EarlyRefusal) throw error;
    // Our own 4xx and @fastify/multipart's limit errors (413, ...) carry their status; anything else
    // thrown while parsing is busboy meeting a body that is not the multipart it claims to be.
    if (error instanceof ValidationFailed || isClientError(error)) throw error;
    throw invalid(['body'], `expected a well-formed multipart/form-data body; ${(error as Error).message ?? String(error)}`, 'value_error.multipart');
  }
  return upload;
}

/** One part of a form split by splitPlainForm: a text field, or a file with its name and bytes. */
type PlainPart = { name: string; value: string } | { name: string; fileName: string; content: Buffer };

/**
 * The whole body of a small form (declared length at most `limit` bytes), or null when the body is larger or of
 * unknown length: those stream through busboy as they arrive. A small run's body is one or two TCP segments, and
 * busboy's streams (a parser, a stream per part, their events) were ~15 % of the gateway's CPU per run.
 */
async function readSmallBody(request: FastifyRequest, limit: number): Promise<Buffer | null> {
  const declared = Number(request.headers['content-length']);
  if (!(declared > 0 && declared <= limit) || request.headers['transfer-encoding']) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of request.raw) chunks.push(chunk as Buffer);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** Hands a body read by readSmallBody to @fastify/multipart as if it were arriving (a form splitPlainForm leaves alone). */
function replayBody(request: FastifyRequest, body: Buffer): void {
  const replay = Object.assign(Readable.from([body]), { headers: request.raw.headers });
  (request as unknown as { raw: Readable }).raw = replay;
}

/** `Content-Disposition` of a form part in the plain spelling every HTTP client writes (ASCII, quoted, no escapes, no path). */
const PLAIN_DISPOSITION = /^form-data; name="([!#-[\]-~ ]*)"(?:; filename="([!#-.0-[\]-~ ]*)")?$/i;
const PLAIN_HEADER = /^([A-Za-z-]+):[ \t]*([ -~]*)$/;
/** What @fastify/multipart is configured to accept (gateway.start.ts): beyond it, busboy answers with its own errors. */
const FORM_FIELDS_LIMIT = 16;

/**
 * Splits a small multipart/form-data body (RFC 7578) written the way HTTP clients write one — no preamble, every
 * part with one plain `Content-Disposition` and at most a `Content-Type`, no JSON fields, at most 16 fields and one
 * file — into its parts, in order. Anything else (and any doubt) answers null, and the body goes through busboy,
 * whose answers (including its errors) are the reference: so both paths give every client the same answer.
 */
export function splitPlainForm(body: Buffer, contentType: string): PlainPart[] | null {
  const boundary = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  if (!boundary) return null;
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  if (body.toString('latin1', 0, delimiter.length) !== delimiter) return null;
  const parts: PlainPart[] = [];
  let fields = 0;
  let files = 0;
  for (let at = delimiter.length; ; ) {
    if (body[at] === 0x2d && body[at + 1] === 0x2d) {
      const rest = body.toString('latin1', at + 2);
      return rest === '' || rest === '\r\n' ? parts : null;
    }
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) return null;
    const headersEnd = body.indexOf('\r\n\r\n', at + 2, 'latin1');
    const next = headersEnd < 0 ? -1 : body.indexOf(`\r\n${delimiter}`, headersEnd + 4, 'latin1');
    if (next < 0) return null;
    let disposition: RegExpExecArray | null = null;
    for (const line of body.toString('latin1', at + 2, headersEnd).split('\r\n')) {
      const [, name = '', value = ''] = PLAIN_HEADER.exec(line) ?? [];
      if (/^content-disposition$/i.test(name) && !disposition) {
        disposition = PLAIN_DISPOSITION.exec(value);
        if (!disposition) return null;
      } else if (!/^content-type$/i.test(name) || /json/i.test(value)) return null;
    }
    if (!disposition || disposition[1]! in Object.prototype) return null;
    const content = body.subarray(headersEnd + 4, next);
    if (disposition[2] === undefined) {
      if (++fields > FORM_FIELDS_LIMIT) return null;
      parts.push({ name: disposition[1]!, value: content.toString('utf8') });
    } else {
      if (++files > 1) return null;
      parts.push({ name: disposition[1]!, fileName: disposition[2], content });
    }
    at = next + 2 + delimiter.length;
  }
}

/** The parts of a split form, with the rules readParts applies to streamed ones (one file, in `fileField`). */
async function takeForm<F>(
  form: PlainPart[],
  fileField: string,
  upload: MultipartUpload<F>,
  receive: FileReceiver<F>,
  inspect?: UploadInspector,
): Promise<void> {
  for (const part of form) {
    if ('value' in part) {
      upload.fields[part.name] = part.value;
      continue;
    }
    if (part.name !== fileField)
      throw invalid(['body', part.name], `unexpected file field '${part.name}'; send exactly one file in '${fileField}'`, 'value_error.file');
    upload.file = {
      fieldName: part.name,
      fileName: part.fileName || fileField,
      content: await receive(fileChunks(oneChunk(part.content), upload.fields, inspect)),
    };
  }
}

async function* oneChunk(content: Buffer): AsyncGenerator<Buffer> {
  yield content;
}

function isClientError(error: unknown): boolean {
  const status = (error as { statusCode?: number }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

async function readParts<F>(
  request: FastifyRequest,
  fileField: string,
  upload: MultipartUpload<F>,
  receive: FileReceiver<F>,
  inspect?: UploadInspector,
): Promise<void> {
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== fileField || upload.file) {
        await part.toBuffer(); // drain it so the stream ends cleanly
        throw invalid(['body', part.fieldname], `unexpected file field '${part.fieldname}'; send exactly one file in '${fileField}'`, 'value_error.file');
      }
      upload.file = { fieldName: part.fieldname, fileName: part.filename || fileField, content: await receive(fileChunks(part.file, upload.fields, inspect)) };
    } else {
      upload.fields[part.fieldname] = String(part.value);
    }
  }
}

/**
 * A file part's bytes as they arrive, shown to `inspect` first (until it has seen enough). Over the upload limit → 413
 * after the part has been read to its end (as @fastify/multipart's toBuffer does), so the connection stays usable.
 */
async function* fileChunks(
  file: AsyncIterable<Buffer> & { truncated?: boolean },
  fields: Record<string, string>,
  inspect?: UploadInspector,
): AsyncGenerator<Buffer> {
  const seen: Buffer[] = [];
  let size = 0;
  let inspecting = inspect !== undefined;
  for await (const chunk of file) {
    if (file.truncated) continue; // over the limit: read on, pass nothing on
    if (inspecting) {
      seen.push(chunk);
      size += chunk.length;
      try {
        inspecting = !inspect!(fields, seen.length === 1 ? chunk : Buffer.concat(seen, size));
      } catch (refusal) {
        // Leaving the loop destroys the file stream: busboy stops, nothing more is read.
        throw new EarlyRefusal(refusal);
      }
      if (!inspecting) seen.length = 0;
    }
    yield chunk;
  }
  if (file.truncated) throw Object.assign(new Error('request file too large'), { statusCode: 413, code: 'FST_REQ_FILE_TOO_LARGE' });
}

/**
 * After an answer sent before the body was read to the end (EarlyRefusal, an oversize Content-Length): the rest is
 * read and dropped, so a client that sends its whole body before it reads the answer (python-requests, undici) gets
 * it, and the connection serves the next request once the body has ended (HTTP/1.1 lets a server answer early).
 */
export function drainAfterRefusal(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.readableEnded) return;
  raw.unpipe();
  raw.on('error', () => undefined);
  raw.resume();
}
