import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { timeJob } from '../metrics/metrics.js';
import {
  contextFromCarrier,
  currentTraceCarrier,
  extractTraceHeaders,
  flushTracing,
  inSpan,
  initTracing,
  injectTraceHeaders,
  jobTraceContext,
  parseOtlpHeaders,
  shutdownTracing,
  tracesEndpoint,
  tracingEnabled,
  withJobTrace,
  type HeaderCarrier,
} from './tracing.js';

const config = {
  OTEL_EXPORTER_OTLP_ENDPOINT: undefined,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined,
  OTEL_EXPORTER_OTLP_HEADERS: undefined,
  OTEL_TRACES_SAMPLER_ARG: 1,
  QDC_NAMESPACE: 'qdc',
};

/** NATS `MsgHdrs` as far as propagation uses it. */
const headerMap = (): HeaderCarrier & { map: Map<string, string> } => {
  const map = new Map<string, string>();
  return { map, get: (key) => map.get(key) ?? '', set: (key, value) => void map.set(key, value) };
};

describe('tracing configuration', () => {
  it('posts to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces, or to the traces endpoint as given', () => {
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/otlp' })).toBe(
      'http://b:9999/otlp',
    );
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined })).toBeUndefined();
  });

  it('reads OTEL_EXPORTER_OTLP_HEADERS as comma-separated, percent-encoded key=value pairs', () => {
    expect(parseOtlpHeaders('api-key=a%20b, x-tenant=qdc,broken,=x')).toEqual({ 'api-key': 'a b', 'x-tenant': 'qdc' });
    expect(parseOtlpHeaders(undefined)).toEqual({});
  });
});

describe('tracing off (no endpoint)', () => {
  it('starts nothing and every helper passes through', async () => {
    expect(initTracing(config, 'gateway')).toBe(false);
    expect(tracingEnabled()).toBe(false);
    const seen: unknown[] = [];
    await expect(
      inSpan('x', {}, (span) => {
        seen.push(span);
        return 42;
      }),
    ).resolves.toBe(42);
    expect(seen).toEqual([undefined]);
    const data = { model: 'm' };
    expect(withJobTrace(data)).toBe(data);
    expect(currentTraceCarrier()).toBeUndefined();
    const headers = headerMap();
    injectTraceHeaders(headers);
    expect(headers.map.size).toBe(0);
  });
});

describe('tracing on', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => {
    expect(initTracing(config, 'unit', exporter)).toBe(true);
  });
  afterAll(() => shutdownTracing());
  beforeEach(() => exporter.reset());

  const finished = async (): Promise<ReadableSpan[]> => {
    await flushTracing();
    return exporter.getFinishedSpans();
  };
  const byName = (spans: ReadableSpan[], name: string): ReadableSpan => {
    const span = spans.find((s) => s.name === name);
    if (!span) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`);
    return span;
  };
  const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

  it('nests spans across awaits and marks a throw as an error', async () => {
    await inSpan('outer', {}, async () => {
      await new Promise((r) => setTimeout(r, 1));
      await inSpan('inner', {}, async () => undefined);
      await expect(inSpan('failing', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    });
    const spans = await finished();
    const outer = byName(spans, 'outer');
    expect(parentOf(byName(spans, 'inner'))).toBe(outer.spanContext().spanId);
    expect(byName(spans, 'inner').spanContext().traceId).toBe(outer.spanContext().traceId);
    expect(byName(spans, 'failing').status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(parentOf(outer)).toBeUndefined();
  });

  it('carries the context through NATS headers: the handler span is a child of the request span', async () => {
    const headers = headerMap();
    await inSpan('nats request qdc.models.run.v1', { kind: SpanKind.CLIENT }, async () => injectTraceHeaders(headers));
    expect(headers.map.get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await inSpan('nats handle qdc.models.run.v1', { kind: SpanKind.SERVER, parent: extractTraceHeaders(headers) }, async () => undefined);
    const spans = await finished();
    const client = byName(spans, 'nats request qdc.models.run.v1');
    const server = byName(spans, 'nats handle qdc.models.run.v1');
    expect(server.spanContext().traceId).toBe(client.spanContext().traceId);
    expect(parentOf(server)).toBe(client.spanContext().spanId);
  });

  it('carries the context in job data: the worker span (timeJob) is a child of the producer span', async () => {
    let data: object = {};
    await inSpan('bullmq inference run-model', { kind: SpanKind.PRODUCER }, async () => {
      data = withJobTrace({ model: 'pinch-off-classifier-v0', requestId: 'r1' });
    });
    expect(data).toEqual({ model: 'pinch-off-classifier-v0', requestId: 'r1', traceContext: { traceparent: expect.stringMatching(/^00-/) } });
    // The worker runs in another process: JSON through Redis, and no active span around it.
    const received = JSON.parse(JSON.stringify(data)) as object;
    await timeJob(
      'inference',
      'pinch-off-classifier-v0',
      async () => {
        await inSpan('nats request qdc.results.create.v1', { kind: SpanKind.CLIENT }, async () => undefined);
        return { ok: false, error: { code: 'invalid_input', message: 'bad shape' } };
      },
      received,
    );
    const spans = await finished();
    const producer = byName(spans, 'bullmq inference run-model');
    const consumer = byName(spans, 'bullmq process inference');
    expect(consumer.kind).toBe(SpanKind.CONSUMER);
    expect(consumer.spanContext().traceId).toBe(producer.spanContext().traceId);
    expect(parentOf(consumer)).toBe(producer.spanContext().spanId);
    expect(parentOf(byName(spans, 'nats request qdc.results.create.v1'))).toBe(consumer.spanContext().spanId);
    expect(consumer.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad shape' });
    expect(consumer.attributes['qdc.error.code']).toBe('invalid_input');
  });

  it('starts a new trace from job data without (or with a malformed) trace context', async () => {
    for (const data of [{}, { traceContext: { traceparent: 'not-a-traceparent' } }, { traceContext: 'x' }, null]) {
      const ctx = data === null ? contextFromCarrier(undefined) : jobTraceContext(data);
      expect(trace.getSpanContext(ctx)).toBeUndefined();
    }
    await inSpan('unrelated', {}, async () => {
      await timeJob('inference', 'm', async () => ({ ok: true }), {});
    });
    const spans = await finished();
    expect(parentOf(byName(spans, 'bullmq process inference'))).toBeUndefined();
  });

  it('timeJob without job data makes no span', async () => {
    await timeJob('inference', 'm', async () => ({ ok: true }));
    expect(await finished()).toEqual([]);
  });
});
