import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/client.js';
import { QDC_CONFIG } from '../config/config.module.js';
import type { QdcConfig } from '../config/config.js';
import { meterPool, unmeterPool } from '../metrics/metrics.js';

/** The Prisma client's lifecycle, in one place: connect on init, disconnect at application shutdown. */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleInit, OnApplicationShutdown {
  /**
   * The pg pool under Prisma's adapter, for the few statements where Prisma's parameter
   * serialisation dominates (multi-MB bytea and jsonb writes); same connections, same database.
   */
  readonly pool: pg.Pool;

  constructor(@Inject(QDC_CONFIG) config: QdcConfig) {
    const pool = new pg.Pool({ connectionString: config.DATABASE_URL, max: 10 });
    super({ adapter: new PrismaPg(pool) });
    this.pool = pool;
    meterPool(pool); // qdc_db_pool_connections, qdc_db_pool_waiting, qdc_db_query_duration_seconds
  }

  async onModuleInit(): Promise<void> {
    await this.$connect();
  }

  /** Last (after handlers and workers finished on onModuleDestroy): what they still write needs the pool. */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
    await this.pool.end().catch(() => undefined);
    unmeterPool(this.pool);
  }
}
