import { apiKeyHint, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.js';

describe('api keys', () => {
  it('generates coda_ keys with 43 url-safe characters, all different', () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(/^coda_[A-Za-z0-9_-]{43}$/);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.every(isWellFormedApiKey)).toBe(true);
  });

  it('rejects malformed tokens before any lookup', () => {
    for (const token of ['', 'coda_', `coda_${'a'.repeat(42)}`, `coda_${'a'.repeat(44)}`, `sk_${'a'.repeat(43)}`, `coda_${'a'.repeat(42)}!`]) {
      expect(isWellFormedApiKey(token)).toBe(false);
    }
  });

  it('hashes deterministically, differently per pepper, never containing the token', () => {
    const key = generateApiKey();
    const a = hashApiKey(key, 'pepper-one-0123456789');
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key, 'pepper-one-0123456789')).toBe(a);
    expect(hashApiKey(key, 'pepper-two-0123456789')).not.toBe(a);
    expect(a).not.toContain(key.slice(5, 15));
    expect(apiKeyHint(key)).toBe(`${key.slice(0, 9)}…`);
  });
});
