import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { RpcError, type RpcErrorCode } from '#qdc/contracts';
import { ApiError } from './api-errors.js';

const STATUS_OF: Record<RpcErrorCode, number> = {
  invalid_input: 422,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  conflict: 409,
  payment_required: 402,
  unavailable: 503,
  timeout: 504,
  internal: 500,
};

/** Retry-After of a 503: about a NATS reconnect (500 ms waits) or a service restart under a supervisor. */
export const RETRY_AFTER_SECONDS = 2;

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The one exception filter: known errors map to their status and FastAPI-style body;
 * anything else is a 500 whose body carries only an error id that is also logged.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body, headers } = describeException(exception, request, this.logger);
    if (headers) for (const [k, v] of Object.entries(headers)) reply.header(k, v);
    void reply.status(status).send(this.render(body, exception));
  }

  /** The body as sent; FastAPI-style here, overridden by routes with another error format. */
  protected render(body: unknown, _exception: unknown): unknown {
    return body;
  }
}

/** Answers an error on a route served outside Nest (plain Fastify routes) exactly as ApiExceptionFilter does. */
export function sendException(reply: FastifyReply, exception: unknown, request: FastifyRequest, logger: Logger): FastifyReply {
  const { status, body, headers } = describeException(exception, request, logger);
  if (headers) reply.headers(headers);
  return reply.status(status).send(body);
}

/** Status, FastAPI-style body and headers of an error (also used by routes served outside Nest). */
export function describeException(exception: unknown, request: FastifyRequest, logger: Logger): ErrorResponse {
  if (exception instanceof ApiError) {
    return { status: exception.getStatus(), body: exception.getResponse(), headers: exception.headers };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    if (typeof response === 'object' && response !== null && 'detail' in response) return { status, body: response };
    return { status, body: { detail: status === 404 ? 'Not Found' : exception.message } };
  }
  if (exception instanceof RpcError) {
    const status = STATUS_OF[exception.code];
    if (exception.code === 'invalid_input') {
      const details = (exception.details ?? {}) as { loc?: (string | number)[]; type?: string };
      return { status, body: { detail: [{ loc: details.loc ?? ['body', 'data'], msg: exception.message, type: details.type ?? 'value_error' }] } };
    }
    if (status < 500) return { status, body: { detail: exception.message } };
    return serverError(status, exception, request, logger);
  }
  const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode < 500) {
    return fromFastify(fastifyError as { statusCode: number; code?: string; message?: string });
  }
  return serverError(500, exception, request, logger);
}

/** Errors raised by Fastify and its plugins before a handler runs (body limits, bad JSON). */
function fromFastify(error: { statusCode: number; code?: string; message?: string }): { status: number; body: unknown } {
  if (error.statusCode === 413) return { status: 413, body: { detail: `Request body too large: ${error.message}` } };
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, body: { detail: error.message } };
  if (error.statusCode === 400) {
    return { status: 422, body: { detail: [{ loc: ['body'], msg: error.message ?? 'malformed request body', type: 'value_error.body' }] } };
  }
  return { status: error.statusCode, body: { detail: error.message ?? 'Bad Request' } };
}

function serverError(status: number, exception: unknown, request: FastifyRequest, logger: Logger): ErrorResponse {
  const errorId = randomUUID();
  const detail = exception instanceof RpcError ? `${exception.code}: ${exception.message}` : ((exception as Error)?.stack ?? String(exception));
  logger.error(`[${request.id}] error_id=${errorId} ${request.method} ${request.url}: ${detail}`);
  const message = status === 503 ? 'Service Unavailable' : status === 504 ? 'Gateway Timeout' : 'Internal Server Error';
  // 503 is transient (a service restarting, NATS reconnecting): tell the client when to retry.
  return { status, body: { detail: message, error_id: errorId }, ...(status === 503 ? { headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } } : {}) };
}
