import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../prisma/prisma.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Prisma access for owners and API keys (results serves them over NATS; the CLI uses them directly). */
@Injectable()
export class KeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  async ownerByName(name: string) {
    return this.prisma.owner.upsert({ where: { name }, create: { id: randomUUID(), name }, update: {} });
  }

  create(key: { ownerId: string; name: string; tokenHash: string; tokenHint: string; scopes: string[] }) {
    return this.prisma.apiKey.create({ data: { id: randomUUID(), ...key }, include: { owner: true } });
  }

  findActiveByHash(tokenHash: string) {
    return this.prisma.apiKey.findFirst({ where: { tokenHash, revokedAt: null }, include: { owner: true } });
  }

  list(ownerName?: string) {
    return this.prisma.apiKey.findMany({
      where: ownerName ? { owner: { name: ownerName } } : {},
      include: { owner: true },
      orderBy: { createdAt: 'asc' },
    });
  }

  async revoke(idOrPrefix: string) {
    const key = UUID.test(idOrPrefix) ? await this.prisma.apiKey.findUnique({ where: { id: idOrPrefix }, include: { owner: true } }) : null;
    if (!key) return null;
    if (key.revokedAt) return key;
    return this.prisma.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() }, include: { owner: true } });
  }
}
