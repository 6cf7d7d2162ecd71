import { createClient, type QdcClient } from '@qdc/client';

/**
 * The console's one way to the API: the typed client for every route it has, and `fetch` (same key, same 401
 * handling) for the few it has not (lab streams, event streams; see the files next to this one). Any 401 — a key
 * revoked or unknown — calls `onUnauthorized`, which signs the session out.
 */
export interface ConsoleApi {
  client: QdcClient;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * Calls `listener` with the status of the answer to the request sent with this `X-Request-Id`, when its headers
   * arrive: how an event stream of the client is known to be connected before its first event.
   */
  onAnswer(requestId: string, listener: (status: number) => void): () => void;
}

export function createConsoleApi(token: string, onUnauthorized: () => void, baseUrl = location.origin): ConsoleApi {
  const answerListeners = new Map<string, (status: number) => void>();
  const watched = async (input: string, init?: RequestInit): Promise<Response> => {
    const response = await globalThis.fetch(input, init);
    if (response.status === 401) onUnauthorized();
    const requestId = new Headers(init?.headers).get('x-request-id');
    if (requestId) answerListeners.get(requestId)?.(response.status);
    return response;
  };
  const client = createClient({ baseUrl, token, fetch: watched });
  return {
    client,
    fetch: (path, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${token}`);
      if (!headers.has('accept')) headers.set('accept', 'application/json');
      return watched(`${baseUrl}${path}`, { ...init, headers });
    },
    onAnswer: (requestId, listener) => {
      answerListeners.set(requestId, listener);
      return () => answerListeners.delete(requestId);
    },
  };
}

export type KeyProbe = { ok: true; admin: boolean } | { ok: false; message: string };

/**
 * Checks a key and finds whether it holds the admin scope, with one call that needs admin: `GET /v0/admin/keys`
 * (filtered to an owner nobody has, so an admin's answer is short). 200 = admin, 403 = a valid key without admin,
 * 401 = not a key the server accepts.
 */
export async function probeKey(token: string, baseUrl = location.origin): Promise<KeyProbe> {
  let response: Response;
  try {
    response = await globalThis.fetch(`${baseUrl}/v0/admin/keys?owner=${encodeURIComponent('qdc-console-scope-probe')}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
  } catch (error) {
    return { ok: false, message: `The server did not answer (${(error as Error).message}).` };
  }
  await response.body?.cancel().catch(() => undefined);
  if (response.ok) return { ok: true, admin: true };
  if (response.status === 403) return { ok: true, admin: false };
  if (response.status === 401) return { ok: false, message: 'That API key was not accepted (unknown or revoked).' };
  if (response.status === 429) return { ok: false, message: 'Too many requests with this key; wait a moment and sign in again.' };
  return { ok: false, message: `The server answered ${response.status} while checking the key; try again.` };
}
