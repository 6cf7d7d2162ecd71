import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { NatsConnection } from '#qdc/platform';
import { QPU_CONFIG, type QpuConfig } from '../qpu.config.js';
import { QpuJobsService } from './qpu-jobs.service.js';

/**
 * Brings every unfinished job back after a broker restart (jobs live in Postgres, not in the broker),
 * then sweeps every QDC_QPU_SWEEP_INTERVAL_MS for jobs whose hand-over was lost or dead-lettered.
 */
@Injectable()
export class JobRecovery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(JobRecovery.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly jobs: QpuJobsService,
    private readonly nats: NatsConnection,
    @Inject(QPU_CONFIG) private readonly config: QpuConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.nats.connect();
    await this.sweep('boot');
    this.timer = setInterval(() => void this.sweep('sweep'), this.config.QDC_QPU_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  private async sweep(when: string): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const { resubmitted, failed } = await this.jobs.recover();
      if (resubmitted || failed || when === 'boot') this.logger.log(`${when}: ${resubmitted} job(s) handed to their backend again, ${failed} failed`);
    } catch (error) {
      this.logger.error(`${when}: recovery failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
