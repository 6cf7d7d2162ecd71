import { jest } from '@jest/globals';
import type { AssistantRunStartRequest } from '#qdc/contracts';
import { metricsRegistry, type EventBus, type QdcConfig } from '#qdc/platform';
import { EngineFailure, RunCancelled, type AssistantEngine, type EngineRun } from './assistant-engine.js';
import { RunManager, newMessages } from './run-manager.service.js';
import type { RunEventsPublisher } from './run-events.publisher.js';
import type { ThreadsRepository } from './threads.repository.js';

const OWNER = '0b6c2a4e-2f5d-4c7e-9a4b-0d3b1f6e8a21';
const runRequest = (over: Partial<AssistantRunStartRequest> = {}): AssistantRunStartRequest => ({
  runId: crypto.randomUUID(),
  ownerId: OWNER,
  messages: [{ role: 'user', content: 'hello' }],
  budget: 'high',
  codeMode: 'inline',
  mode: 'build',
  ...over,
});

function factory(engineRun: (run: EngineRun) => Promise<Awaited<ReturnType<AssistantEngine['run']>>>, graceMs = 20) {
  const events: Record<string, unknown>[] = [];
  let flushed!: () => void;
  const done = new Promise<void>((r) => (flushed = r));
  const mocks = {
    engine: { run: jest.fn(engineRun) },
    publisher: { sink: jest.fn(() => ({ emit: (e: Record<string, unknown>) => events.push(e), flush: async () => flushed() })) },
    threads: {
      openThread: jest.fn(async () => [
        { role: 'user' as const, content: 'earlier' },
        { role: 'assistant' as const, content: 'answer' },
      ]),
      createThread: jest.fn(async () => undefined),
      append: jest.fn(async () => undefined),
      recordUsage: jest.fn(async () => undefined),
    },
  };
  const sut = new RunManager(
    mocks.engine,
    mocks.publisher as unknown as RunEventsPublisher,
    mocks.threads as unknown as ThreadsRepository,
    { QDC_ASSISTANT_DETACH_GRACE_MS: graceMs, QDC_SSE_KEEPALIVE_MS: 15_000 } as QdcConfig,
    { publish: async () => undefined } as unknown as EventBus,
  );
  return { sut, mocks, events, done: () => done.then(() => new Promise((r) => setTimeout(r, 5))) };
}

const result = { text: 'Hi there', files: [], verification: null, engine: 'offline' as const, model: null, promptTokens: 3, completionTokens: 2, toolCalls: 0 };

describe(RunManager.name, () => {
  it('streams the engine tokens and ends with one completed event carrying thread id and usage', async () => {
    const { sut, mocks, events, done } = factory(async (run) => {
      run.token('Hi ');
      run.token('there');
      return result;
    });
    const { threadId } = sut.start(runRequest({ threadId: 't-1' }));
    await done();
    expect(threadId).toBe('t-1');
    expect(events.map((e) => e.type)).toEqual(['started', 'token', 'token', 'completed']);
    expect(events.at(-1)).toMatchObject({ thread_id: 't-1', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }, verification: null });
    // The engine saw the stored history followed by the new message.
    expect(mocks.engine.run.mock.calls[0][0].messages.map((m: { content: string }) => m.content)).toEqual(['earlier', 'answer', 'hello']);
    expect(mocks.threads.append).toHaveBeenLastCalledWith(OWNER, 't-1', expect.any(String), [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'Hi there' },
    ]);
    expect(mocks.threads.recordUsage).toHaveBeenCalledWith(expect.objectContaining({ status: 'completed', ownerId: OWNER, threadId: 't-1' }));
  });

  it('sends files before completed', async () => {
    const { sut, events, done } = factory(async () => ({ ...result, files: [{ path: 'a.py', language: 'python', content: 'x' }] }));
    sut.start(runRequest({ codeMode: 'file' }));
    await done();
    expect(events.map((e) => e.type)).toEqual(['started', 'files', 'completed']);
  });

  it('turns an engine failure into one error event with its message, and hides internal errors', async () => {
    const failing = factory(async () => {
      throw new EngineFailure('the language model provider at http://x is not available');
    });
    failing.sut.start(runRequest());
    await failing.done();
    expect(failing.events.at(-1)).toEqual({ type: 'error', error: 'the language model provider at http://x is not available' });
    const crashing = factory(async () => {
      throw new TypeError('secret stack detail');
    });
    crashing.sut.start(runRequest());
    await crashing.done();
    expect(crashing.events.at(-1)).toEqual({ type: 'error', error: 'the assistant failed to answer (internal error)' });
    expect(crashing.mocks.threads.recordUsage).toHaveBeenCalledWith(expect.objectContaining({ status: 'error' }));
  });

  it('cancels a detached run after the grace period, but not one that reattached', async () => {
    const slow = (run: EngineRun) =>
      new Promise<typeof result>((resolve, reject) => {
        const timer = setTimeout(() => resolve(result), 150);
        run.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new RunCancelled());
        });
      });
    const detached = factory(slow, 20);
    const a = runRequest();
    detached.sut.start(a);
    detached.sut.control({ runId: a.runId, action: 'detach' });
    await detached.done();
    expect(detached.events.map((e) => e.type)).toEqual(['started', 'cancelled']);
    expect(detached.mocks.threads.recordUsage).toHaveBeenCalledWith(expect.objectContaining({ status: 'cancelled' }));

    const back = factory(slow, 40);
    const b = runRequest();
    back.sut.start(b);
    back.sut.control({ runId: b.runId, action: 'detach' });
    back.sut.control({ runId: b.runId, action: 'attach' });
    await back.done();
    expect(back.events.at(-1)!.type).toBe('completed');
  });

  it('counts the runs in progress and times each finished run by its status (qdc_assistant_*)', async () => {
    const sample = async (pattern: RegExp) => Number(pattern.exec(await metricsRegistry.metrics())?.[1] ?? 0);
    const active = /^qdc_assistant_runs_active(?:\{[^}]*\})? (\d+)$/m;
    const cancelledCount = /^qdc_assistant_run_duration_seconds_count\{status="cancelled"[^}]*\} (\d+)$/m;
    const before = { active: await sample(active), cancelled: await sample(cancelledCount) };
    // Runs until cancelled (the engine may start after the cancel: the run starts on the next turn of the event loop).
    const { sut, done } = factory(
      (run) =>
        new Promise((_resolve, reject) => {
          if (run.signal.aborted) reject(new RunCancelled());
          run.signal.addEventListener('abort', () => reject(new RunCancelled()));
        }),
    );
    const request = runRequest();
    sut.start(request);
    expect(await sample(active)).toBe(before.active + 1);
    sut.control({ runId: request.runId, action: 'cancel' });
    await done();
    expect(await sample(active)).toBe(before.active);
    expect(await sample(cancelledCount)).toBe(before.cancelled + 1);
  });
});

describe(newMessages.name, () => {
  const history = [
    { role: 'user' as const, content: 'a' },
    { role: 'assistant' as const, content: 'b' },
  ];
  it('keeps only the new turn when the client resends the whole conversation', () => {
    expect(newMessages(history, [...history, { role: 'user', content: 'c' }])).toEqual([{ role: 'user', content: 'c' }]);
  });
  it('takes every message when they do not continue the stored history', () => {
    expect(newMessages(history, [{ role: 'user', content: 'c' }])).toEqual([{ role: 'user', content: 'c' }]);
    expect(newMessages([], [{ role: 'user', content: 'a' }])).toEqual([{ role: 'user', content: 'a' }]);
  });
});
