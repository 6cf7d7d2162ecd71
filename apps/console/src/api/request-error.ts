import { QdcApiError } from '@qdc/client';

/** The client's error for a non-2xx answer of a route called with plain fetch (body read as JSON when it is). */
export async function requestError(response: Response, method: string, path: string): Promise<QdcApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: kept as text
  }
  return new QdcApiError({
    status: response.status,
    body,
    requestId: response.headers.get('x-request-id'),
    retryAfter: response.headers.get('retry-after'),
    method,
    url: response.url || path,
  });
}
