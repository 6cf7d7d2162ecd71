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
 * not buffered, stored or queued; see drainAfterRefusal for the rest of the body.
 */
export async function readMultipart<F>(
  request: FastifyRequest,
  fileField: string,
  receive: FileReceiver<F>,
  inspect?: UploadInspector,
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
    await readParts(request, fileField, upload, receive, inspect);
  } catch (error) {
    if (error instanceof EarlyRefusal) throw error;
    // Our own 4xx and @fastify/multipart's limit errors (413, ...) carry their status; anything else
    // thrown while parsing is busboy meeting a body that is not the multipart it claims to be.
    if (error instanceof ValidationFailed || isClientError(error)) throw error;
    throw invalid(['body'], `expected a well-formed multipart/form-data body; ${(error as Error).message ?? String(error)}`, 'value_error.multipart');
  }
  return upload;
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
