import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart'; // brings in the request.parts() typings
import { invalid } from './api-errors.js';

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
    throw invalid(['body'], `expected a multipart/form-data body with fields 'model' and '${fileField}'; got content-type '${request.headers['content-type'] ?? 'none'}'`, 'value_error.content_type');
  }
  const upload: MultipartUpload = { fields: {} };
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
  return upload;
}
