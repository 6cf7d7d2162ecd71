import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart'; // brings in the request.parts() typings
import { ValidationFailed, invalid } from './api-errors.js';

export interface MultipartUpload {
  fields: Record<string, string>;
  file?: { fieldName: string; fileName: string; bytes: Buffer };
}

/**
 * Reads a multipart/form-data body: text fields plus the one file field. Files over the upload
 * limit make @fastify/multipart throw a 413 error, which the exception filter answers.
 */
export async function readMultipart(request: FastifyRequest, fileField: string): Promise<MultipartUpload> {
  if (!request.isMultipart()) {
    throw invalid(
      ['body'],
      `expected a multipart/form-data body with fields 'model' and '${fileField}'; got content-type '${request.headers['content-type'] ?? 'none'}'`,
      'value_error.content_type',
    );
  }
  const upload: MultipartUpload = { fields: {} };
  try {
    await readParts(request, fileField, upload);
  } catch (error) {
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

async function readParts(request: FastifyRequest, fileField: string, upload: MultipartUpload): Promise<void> {
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== fileField || upload.file) {
        await part.toBuffer(); // drain it so the stream ends cleanly
        throw invalid(['body', part.fieldname], `unexpected file field '${part.fieldname}'; send exactly one file in '${fileField}'`, 'value_error.file');
      }
      upload.file = { fieldName: part.fieldname, fileName: part.filename || fileField, bytes: await part.toBuffer() };
    } else {
      upload.fields[part.fieldname] = String(part.value);
    }
  }
}
