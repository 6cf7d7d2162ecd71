import { metricsRegistry } from '#qdc/platform';
import { countFrameEvent, meterStreamBacklogs } from './lab-stream.metrics.js';

const base = { lab: 'lab-a', stream: 'pinchoff-b8', frame_id: 'f1', seq: 1 };

describe('lab-stream metrics', () => {
  it('counts each frame’s event by stream, drops by reason, and the latency of results', async () => {
    countFrameEvent({ ...base, type: 'result', results: [], latency_ms: 40 });
    countFrameEvent({ ...base, seq: 2, type: 'result', results: [], latency_ms: 700 });
    countFrameEvent({ ...base, seq: 3, type: 'error', error: { code: 'invalid_input', message: 'not an array' } });
    countFrameEvent({ ...base, seq: 4, type: 'dropped', reason: 'stale', message: 'waited' });
    const text = await metricsRegistry.metrics();
    expect(text).toContain('qdc_lab_stream_frames_total{stream="lab-a/pinchoff-b8",event="result"} 2');
    expect(text).toContain('qdc_lab_stream_frames_total{stream="lab-a/pinchoff-b8",event="error"} 1');
    expect(text).toContain('qdc_lab_stream_frames_total{stream="lab-a/pinchoff-b8",event="dropped"} 1');
    expect(text).toContain('qdc_lab_stream_dropped_frames_total{stream="lab-a/pinchoff-b8",reason="stale"} 1');
    expect(text).not.toContain('reason="failed"');
    // 40 ms and 700 ms: one under 50 ms, both under 1 s.
    expect(text).toContain('qdc_lab_stream_frame_latency_seconds_bucket{le="0.05",stream="lab-a/pinchoff-b8"} 1');
    expect(text).toContain('qdc_lab_stream_frame_latency_seconds_bucket{le="1",stream="lab-a/pinchoff-b8"} 2');
  });

  it('reads the pending frames of the held streams when scraped, and none when reading fails', async () => {
    let pending = 12;
    meterStreamBacklogs(async () => [{ stream: 'lab-a/pinchoff-b8', pending }]);
    expect(await metricsRegistry.metrics()).toContain('qdc_lab_stream_pending_frames{stream="lab-a/pinchoff-b8"} 12');
    pending = 0;
    expect(await metricsRegistry.metrics()).toContain('qdc_lab_stream_pending_frames{stream="lab-a/pinchoff-b8"} 0');
    meterStreamBacklogs(async () => Promise.reject(new Error('consumer gone')));
    expect(await metricsRegistry.metrics()).not.toMatch(/^qdc_lab_stream_pending_frames\{/m);
  });
});
