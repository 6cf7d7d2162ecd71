import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { ModelRunService } from './model-run.service.js';
import { ModelsListRoute } from './models-list.route.js';
import { ModelsRunRoute } from './models-run.route.js';
import { ModelsController } from './models.controller.js';
import { ModelsService } from './models.service.js';
import { RunBatcher } from './run-batcher.js';
import { RunCountsCache } from './run-counts.cache.js';

/** The catalogue and model runs: `GET /models` and `POST /models(/batch)` as plain Fastify routes, the rest as a controller. */
@Module({
  imports: [AuthModule],
  controllers: [ModelsController],
  providers: [RunCountsCache, RunBatcher, ModelRunService, ModelsService, ModelsListRoute, ModelsRunRoute],
  exports: [ModelRunService],
})
export class ModelsModule {}
