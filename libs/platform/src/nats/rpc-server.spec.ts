import { jest } from '@jest/globals';
import { MetadataScanner, Reflector, type DiscoveryService } from '@nestjs/core';
import { z } from 'zod';
import { RpcError, defineEvent, defineRpc, type RpcReply } from '#qdc/contracts';
import type { NatsConnection } from './nats-connection.js';
import type { IncomingMessage, RpcDispatcher } from './rpc-dispatcher.js';
import { EventHandler, RpcHandler } from './rpc-handler.decorator.js';
import { RpcServer } from './rpc-server.js';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../prisma/database-errors.js';
import { assertCallerWaiting } from '../logging/request-context.js';

type Handler = (message: IncomingMessage, reply: (reply: RpcReply<unknown>) => Promise<void>) => Promise<void>;

const rpc = (subject: string, request: z.ZodType = z.object({}), response: z.ZodType = z.unknown()) => defineRpc({ subject, request, response });
const Greet = defineRpc({ subject: 'greet.v1', request: z.object({ name: z.string() }), response: z.object({ text: z.string(), requestId: z.string() }) });
const Said = defineEvent({ subject: 'said.v1', payload: z.object({ word: z.string() }) });

class GreetingHandlers {
  @RpcHandler(Greet)
  greet(msg: { name: string }, ctx: { requestId: string }) {
    return { text: `hello ${msg.name}`, requestId: ctx.requestId };
  }

  @RpcHandler(rpc('forget.v1'))
  forget(): void {}

  @RpcHandler(rpc('commit.v1'))
  commit(): string {
    assertCallerWaiting('the commit', 1_000);
    return 'committed';
  }

  @RpcHandler(rpc('refuse.v1'))
  refuse(): never {
    throw new RpcError('forbidden', 'not yours');
  }

  @RpcHandler(rpc('break.v1'))
  break(): never {
    throw new Error('database on fire');
  }

  @RpcHandler(rpc('store.v1'))
  async store(): Promise<never> {
    // What a Prisma query in flight when Postgres stops throws (a plain driver error).
    throw new Error('Connection terminated unexpectedly');
  }

  notAHandler() {
    return 'ignored';
  }

  readonly heard: string[] = [];

  @EventHandler(Said)
  hear(event: { word: string }): void {
    this.heard.push(event.word);
  }
}

class DuplicateHandlers {
  @RpcHandler(rpc('greet.v1'))
  again() {}
}

/** An RpcServer over real decorators and Nest's real scanner/reflector; NATS is a recorder of subscriptions. */
function newRpcServer(providers: object[] = [new GreetingHandlers()]) {
  const subscriptions = new Map<string, { handler: Handler; queue?: string }>();
  const nats = { connect: jest.fn(async () => undefined), subject: (name: string) => `ns.${name}` };
  const dispatcher = {
    subscribe: jest.fn((subject: string, handler: Handler, options: { queue?: string } = {}) => subscriptions.set(subject, { handler, queue: options.queue })),
  };
  const discovery = { getProviders: () => providers.map((instance) => ({ name: instance.constructor.name, instance })) };
  const sut = new RpcServer(
    discovery as unknown as DiscoveryService,
    new MetadataScanner(),
    new Reflector(),
    nats as unknown as NatsConnection,
    dispatcher as unknown as RpcDispatcher,
    'greeter',
  );
  const call = async (subject: string, payload: unknown, deadline?: number): Promise<RpcReply<unknown>> => {
    let answer: RpcReply<unknown> | undefined;
    await subscriptions.get(subject)!.handler({ payload, requestId: 'req-1', ...(deadline ? { deadline } : {}) }, async (reply) => {
      answer = reply;
    });
    return answer!;
  };
  return { sut, mocks: { nats, dispatcher, subscriptions }, call };
}

