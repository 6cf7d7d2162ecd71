import { QdcApiError, QdcTransportError } from '@qdc/client';

/** What went wrong, in words a user can act on: the API's own message, and which scope a 403 is about. */
export function describeError(error: unknown): string {
  if (error instanceof QdcApiError) {
    const message =
      error.issues.length > 0 ? error.issues.map((i) => i.msg).join('; ') : (error.error ?? (typeof error.detail === 'string' ? error.detail : error.message));
    if (error.status === 403) return `This API key may not do that (${message}).`;
    if (error.status === 404) return `Not found (${message}).`;
    if (error.status === 429) return `Too many requests; try again${error.retryAfterSeconds ? ` in ${error.retryAfterSeconds} s` : ''} (${message}).`;
    if (error.status >= 500) return `The server failed (${message})${error.errorId ? `; error id ${error.errorId}` : ''}.`;
    return message;
  }
  if (error instanceof QdcTransportError) return `The server did not answer as expected: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** An error announced to screen readers at once (role alert). */
export function ErrorNote({ error, context }: { error: unknown; context?: string }) {
  if (error === undefined || error === null) return null;
  return (
    <p class="note note-error" role="alert">
      {context ? `${context}: ` : ''}
      {describeError(error)}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="note" role="status">
      Loading {what}…
    </p>
  );
}
