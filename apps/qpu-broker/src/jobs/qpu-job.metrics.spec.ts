import { metricsRegistry, type PrismaService } from '#qdc/platform';
import { QpuJobMetrics } from './qpu-job.metrics.js';

describe(QpuJobMetrics.name, () => {
  const factory = (rows: () => Promise<{ device_id: string; status: string; n: number }[]>) => {
    const mocks = { pool: { query: async (sql: string) => ({ sql, rows: await rows() }) } };
    const sut = new QpuJobMetrics({ pool: mocks.pool } as unknown as PrismaService);
    sut.onModuleInit();
    return { sut, mocks };
  };

  it('exports the job table’s counts by device and state when scraped', async () => {
    let rows = [
      { device_id: 'qdc-sim-line-5', status: 'completed', n: 41 },
      { device_id: 'qdc-sim-line-5', status: 'queued', n: 2 },
      { device_id: 'fast-3', status: 'failed', n: 1 },
    ];
    factory(async () => rows);
    let text = await metricsRegistry.metrics();
    expect(text).toContain('qdc_qpu_jobs{device="qdc-sim-line-5",state="completed"} 41');
    expect(text).toContain('qdc_qpu_jobs{device="qdc-sim-line-5",state="queued"} 2');
    expect(text).toContain('qdc_qpu_jobs{device="fast-3",state="failed"} 1');
    // A state that no job has any more is gone at the next scrape, not left at its last value.
    rows = [{ device_id: 'qdc-sim-line-5', status: 'completed', n: 43 }];
    text = await metricsRegistry.metrics();
    expect(text).toContain('qdc_qpu_jobs{device="qdc-sim-line-5",state="completed"} 43');
    expect(text).not.toContain('state="queued"');
  });

  it('exports nothing while Postgres does not answer (the scrape itself still succeeds)', async () => {
    factory(async () => Promise.reject(new Error('connection refused')));
    expect(await metricsRegistry.metrics()).not.toMatch(/^qdc_qpu_jobs\{/m);
  });
});