describe(RpcServer.name, () => {
  it('subscribes every decorated method and the health subject, with the service as queue group', async () => {
    const { sut, mocks } = newRpcServer();
    await sut.onApplicationBootstrap();
    expect([...mocks.subscriptions.keys()].sort()).toEqual([
      'break.v1',
      'commit.v1',
      'forget.v1',
      'greet.v1',
      'greeter.health.v1',
      'refuse.v1',
      'said.v1',
      'store.v1',
    ]);
    expect([...mocks.subscriptions].filter(([subject]) => subject !== 'said.v1').every(([, s]) => s.queue === 'greeter')).toBe(true);
  });

  it('delivers events to every replica (no queue group) with the parsed payload', async () => {
    const handlers = new GreetingHandlers();
    const { sut, mocks, call } = newRpcServer([handlers]);
    await sut.onApplicationBootstrap();
    expect(mocks.subscriptions.get('said.v1')!.queue).toBeUndefined();
    await call('said.v1', { word: 'pinch-off' });
    await call('said.v1', { word: 42 });
    expect(handlers.heard).toEqual(['pinch-off']);
  });

  it('parses the payload with the schema and replies with the handler’s answer and the request id', async () => {
    const { sut, call } = newRpcServer();
    await sut.onApplicationBootstrap();
    expect(await call('greet.v1', { name: 'lab' })).toEqual({ ok: true, data: { text: 'hello lab', requestId: 'req-1' } });
    expect(await call('forget.v1', {})).toEqual({ ok: true, data: null });
    expect(await call('greeter.health.v1', {})).toEqual({ ok: true, data: { status: 'ok' } });
  });

  it('answers a message that breaks its contract with internal and the schema issues', async () => {
    const { sut, call } = newRpcServer();
    await sut.onApplicationBootstrap();
    const reply = await call('greet.v1', { name: 3 });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('internal');
    expect(reply.error.message).toBe('message on greet.v1 does not match its contract');
    expect(reply.error.details).toEqual([expect.objectContaining({ path: ['name'] })]);
  });

  it('passes an RpcError on as its code, and hides anything else behind an error id', async () => {
    const { sut, call } = newRpcServer();
    await sut.onApplicationBootstrap();
    expect(await call('refuse.v1', {})).toEqual({ ok: false, error: { code: 'forbidden', message: 'not yours' } });
    const broken = await call('break.v1', {});
    expect(broken).toEqual({
      ok: false,
      error: { code: 'internal', message: 'internal error', details: { error_id: expect.stringMatching(/^[0-9a-f-]{36}$/) } },
    });
    expect(JSON.stringify(broken)).not.toContain('fire');
  });

  it('answers a lost database connection (Postgres restarting) as unavailable — the gateway’s 503 + Retry-After — not internal', async () => {
    const { sut, call } = newRpcServer();
    await sut.onApplicationBootstrap();
    expect(await call('store.v1', {})).toEqual({
      ok: false,
      error: { code: 'unavailable', message: DATABASE_UNAVAILABLE_MESSAGE, details: { error_id: expect.stringMatching(/^[0-9a-f-]{36}$/) } },
    });
  });

  it('does not start work whose caller has stopped waiting (its deadline passed while this process was busy)', async () => {
    const { sut, call } = newRpcServer();
    await sut.onApplicationBootstrap();
    const late = await call('greet.v1', { name: 'lab' }, Date.now() - 1);
    expect(late).toEqual({
      ok: false,
      error: { code: 'timeout', message: expect.stringMatching(/^greet\.v1 was not handled: the caller stopped waiting at /) },
    });
    expect(await call('greet.v1', { name: 'lab' }, Date.now() + 10_000)).toMatchObject({ ok: true });
  });

  it('lets a handler refuse a side effect its caller would not live to see (assertCallerWaiting with a margin)', async () => {
    const { sut, call } = newRpcServer();
    await sut.onApplicationBootstrap();
    expect(await call('commit.v1', {}, Date.now() + 500)).toEqual({
      ok: false,
      error: { code: 'timeout', message: expect.stringMatching(/^the commit was not done: the caller stopped waiting at /) },
    });
    expect(await call('commit.v1', {}, Date.now() + 5_000)).toEqual({ ok: true, data: 'committed' });
    expect(await call('commit.v1', {})).toEqual({ ok: true, data: 'committed' });
  });

  it('refuses to start with two handlers for one subject', async () => {
    const { sut } = newRpcServer([new GreetingHandlers(), new DuplicateHandlers()]);
    await expect(sut.onApplicationBootstrap()).rejects.toThrow('two handlers for greet.v1 (second: DuplicateHandlers.again)');
  });
});
