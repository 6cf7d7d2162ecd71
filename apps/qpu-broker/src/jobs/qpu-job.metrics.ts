import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { PrismaService, metricsRegistry } from '#qdc/platform';

let countJobs: (() => Promise<{ device_id: string; status: string; n: number }[]>) | undefined;

/** QPU jobs by device and state, counted in qpu_jobs when Prometheus scrapes (right after a restart, and the same on every replica). */
new Gauge({
  name: 'qdc_qpu_jobs',
  help: 'QPU jobs in the broker database by device and state (queued, running, completed, failed, cancelled), read at scrape time',
  labelNames: ['device', 'state'],
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    const counts = await countJobs?.().catch(() => undefined);
    for (const { device_id, status, n } of counts ?? []) this.set({ device: device_id, state: status }, n);
  },
});

/** Points the `qdc_qpu_jobs` gauge at the broker's job table (one GROUP BY, answered by the (device_id, status, …) index). */
@Injectable()
export class QpuJobMetrics implements OnModuleInit {
  constructor(private readonly prisma: PrismaService) {}

  onModuleInit(): void {
    countJobs = async () =>
      (
        await this.prisma.pool.query<{ device_id: string; status: string; n: number }>(
          'SELECT device_id, status, count(*)::int AS n FROM qpu_jobs GROUP BY device_id, status',
        )
      ).rows;
  }
}
