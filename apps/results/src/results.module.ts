import { Module } from '@nestjs/common';
import { ConfigModule, KeysRepository, KeysService, NatsModule, PrismaService } from '#qdc/platform';
import { ResultsRepository } from './results/results.repository.js';
import { ResultsService } from './results/results.service.js';
import { ResultsHandlers } from './results/results.handlers.js';
import { KeysHandlers } from './keys/keys.handlers.js';
import { KeyLookupWarmUp } from './keys/key-lookup.warm-up.js';

/** Owns results, votes, input files, run counters, owners and API keys (Postgres via Prisma). */
@Module({
  imports: [ConfigModule.forService('results'), NatsModule],
  providers: [PrismaService, ResultsRepository, ResultsService, ResultsHandlers, KeysRepository, KeysService, KeysHandlers, KeyLookupWarmUp],
})
export class ResultsModule {}
