import { QdcApiError } from '@qdc/client';
import type { ConsoleApi } from './console-api.js';

/** A JSON call of a route the typed client has no method for; errors are the client's QdcApiError. */
export async function requestJson<T>(api: ConsoleApi, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await api.fetch(path, init);
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON (a proxy's page): kept as text for the error
  }
  if (!response.ok) {
    throw new QdcApiError({
      status: response.status,
      body: parsed,
      requestId: response.headers.get('x-request-id'),
      retryAfter: response.headers.get('retry-after'),
      method,
      url: response.url || path,
    });
  }
  return parsed as T;
}
