import { z } from 'zod';
import { ApiKeyDto, CreatedApiKeyDto } from '../keys.js';
import { CreatedLabCredentialDto, LabCredentialCreateRequest, LabCredentialDto, RevokedLabCredentialDto } from '../lab.js';
import { LabStreamCreateRequest, LabStreamDeleteResponse, LabStreamDto, LabStreamEvent } from '../lab-streams.js';
import { QpuBudgetDto } from '../qpu.js';
import { Scope } from '../scopes.js';

/** Admin routes (`admin` scope): API keys, QPU budgets, lab credentials and live instrument streams; the CLI does the same. */

export const ApiKeyHttp = ApiKeyDto.meta({ id: 'ApiKey' });
export type ApiKeyHttp = z.infer<typeof ApiKeyHttp>;
export const ApiKeysHttpResponse = z.array(ApiKeyHttp);
export type ApiKeysHttpResponse = z.infer<typeof ApiKeysHttpResponse>;
export const ApiKeysHttpQuery = z.object({ owner: z.string().optional().meta({ description: 'only this owner’s keys' }) });
export type ApiKeysHttpQuery = z.infer<typeof ApiKeysHttpQuery>;

/** `POST /v0/admin/keys`. */
export const ApiKeyCreateHttpRequest = z
  .object({
    name: z.string().min(1).max(200),
    owner: z.string().min(1).max(200).nullish().meta({ description: 'the owner (user or team); default: the name' }),
    scopes: z.array(Scope).min(1).nullish().meta({ description: 'default: ["control", "coda"]' }),
  })
  .meta({ id: 'ApiKeyCreateRequest' });
export type ApiKeyCreateHttpRequest = z.input<typeof ApiKeyCreateHttpRequest>;

/** The creation answer: the only one that holds the token (shown once; only its hash is stored). */
export const CreatedApiKeyHttp = CreatedApiKeyDto.meta({ id: 'CreatedApiKey' });
export type CreatedApiKeyHttp = z.infer<typeof CreatedApiKeyHttp>;

export const ApiKeyHttpParams = z.object({ id: z.string().meta({ description: 'the key id (UUID)' }) });
export type ApiKeyHttpParams = z.infer<typeof ApiKeyHttpParams>;

/** `PUT /v0/admin/budgets/{owner}`: cents, null = unlimited. */
export const QpuBudgetHttpRequest = z
  .object({
    budget_cents: z.number({ error: 'budget_cents must be a non-negative integer or null (unlimited)' }).int().nonnegative().nullable(),
  })
  .meta({ id: 'QpuBudgetRequest' });
export type QpuBudgetHttpRequest = z.input<typeof QpuBudgetHttpRequest>;

export const QpuBudgetHttp = QpuBudgetDto.meta({ id: 'QpuBudget' });
export type QpuBudgetHttp = z.infer<typeof QpuBudgetHttp>;

export const QpuBudgetHttpParams = z.object({ owner: z.string().meta({ description: 'the owner’s name' }) });
export type QpuBudgetHttpParams = z.infer<typeof QpuBudgetHttpParams>;

/** `POST /v0/admin/lab-streams`: declares (or redefines) a live instrument stream. */
export const LabStreamCreateHttpRequest = LabStreamCreateRequest.meta({ id: 'LabStreamCreateRequest' });
export type LabStreamCreateHttpRequest = z.input<typeof LabStreamCreateHttpRequest>;

export const LabStreamHttp = LabStreamDto.meta({ id: 'LabStream' });
export type LabStreamHttp = z.infer<typeof LabStreamHttp>;
export const LabStreamsHttpResponse = z.array(LabStreamHttp);
export type LabStreamsHttpResponse = z.infer<typeof LabStreamsHttpResponse>;
export const LabStreamsHttpQuery = z.object({ lab: z.string().optional().meta({ description: 'only this lab’s streams' }) });
export type LabStreamsHttpQuery = z.infer<typeof LabStreamsHttpQuery>;

export const LabStreamHttpParams = z.object({ lab: z.string(), name: z.string() });
export type LabStreamHttpParams = z.infer<typeof LabStreamHttpParams>;
/** `GET /v0/admin/lab-streams/{lab}/{name}/results/{id}/download`: a stream result of the lab's owner, for the admin. */
export const LabStreamResultHttpParams = z.object({
  lab: z.string(),
  name: z.string(),
  id: z.string().meta({ description: 'the result id (a frame event’s result_id)' }),
});
export type LabStreamResultHttpParams = z.infer<typeof LabStreamResultHttpParams>;
export const LabStreamDeleteHttpResponse = LabStreamDeleteResponse.meta({ id: 'LabStreamDeleteResponse' });
export type LabStreamDeleteHttpResponse = z.infer<typeof LabStreamDeleteHttpResponse>;

/** `GET /v0/admin/lab-credentials`: every lab's NATS nkey user (public key only). */
export const LabCredentialHttp = LabCredentialDto.meta({ id: 'LabCredential' });
export type LabCredentialHttp = z.infer<typeof LabCredentialHttp>;
export const LabCredentialsHttpResponse = z.array(LabCredentialHttp);
export type LabCredentialsHttpResponse = z.infer<typeof LabCredentialsHttpResponse>;

/** `POST /v0/admin/lab-credentials`: issues a lab's nkey user. */
export const LabCredentialCreateHttpRequest = LabCredentialCreateRequest.meta({ id: 'LabCredentialCreateRequest' });
export type LabCredentialCreateHttpRequest = z.input<typeof LabCredentialCreateHttpRequest>;

/** The creation answer: the only one holding the nkey seed (`credentials` is the lab's credentials file, as `qdc lab add` writes it). */
export const CreatedLabCredentialHttp = CreatedLabCredentialDto.meta({ id: 'CreatedLabCredential' });
export type CreatedLabCredentialHttp = z.infer<typeof CreatedLabCredentialHttp>;

export const LabCredentialHttpParams = z.object({ lab: z.string().meta({ description: 'the lab id' }) });
export type LabCredentialHttpParams = z.infer<typeof LabCredentialHttpParams>;
export const RevokedLabCredentialHttp = RevokedLabCredentialDto.meta({ id: 'RevokedLabCredential' });
export type RevokedLabCredentialHttp = z.infer<typeof RevokedLabCredentialHttp>;

/** `GET /v0/lab-streams/{lab}/{name}/events` (SPEC §7), for the lab's owner or admin keys. */
export const LabStreamEventsHttpParams = z.object({ lab: z.string(), name: z.string() });
export type LabStreamEventsHttpParams = z.infer<typeof LabStreamEventsHttpParams>;
export const LabStreamEventsHttpHeaders = z.object({
  'Last-Event-ID': z.string().optional().meta({ description: 'the seq of the last event received: the stream resumes after it' }),
});
export type LabStreamEventsHttpHeaders = z.infer<typeof LabStreamEventsHttpHeaders>;

/** One SSE event: a frame's event exactly as published on the lab's results subject. */
export const LabStreamEventHttp = LabStreamEvent.meta({ id: 'LabStreamEvent' });
export type LabStreamEventHttp = z.infer<typeof LabStreamEventHttp>;
