import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { RpcError, type RpcErrorCode } from '#qdc/contracts';
import { ApiError } from '../http/api-errors.js';

const STATUS_OF: Record<RpcErrorCode, number> = {
  invalid_input: 422,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  conflict: 409,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

/**
 * Coda routes answer failures as `{success: false, error}` (SPEC §4) with the same statuses the
 * control API uses; `detail` repeats the message for clients that read FastAPI-style bodies.
 * Auth errors keep their headers (WWW-Authenticate, Retry-After); 5xx bodies carry only an
 * error id that is also logged.
 */
@Catch()
export class CodaExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Coda');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, error, headers, extra } = this.describe(exception, request);
    if (headers) for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    void reply.status(status).send({ success: false, error, detail: error, ...extra });
  }

  private describe(exception: unknown, request: FastifyRequest): { status: number; error: string; headers?: Record<string, string>; extra?: Record<string, unknown> } {
    if (exception instanceof ApiError) {
      const body = exception.getResponse() as { detail: string };
      return { status: exception.getStatus(), error: body.detail, headers: exception.headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse() as { detail?: unknown } | string;
      const detail = typeof body === 'object' && body && 'detail' in body ? body.detail : undefined;
      const error = typeof detail === 'string' ? detail : Array.isArray(detail) ? detail.map((d: { msg?: string }) => d.msg).join('; ') : status === 404 ? 'Not Found' : exception.message;
      return { status, error };
    }
    if (exception instanceof RpcError) {
      const status = STATUS_OF[exception.code];
      if (status < 500) {
        const details = (exception.details ?? {}) as { line?: number | null; construct?: string | null };
        const extra = details.line ? { line: details.line, ...(details.construct ? { construct: details.construct } : {}) } : undefined;
        return { status, error: exception.message, extra };
      }
      return this.serverError(status, exception, request);
    }
    const fastifyError = exception as { statusCode?: number; message?: string };
    if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode < 500) {
      const status = fastifyError.statusCode === 400 ? 422 : fastifyError.statusCode;
      return { status, error: status === 413 ? `Request body too large: ${fastifyError.message}` : (fastifyError.message ?? 'Bad Request') };
    }
    return this.serverError(500, exception, request);
  }

  private serverError(status: number, exception: unknown, request: FastifyRequest): { status: number; error: string; extra: Record<string, unknown> } {
    const errorId = randomUUID();
    const detail = exception instanceof RpcError ? `${exception.code}: ${exception.message}` : ((exception as Error)?.stack ?? String(exception));
    this.logger.error(`[${request.id}] error_id=${errorId} ${request.method} ${request.url}: ${detail}`);
    const error = status === 503 ? 'Service Unavailable' : status === 504 ? 'Gateway Timeout' : 'Internal Server Error';
    return { status, error, extra: { error_id: errorId } };
  }
}
