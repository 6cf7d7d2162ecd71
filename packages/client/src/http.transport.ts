import { QdcApiError, QdcTransportError } from './qdc-api.error.js';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** The server root, e.g. `http://127.0.0.1:8000` (paths are the canonical `/v0/control/…`, `/v0/coda/…`). */
  baseUrl: string;
  /** An API key (`coda_…`), sent as `Authorization: Bearer`. */
  token?: string;
  /** Default: the global fetch (Node 20+, browsers). */
  fetch?: FetchLike;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /**
   * How often a request answered 503 or 429 with `Retry-After` is sent again (same `X-Request-Id`, after the wait the
   * server asked for, at most 30 s); default 2. Only requests that are safe to repeat are: reads, deletions, votes,
   * circuit tools, model runs (the server finds a retried run by its request id) and QPU submissions with an
   * Idempotency-Key.
   */
  maxRetries?: number;
}

/** Per call: cancel with a signal; pick the request id (a retried model run with the same id is not run twice). */
export interface CallOptions {
  signal?: AbortSignal;
  requestId?: string;
}

export interface SendRequest extends CallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | null | undefined>;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** Safe to send again after a 503/429 with Retry-After. */
  retry: boolean;
}

const MAX_RETRY_WAIT_MS = 30_000;

/** A random request id: a UUID where the platform has `crypto.randomUUID` (Node, browsers on https), else 32 hex digits. */
export function newRequestId(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto;
  if (c?.randomUUID) return c.randomUUID();
  let id = '';
  for (let i = 0; i < 32; i++) id += Math.floor(Math.random() * 16).toString(16);
  return id;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/** Waits, or rejects when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** fetch with the key, request ids, the API's errors as QdcApiError, and retries where the server asks for them. */
export class HttpTransport {
  readonly baseUrl: string;
  private readonly fetchImpl: FetchLike;
  private readonly maxRetries: number;

  constructor(private readonly options: TransportOptions) {
    if (!options.baseUrl) throw new TypeError('createClient needs baseUrl, the server root (e.g. http://127.0.0.1:8000)');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    // The global fetch must be called with its own `this` in browsers.
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxRetries = options.maxRetries ?? 2;
  }

  url(path: string, query?: SendRequest['query']): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) params.append(key, String(value));
    const search = params.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  /** Sends the request; answers the response of a 2xx, throws QdcApiError for any other status. */
  async send(request: SendRequest): Promise<Response> {
    const url = this.url(request.path, request.query);
    const requestId = request.requestId ?? newRequestId();
    const headers: Record<string, string> = { accept: 'application/json', ...this.options.headers, 'x-request-id': requestId, ...request.headers };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let body: RequestInit['body'];
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.form) body = request.form;

    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetchImpl(url, { method: request.method, headers, body, signal: request.signal });
      } catch (error) {
        if (request.signal?.aborted) throw error;
        throw new QdcTransportError(`${request.method} ${url} failed: ${(error as Error).message}`, requestId, { cause: error });
      }
      if (response.ok) return response;
      const error = await this.toError(response, request.method, url, requestId);
      const wait = error.retryAfterSeconds;
      if (request.retry && attempt < this.maxRetries && (error.status === 503 || error.status === 429) && wait !== undefined) {
        await sleep(Math.min(wait * 1000, MAX_RETRY_WAIT_MS), request.signal);
        continue;
      }
      throw error;
    }
  }

  async json<T>(request: SendRequest): Promise<T> {
    const response = await this.send(request);
    const text = await response.text();
    try {
      return JSON.parse(text) as T;
    } catch (error) {
      throw new QdcTransportError(
        `${request.method} ${request.path} answered ${response.status} with a body that is not JSON (${response.headers.get('content-type') ?? 'no content type'}): ${text.slice(0, 120)}`,
        response.headers.get('x-request-id') ?? undefined,
        { cause: error },
      );
    }
  }

  async bytes(request: SendRequest): Promise<Uint8Array> {
    const response = await this.send(request);
    return new Uint8Array(await response.arrayBuffer());
  }

  private async toError(response: Response, method: string, url: string, sentId: string): Promise<QdcApiError> {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (a proxy's page): kept as text
    }
    return new QdcApiError({
      status: response.status,
      body,
      requestId: response.headers.get('x-request-id') ?? sentId,
      retryAfter: response.headers.get('retry-after'),
      method,
      url,
    });
  }
}
