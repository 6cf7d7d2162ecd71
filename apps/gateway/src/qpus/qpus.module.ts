import { Module } from '@nestjs/common';
import { StreamSlotsModule } from '../http/stream-slots.module.js';
import { AdminBudgetsController } from './admin-budgets.controller.js';
import { QpuJobEventsService } from './qpu-job-events.service.js';
import { QpusController } from './qpus.controller.js';
import { QpusService } from './qpus.service.js';

/** QPU devices, cost estimates, jobs (with their event stream) and the admin's budgets. */
@Module({
  imports: [StreamSlotsModule],
  controllers: [QpusController, AdminBudgetsController],
  providers: [QpusService, QpuJobEventsService],
})
export class QpusModule {}
