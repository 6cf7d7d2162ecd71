/**
 * The signed-in API key lives in sessionStorage only (never localStorage): it is sent by the console itself as
 * `Authorization: Bearer`, it dies with the tab, and no other tab or later visitor of the browser profile sees it.
 * apps/console/README.md says why this was chosen over a gateway session cookie.
 */
const KEY = 'qdc.console.apiKey';
const ADMIN = 'qdc.console.admin';
/** Everything else the console keeps for the tab (assistant threads, a stream to resume) starts with this prefix. */
export const SESSION_PREFIX = 'qdc.console.';

export interface StoredSession {
  token: string;
  admin: boolean;
}

export function loadSession(storage: Storage = sessionStorage): StoredSession | undefined {
  const token = storage.getItem(KEY);
  return token ? { token, admin: storage.getItem(ADMIN) === '1' } : undefined;
}

export function saveSession(session: StoredSession, storage: Storage = sessionStorage): void {
  storage.setItem(KEY, session.token);
  storage.setItem(ADMIN, session.admin ? '1' : '0');
}

/** Signs out: the key and everything the console kept for this tab (threads, resumable streams) are forgotten. */
export function clearSession(storage: Storage = sessionStorage): void {
  for (let i = storage.length - 1; i >= 0; i--) {
    const name = storage.key(i);
    if (name?.startsWith(SESSION_PREFIX)) storage.removeItem(name);
  }
}

/** What the header shows of the key: its last four characters (the rest is never displayed). */
export function keyHint(token: string): string {
  return `…${token.slice(-4)}`;
}

/** Whether this tab still holds a key (a late write after sign-out must not bring session data back). */
export function isSignedIn(storage: Storage = sessionStorage): boolean {
  return storage.getItem(KEY) !== null;
}
