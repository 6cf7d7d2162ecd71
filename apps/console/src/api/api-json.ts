import type { ConsoleApi } from './console-api.js';
import { requestError } from './request-error.js';

/** A JSON call of a route the typed client has no method for; errors are the client's QdcApiError. */
export async function requestJson<T>(api: ConsoleApi, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await api.fetch(path, init);
  if (!response.ok) throw await requestError(response, method, path);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
