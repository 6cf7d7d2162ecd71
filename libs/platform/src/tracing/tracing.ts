import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as Resources from '@opentelemetry/resources';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type * as SdkTraceBase from '@opentelemetry/sdk-trace-base';
import type * as SdkTraceNode from '@opentelemetry/sdk-trace-node';
import type * as SemanticConventions from '@opentelemetry/semantic-conventions';
import { createRequire } from 'node:module';
import type { QdcConfig } from '../config/config.js';

/**
 * OpenTelemetry traces of one process. Off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set:
 * then spans go over OTLP/HTTP (JSON) in batches, and the W3C trace context (`traceparent`, `tracestate`) travels in
 * NATS headers and in BullMQ job data (`traceContext`), so one trace follows a request gateway → NATS → worker →
 * results. Off, every helper here is a flag test: no span objects, no context switches, no headers.
 */

export { SpanKind };

export type TracingConfig = Pick<
  QdcConfig,
  'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_HEADERS' | 'OTEL_TRACES_SAMPLER_ARG' | 'QDC_NAMESPACE'
>;

/** W3C trace-context fields of a message or job (`traceparent`, optionally `tracestate`). */
export type TraceCarrier = Record<string, string>;

let provider: SdkTraceNode.NodeTracerProvider | undefined;

/**
 * The SDK and the OTLP exporter, loaded only when tracing is turned on: with tracing off (the default) they are about
 * 0.3 s of CPU at boot, once per process, for nothing (the helpers below only need `@opentelemetry/api`).
 */
const require = createRequire(import.meta.url);

/** The URL spans are posted to: the signal-specific variable as is, else `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces` (OTLP spec). */
export function tracesEndpoint(config: Pick<TracingConfig, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'>): string | undefined {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/** `OTEL_EXPORTER_OTLP_HEADERS` (`api-key=abc,x-tenant=qdc`, values percent-encoded) as a header object. */
export function parseOtlpHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    if (!key) continue;
    try {
      headers[key] = decodeURIComponent(value);
    } catch {
      headers[key] = value;
    }
  }
  return headers;
}

/**
 * Starts tracing for this process when an OTLP endpoint is configured (once; later calls are no-ops). `exporter`
 * replaces the OTLP one (unit tests). Returns whether tracing is on.
 */
export function initTracing(config: TracingConfig, serviceName: string, exporter?: SpanExporter): boolean {
  if (provider) return true;
  const url = tracesEndpoint(config);
  if (!url && !exporter) return false;
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpHttp;
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof Resources;
  const { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } = require('@opentelemetry/sdk-trace-base') as typeof SdkTraceBase;
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof SdkTraceNode;
  const { ATTR_SERVICE_NAME } = require('@opentelemetry/semantic-conventions') as typeof SemanticConventions;
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName, 'service.namespace': config.QDC_NAMESPACE }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG) }),
    spanProcessors: [new BatchSpanProcessor(exporter ?? new OTLPTraceExporter({ url, headers: parseOtlpHeaders(config.OTEL_EXPORTER_OTLP_HEADERS) }))],
  });
  // AsyncLocalStorage context manager and the W3C trace-context propagator, as the global OpenTelemetry API.
  provider.register();
  return true;
}

export function tracingEnabled(): boolean {
  return provider !== undefined;
}

/** Exports what is buffered (without stopping). */
export async function flushTracing(): Promise<void> {
  await provider?.forceFlush().catch(() => undefined);
}

/** Exports what is buffered and stops tracing (service shutdown). */
export async function shutdownTracing(): Promise<void> {
  const stopping = provider;
  provider = undefined;
  await stopping?.shutdown().catch(() => undefined);
  trace.disable();
  context.disable();
  propagation.disable();
}

const tracer = () => trace.getTracer('qdc');

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Parent context; default: the active one. */
  parent?: Context;
}

/**
 * Runs `fn` inside a new span (the active span for everything it calls, across awaits) and ends the span when `fn`
 * settles; a throw marks the span as an error. With tracing off this is `fn(undefined)`.
 */
export async function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T> | T): Promise<T> {
  if (!provider) return fn(undefined);
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      markError(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A started span and its context, for lifecycles that are not one function call (an HTTP request's hooks). */
export function startSpan(name: string, options: SpanOptions): { span: Span; context: Context } | undefined {
  if (!provider) return undefined;
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs `fn` with `ctx` as the active context (no-op wrapper with tracing off). */
export function withTraceContext<T>(ctx: Context | undefined, fn: () => T): T {
  return provider && ctx ? context.with(ctx, fn) : fn();
}

/** Listeners added to `emitter` from now on run in `ctx` (request bodies read by stream events). */
export function bindTraceContext<E extends object>(ctx: Context | undefined, emitter: E): E {
  return provider && ctx ? context.bind(ctx, emitter) : emitter;
}

/** Marks a span as failed with an error's message (and code, for RpcErrors). */
export function markError(span: Span | undefined, error: unknown, message?: string): void {
  if (!span) return;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string') span.setAttribute('qdc.error.code', code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: message ?? String((error as Error)?.message ?? error) });
}

/** The active trace context as W3C fields, or undefined (tracing off, or nothing traced). */
export function currentTraceCarrier(ctx: Context = context.active()): TraceCarrier | undefined {
  if (!provider) return undefined;
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent ? carrier : undefined;
}

/**
 * The context a carrier (job data's `traceContext`, a message's headers) names, on top of the root context: a
 * consumer's span is a child of the producer's span, not of whatever happened to be active. Anything malformed
 * (data from Redis is not trusted) gives the root context, i.e. a new trace.
 */
export function contextFromCarrier(carrier: unknown): Context {
  if (!provider || !carrier || typeof carrier !== 'object') return ROOT_CONTEXT;
  const fields: TraceCarrier = {};
  for (const key of ['traceparent', 'tracestate']) {
    const value = (carrier as Record<string, unknown>)[key];
    if (typeof value === 'string' && value.length <= 512) fields[key] = value;
  }
  return propagation.extract(ROOT_CONTEXT, fields);
}

/** Message headers as NATS has them (`MsgHdrs`); a plain interface so this module needs no NATS import. */
export interface HeaderCarrier {
  get(key: string): string;
  set(key: string, value: string): void;
}

/** Writes the trace context of `ctx` into NATS headers (nothing with tracing off). */
export function injectTraceHeaders(headers: HeaderCarrier, ctx: Context = context.active()): void {
  if (!provider) return;
  propagation.inject(ctx, headers, { set: (carrier, key, value) => carrier.set(key, value) });
}

/** The trace context in NATS headers (root context when there is none). */
export function extractTraceHeaders(headers: HeaderCarrier | undefined): Context {
  if (!provider || !headers) return ROOT_CONTEXT;
  return contextFromCarrier({ traceparent: headers.get('traceparent') || undefined, tracestate: headers.get('tracestate') || undefined });
}

/** Job data field that carries the producer's trace context to the worker. */
export const JOB_TRACE_FIELD = 'traceContext';

/** `data` plus the active trace context under `traceContext` (unchanged with tracing off). Processors' zod schemas drop the field. */
export function withJobTrace<T extends object>(data: T, ctx: Context = context.active()): T {
  const carrier = currentTraceCarrier(ctx);
  return carrier ? { ...data, [JOB_TRACE_FIELD]: carrier } : data;
}

/** The producer's context from a job's data (root context when it carries none). */
export function jobTraceContext(data: unknown): Context {
  if (!provider || !data || typeof data !== 'object') return ROOT_CONTEXT;
  return contextFromCarrier((data as Record<string, unknown>)[JOB_TRACE_FIELD]);
}
