import { Inject, Injectable } from '@nestjs/common';
import { KeysEvents, RpcError, Scope, type ApiKeyDto, type CreatedApiKeyDto, type KeysCreateRequest, type Principal } from '#qdc/contracts';
import type { QdcConfig } from '../config/config.js';
import { QDC_CONFIG } from '../config/config.module.js';
import { EventBus } from '../nats/event-bus.js';
import { NatsConnection } from '../nats/nats-connection.js';
import { apiKeyHint, generateApiKey, hashApiKey } from './api-key.js';
import { KeysRepository } from './keys.repository.js';

type KeyRow = Awaited<ReturnType<KeysRepository['create']>>;

@Injectable()
export class KeysService {
  constructor(
    private readonly repository: KeysRepository,
    private readonly events: EventBus,
    private readonly nats: NatsConnection,
    @Inject(QDC_CONFIG) private readonly config: QdcConfig,
  ) {}

  /** Creates a key; the reply is the only place the plaintext token ever appears. */
  async create(request: KeysCreateRequest): Promise<CreatedApiKeyDto> {
    const owner = await this.repository.ownerByName(request.ownerName);
    const token = generateApiKey();
    const scopes = [...new Set(request.scopes)];
    const row = await this.repository.create({
      ownerId: owner.id,
      name: request.name,
      tokenHash: hashApiKey(token, this.config.QDC_API_KEY_PEPPER),
      tokenHint: apiKeyHint(token),
      scopes,
    });
    return { ...this.toDto(row), token };
  }

  /** The owner named `name` (created on first use, like `keys create --owner`), e.g. the owner of a lab's stream results. */
  async ensureOwner(name: string): Promise<{ id: string; name: string }> {
    const owner = await this.repository.ownerByName(name);
    return { id: owner.id, name: owner.name };
  }

  async verify(tokenHash: string): Promise<Principal> {
    const row = await this.repository.findActiveByHash(tokenHash);
    if (!row) throw new RpcError('unauthorized', 'Invalid or revoked API key');
    return { keyId: row.id, ownerId: row.ownerId, ownerName: row.owner.name, scopes: row.scopes.map((s) => Scope.parse(s)) };
  }

  async list(ownerName?: string): Promise<ApiKeyDto[]> {
    return (await this.repository.list(ownerName)).map((row) => this.toDto(row));
  }

  async revoke(id: string): Promise<ApiKeyDto> {
    const row = await this.repository.revoke(id);
    if (!row) throw new RpcError('not_found', `API key ${id} not found`);
    if (this.nats.isConnected) await this.events.publish(KeysEvents.revoked, { id: row.id, tokenHash: row.tokenHash });
    return this.toDto(row);
  }

  private toDto(row: KeyRow): ApiKeyDto {
    return {
      id: row.id,
      name: row.name,
      owner: row.owner.name,
      scopes: row.scopes.map((s) => Scope.parse(s)),
      token_hint: row.tokenHint,
      created_at: row.createdAt.toISOString(),
      revoked_at: row.revokedAt ? row.revokedAt.toISOString() : null,
    };
  }
}
