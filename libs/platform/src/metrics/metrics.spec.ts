import { startProbeServer } from '../health/probe-server.js';
import { countQueue, timeJob } from './metrics.js';

describe('metrics on the probe port', () => {
  const setup = async () => {
    const now = Date.now();
    const mocks = {
      queue: {
        name: 'inference',
        getJobCounts: async () => ({ waiting: 7, active: 2, delayed: 0, failed: 1, completed: 40, prioritized: 0 }),
        // The next job was added 95 s ago; a retried one (attempted 30 s ago) would count from its attempt.
        getWaiting: async (start?: number, end?: number) => (start === 0 && end === 0 ? [{ timestamp: now - 95_000, delay: 0 }] : []),
        getWorkersCount: async () => 3,
      },
      idle: { name: 'simulation', getJobCounts: async () => ({}), getWaiting: async () => [], getWorkersCount: async () => 0 },
    };
    countQueue(mocks.idle);
    countQueue(mocks.queue);
    const sut = await startProbeServer(0, async () => ({ nats: true }));
    const port = (sut.address() as { port: number }).port;
    return { sut, mocks, url: `http://127.0.0.1:${port}` };
  };

  it('serves Prometheus text with process, queue-depth and job-duration series', async () => {
    const { sut, url } = await setup();
    try {
      await timeJob('inference', 'coulomb-blockade-peak-detector-v2', async () => ({ ok: true }));
      await timeJob('inference', 'coulomb-blockade-peak-detector-v2', async () => ({ ok: false }));
      await expect(timeJob('inference', 'pinch-off-classifier-v0', async () => Promise.reject(new Error('worker died')))).rejects.toThrow('worker died');
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await res.text();
      expect(text).toMatch(/^qdc_process_resident_memory_bytes \d+/m);
      expect(text).toContain('qdc_queue_jobs{queue="inference",state="waiting"} 7');
      expect(text).toContain('qdc_queue_jobs{queue="inference",state="failed"} 1');
      const oldest = Number(/^qdc_queue_oldest_waiting_seconds\{queue="inference"\} ([\d.]+)$/m.exec(text)?.[1]);
      expect(oldest).toBeGreaterThanOrEqual(95);
      expect(oldest).toBeLessThan(120);
      expect(text).toContain('qdc_queue_oldest_waiting_seconds{queue="simulation"} 0');
      expect(text).toContain('qdc_queue_workers{queue="inference"} 3');
      expect(text).toContain('qdc_queue_workers{queue="simulation"} 0');
      expect(text).toContain('qdc_job_duration_seconds_count{queue="inference",name="coulomb-blockade-peak-detector-v2",outcome="ok"} 1');
      expect(text).toContain('qdc_job_duration_seconds_count{queue="inference",name="coulomb-blockade-peak-detector-v2",outcome="rejected"} 1');
      expect(text).toContain('qdc_job_duration_seconds_count{queue="inference",name="pinch-off-classifier-v0",outcome="failed"} 1');
    } finally {
      sut.close();
    }
  });
});
