import { z } from 'zod';
import { Scope } from './scopes.js';

export const KeysVerifyRequest = z.object({ tokenHash: z.string().regex(/^[0-9a-f]{64}$/) });
export type KeysVerifyRequest = z.infer<typeof KeysVerifyRequest>;

export const KeysCreateRequest = z.object({
  ownerName: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  scopes: z.array(Scope).min(1),
});
export type KeysCreateRequest = z.infer<typeof KeysCreateRequest>;

export const ApiKeyDto = z.object({
  id: z.string().uuid(),
  name: z.string(),
  owner: z.string(),
  scopes: z.array(Scope),
  token_hint: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type ApiKeyDto = z.infer<typeof ApiKeyDto>;

/** The only message that carries a plaintext token: the creation reply, shown once. */
export const CreatedApiKeyDto = ApiKeyDto.extend({ token: z.string() });
export type CreatedApiKeyDto = z.infer<typeof CreatedApiKeyDto>;

export const KeysListRequest = z.object({ ownerName: z.string().optional() });
export type KeysListRequest = z.infer<typeof KeysListRequest>;

export const KeysRevokeRequest = z.object({ id: z.string() });
export type KeysRevokeRequest = z.infer<typeof KeysRevokeRequest>;

export const KeyRevokedEvent = z.object({ id: z.string().uuid(), tokenHash: z.string() });
export type KeyRevokedEvent = z.infer<typeof KeyRevokedEvent>;
