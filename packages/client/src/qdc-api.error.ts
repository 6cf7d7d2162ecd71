import type { ValidationIssue } from './wire.types.js';

/**
 * Any answer of the API that is not a success: the status, the FastAPI `detail` (a message, or for validation the
 * list `[{loc, msg, type}]`), the request id the server logged it under (`X-Request-Id`) and, on coda routes
 * (circuit tools, QPUs, assistant), `error` with `success: false`. `body` is the parsed answer as it came.
 */
export class QdcApiError extends Error {
  override readonly name = 'QdcApiError';
  readonly status: number;
  readonly detail: string | ValidationIssue[] | undefined;
  readonly requestId: string | undefined;
  /** Coda routes: the failure message. */
  readonly error: string | undefined;
  /** Coda routes: `false`. */
  readonly success: false | undefined;
  /** 5xx: the id of the error in the server's log. */
  readonly errorId: string | undefined;
  /** `Retry-After` in seconds (429, 503), when sent. */
  readonly retryAfterSeconds: number | undefined;
  readonly method: string;
  readonly url: string;
  readonly body: unknown;

  constructor(init: { status: number; body: unknown; requestId?: string | null; retryAfter?: string | null; method: string; url: string }) {
    const body = init.body;
    const fields = isRecord(body) ? body : {};
    const detail = typeof fields.detail === 'string' || Array.isArray(fields.detail) ? (fields.detail as string | ValidationIssue[]) : undefined;
    const error = typeof fields.error === 'string' ? fields.error : undefined;
    super(`${init.status} ${describe(detail, error, body)} (${init.method} ${pathOf(init.url)})`);
    this.status = init.status;
    this.detail = detail;
    this.error = error;
    this.success = fields.success === false ? false : undefined;
    this.errorId = typeof fields.error_id === 'string' ? fields.error_id : undefined;
    this.requestId = init.requestId ?? undefined;
    const retryAfter = init.retryAfter ? Number(init.retryAfter) : Number.NaN;
    this.retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
    this.method = init.method;
    this.url = init.url;
    this.body = body;
  }

  /** The validation problems (422), or an empty list. */
  get issues(): ValidationIssue[] {
    return Array.isArray(this.detail) ? this.detail : [];
  }
}

/**
 * No answer at all (network down, DNS, connection reset) or an answer that is not what the route sends (a proxy's
 * HTML page where JSON was due). `cause` holds the underlying error.
 */
export class QdcTransportError extends Error {
  override readonly name = 'QdcTransportError';
  constructor(
    message: string,
    readonly requestId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** The event stream ended (connection dropped) before its terminal event; resume with `lastEventId`. */
export class QdcStreamInterruptedError extends Error {
  override readonly name = 'QdcStreamInterruptedError';
  constructor(
    readonly lastEventId: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`the event stream ended before its terminal event${lastEventId ? ` (resume with lastEventId '${lastEventId}')` : ''}`, options);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(detail: string | ValidationIssue[] | undefined, error: string | undefined, body: unknown): string {
  if (Array.isArray(detail) && detail.length > 0) {
    const issues = detail.map((i) => (isRecord(i) ? `${Array.isArray(i.loc) ? i.loc.join('.') : '?'}: ${String(i.msg)}` : String(i)));
    return issues.join('; ');
  }
  if (error) return error;
  if (typeof detail === 'string' && detail) return detail;
  if (typeof body === 'string' && body) return body.length > 200 ? `${body.slice(0, 200)}…` : body;
  return 'no error message';
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname;
  } catch {
    return url;
  }
}
