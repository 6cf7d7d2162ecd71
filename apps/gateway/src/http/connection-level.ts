import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { randomUUID } from 'node:crypto';

/** Longest caller X-Request-Id we keep (it goes into every log line, NATS header and job id). */
export const MAX_REQUEST_ID_LENGTH = 128;
const REQUEST_ID = /^[A-Za-z0-9._:-]+$/;

/** The caller's X-Request-Id when it is short and plain; otherwise a fresh UUID (never an error). */
export function requestIdFor(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value && value.length <= MAX_REQUEST_ID_LENGTH && REQUEST_ID.test(value)) return value;
  return randomUUID();
}

/**
 * Errors Node's HTTP parser meets before Fastify has a request (headers too large, a malformed
 * request line, a slow client) still answer FastAPI-style: `{"detail": "..."}`.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request header fields too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timeout']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
