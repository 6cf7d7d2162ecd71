import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { KeysRepository } from '#qdc/platform';

/**
 * Looks up a key that cannot exist while the results service boots, so that the first Prisma query of the process
 * (about 0.3 s of CPU: the query compiler's first plan) is paid before the service reports ready, not by the first
 * request: every request's key check is this lookup. A failure here is not a boot failure (readiness checks Postgres).
 */
@Injectable()
export class KeyLookupWarmUp implements OnApplicationBootstrap {
  constructor(private readonly keys: KeysRepository) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.keys.findActiveByHash('').catch(() => undefined);
  }
}
