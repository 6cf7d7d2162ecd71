import { createHash, randomBytes } from 'node:crypto';

/** `coda_` + 43 url-safe base64 characters (32 random bytes), as the official client expects. */
const API_KEY_PATTERN = /^coda_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): string {
  return `coda_${randomBytes(32).toString('base64url')}`;
}

export function isWellFormedApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

/** Only this hash is stored: SHA-256 over a server-side pepper and the token. */
export function hashApiKey(token: string, pepper: string): string {
  return createHash('sha256').update(pepper).update('\0').update(token).digest('hex');
}

/** What listings show of a key: enough to tell keys apart, useless to an attacker. */
export function apiKeyHint(token: string): string {
  return `${token.slice(0, 9)}…`;
}
