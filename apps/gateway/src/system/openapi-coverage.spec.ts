import 'reflect-metadata';
import { Global, Module, type DynamicModule, type Provider, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { RouteOptions } from 'fastify';
import { HTTP_ROUTES, UNDOCUMENTED_HTTP_ROUTES } from '#qdc/contracts';
import { EventBus, InferenceProducer, InputBlobStore, NatsConnection, NatsModule, PayloadStore, RpcClient, RunGroupProducer } from '#qdc/platform';
import { CONSOLE_ASSETS, CONSOLE_PAGES } from '../console/console-static.route.js';
import { GatewayModule } from '../gateway.module.js';
import { InferenceQueueModule } from '../models/inference-queue.module.js';
import { DrainingFastifyAdapter } from '../http/draining.js';
import { registerMetrics } from '../http/metrics.route.js';

/**
 * NATS stand-in: connecting and subscribing succeed, requests never answer. Enough for the gateway to boot and
 * register its routes; nothing here serves a request.
 */
const nats = new Proxy(
  {},
  {
    get: (_target, key) => {
      if (key === 'then') return undefined;
      if (key === 'isConnected') return false;
      if (key === 'subscribe' || key === 'subscribeRaw') return () => ({ unsubscribe: () => undefined });
      if (key === 'call') return () => new Promise(() => undefined);
      return () => Promise.resolve();
    },
  },
);

/** NATS and the inference queue (Redis) stood in for; everything else of the gateway is as it is. */
@Global()
@Module({
  providers: [
    ...[NatsConnection, PayloadStore, InputBlobStore, RpcClient, EventBus].map((provide) => ({ provide, useValue: nats })),
    { provide: InferenceProducer, useValue: {} },
    { provide: RunGroupProducer, useValue: {} },
  ],
  exports: [NatsConnection, PayloadStore, InputBlobStore, RpcClient, EventBus, InferenceProducer, RunGroupProducer],
})
class InfrastructureStandIn {}

/** GatewayModule with its feature modules, NATS and the inference queue replaced by InfrastructureStandIn. */
function gatewayWithoutInfrastructure(): Type {
  const meta = (key: string) => (Reflect.getMetadata(key, GatewayModule) ?? []) as unknown[];
  const imports = meta('imports').filter((m) => m !== NatsModule && m !== InferenceQueueModule) as (Type | DynamicModule)[];
  @Module({ imports: [...imports, InfrastructureStandIn], controllers: meta('controllers') as Type[], providers: meta('providers') as Provider[] })
  class GatewayUnderTest {}
  return GatewayUnderTest;
}

/** `/v0/model-results/:id` and `/v0/model-results/{id}` → `/v0/model-results/{}`: parameter names differ (Nest's vs the API's). */
const normalize = (method: string, path: string) => `${method} ${path.replace(/:[A-Za-z_]\w*|\{[^}]+\}/g, '{}').replace(/(.)\/$/, '$1')}`;

/** Every method + path the gateway serves: Nest controllers and the plain Fastify routes (models, runs, agents, metrics). */
async function servedRoutes(): Promise<{ served: Set<string>; close: () => Promise<void> }> {
  const adapter = new DrainingFastifyAdapter({ return503OnClosing: false });
  const fastify = adapter.getInstance();
  const served = new Set<string>();
  fastify.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      // Fastify adds a HEAD route for every GET by itself.
      if (method !== 'HEAD') served.add(normalize(method, route.url));
    }
  });
  registerMetrics(fastify); // main.ts registers /metrics on the adapter before Nest starts
  const app = await NestFactory.create(gatewayWithoutInfrastructure(), adapter, { logger: false, abortOnError: false });
  await app.init();
  return { served, close: () => app.close() };
}

describe('the OpenAPI route table (libs/contracts/src/http/routes.ts)', () => {
  let served: Set<string>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ served, close } = await servedRoutes());
  });
  afterAll(() => close());

  const documented = new Set(HTTP_ROUTES.flatMap((route) => route.paths.map((path) => normalize(route.method, path))));
  const exempt = new Set([
    ...UNDOCUMENTED_HTTP_ROUTES.map((route) => normalize(route.method, route.path)),
    // The web console's pages and files (SPEC §7): a client of the API, not part of it.
    ...[...CONSOLE_PAGES, CONSOLE_ASSETS].map((path) => normalize('GET', path)),
  ]);

  it('documents every route the gateway serves', () => {
    expect([...served].filter((route) => !documented.has(route) && !exempt.has(route)).sort()).toEqual([]);
  });

  it('documents only routes the gateway serves', () => {
    expect([...documented].filter((route) => !served.has(route)).sort()).toEqual([]);
    expect([...exempt].filter((route) => !served.has(route)).sort()).toEqual([]);
  });

  it('found the plain Fastify routes too (the walk sees more than Nest controllers)', () => {
    for (const route of ['GET /v0/models', 'POST /v0/control/models/batch', 'POST /v0/agents/{}', 'GET /metrics']) expect(served.has(route)).toBe(true);
  });
});
