import { z } from 'zod';
import { ApiKeyDto, CreatedApiKeyDto, KeyRevokedEvent, KeysCreateRequest, KeysListRequest, KeysRevokeRequest, KeysVerifyRequest } from '../keys.js';
import { OwnerEnsureRequest, OwnerEnsureResponse } from '../lab-streams.js';
import { Principal } from '../scopes.js';
import { Events, Subjects } from '../subjects.js';
import { defineEvent, defineRpc } from './define.js';

/** apps/results: API keys and owners. */
export const KeysRpc = {
  /** gateway → results: the key's principal from the hash of its token. */
  verify: defineRpc({ subject: Subjects.KeysVerify, request: KeysVerifyRequest, response: Principal }),
  create: defineRpc({ subject: Subjects.KeysCreate, request: KeysCreateRequest, response: CreatedApiKeyDto }),
  list: defineRpc({ subject: Subjects.KeysList, request: KeysListRequest, response: z.array(ApiKeyDto) }),
  revoke: defineRpc({ subject: Subjects.KeysRevoke, request: KeysRevokeRequest, response: ApiKeyDto }),
  /** lab-streams → results: the owner named like a lab, created if missing. */
  ensureOwner: defineRpc({ subject: Subjects.OwnerEnsure, request: OwnerEnsureRequest, response: OwnerEnsureResponse }),
} as const;

export const KeysEvents = {
  /** Every gateway drops a revoked key from its cache at once. */
  revoked: defineEvent({ subject: Events.KeyRevoked, payload: KeyRevokedEvent }),
} as const;
