import { Module } from '@nestjs/common';
import { ConsoleStaticRoute } from '../console/console-static.route.js';
import { ModelsModule } from '../models/models.module.js';
import { DocsController } from './docs.controller.js';
import { HealthController } from './health.controller.js';
import { RemovedRoutesController } from './removed-routes.controller.js';

/** What needs no key: health, the OpenAPI document and /docs, the web console's files; and the removed routes' 410. */
@Module({
  imports: [ModelsModule],
  controllers: [HealthController, DocsController, RemovedRoutesController],
  providers: [ConsoleStaticRoute],
})
export class SystemModule {}
