import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { decodeNpy, encodeNpy } from '#qdc/arrays';
import { labStreamSubjects, type LabStreamDto, type LabStreamEvent, type LabStreamModelOutcome } from '#qdc/contracts';
import { FrameError, decodeFrame } from './frame-decoder.js';
import type { FrameStreamRef } from './frame-job-batcher.js';
import type { DecodedFrame } from './frame-decoder.js';
import { StreamFrameHandler, type FrameMessage } from './stream-frame-handler.js';

const stream = (over: Partial<LabStreamDto> = {}): LabStreamDto => ({
  lab: 'lab-a',
  name: 'pinchoff',
  owner_id: randomUUID(),
  models: ['pinch-off-classifier-v0'],
  max_in_flight: 3,
  max_lag_ms: null,
  created_at: '2026-11-25T10:00:00.000Z',
  subjects: labStreamSubjects('qdc', 'lab-a', 'pinchoff'),
  jetstream: { stream: 'qdc-lab-lab-a-FRAMES-pinchoff', consumer: 'analyser' },
  ...over,
});

const frame = (seq: number, body: unknown, headers: Record<string, string> = {}, storedAtMs = 1000): FrameMessage & { acked: jest.Mock } => {
  const acked = jest.fn();
  return {
    seq,
    data: body instanceof Uint8Array ? body : new TextEncoder().encode(JSON.stringify(body)),
    header: (name) => headers[name],
    storedAtMs,
    ack: acked,
    working: () => undefined,
    acked,
  };
};

/** {sut, mocks}: a handler whose analysis is controlled by the test (resolve frames in any order). */
function newProcessor(over: Partial<LabStreamDto> = {}, attempts = 2) {
  const pending = new Map<string, { resolve: (r: LabStreamModelOutcome[]) => void; reject: (e: Error) => void }>();
  let running = 0;
  let maxRunning = 0;
  const analyse = jest.fn((_stream: FrameStreamRef, f: DecodedFrame) => {
    running += 1;
    maxRunning = Math.max(maxRunning, running);
    return new Promise<LabStreamModelOutcome[]>((resolve, reject) => {
      pending.set(f.frameId, {
        resolve: (r) => {
          running -= 1;
          resolve(r);
        },
        reject: (e) => {
          running -= 1;
          reject(e);
        },
      });
    });
  });
  const published: { subject: string; event: LabStreamEvent; msgId?: string }[] = [];
  // The event stream's deduplication (JetStream, by message id) as the server does it.
  const storedIds = new Set<string>();
  const publishEvent = jest.fn(async (event: LabStreamEvent, msgId: string) => {
    if (storedIds.has(msgId)) return { duplicate: true };
    storedIds.add(msgId);
    published.push({ subject: stream(over).subjects.results, event, msgId });
    return { duplicate: false };
  });
  const reply = jest.fn((subject: string, event: LabStreamEvent) => void published.push({ subject, event }));
  const lease = { held: true };
  const sleep = jest.fn(async () => undefined);
  const sut = new StreamFrameHandler(
    stream(over),
    { analyse, publishEvent, reply, holds: () => lease.held, now: () => 1005, sleep, warn: () => undefined },
    { attempts, workingEveryMs: 10_000 },
  );
  const ok = (id: string) => pending.get(id)!.resolve([{ model: 'pinch-off-classifier-v0', result_id: randomUUID(), output: { classification: true, id } }]);
  return { sut, mocks: { analyse, publishEvent, published, pending, ok, sleep, lease, storedIds, maxRunning: () => maxRunning } };
}

const tick = () => new Promise((r) => setImmediate(r));
const trace = (id: string) => ({ frame_id: id, data: Array.from({ length: 100 }, (_, i) => Math.tanh((i - 50) / 8)) });

describe('StreamFrameHandler', () => {
  it('publishes results in frame order although later frames finish first, and acks each frame after its event', async () => {
    const { sut, mocks } = newProcessor();
    const frames = [frame(1, trace('f1')), frame(2, trace('f2')), frame(3, trace('f3'))];
    for (const f of frames) await sut.admit(f);
    await tick();
    mocks.ok('f3');
    mocks.ok('f2');
    await tick();
    expect(mocks.published).toEqual([]);
    expect(frames.map((f) => f.acked.mock.calls.length)).toEqual([0, 0, 0]);
    mocks.ok('f1');
    await sut.pipeline.idle();
    expect(mocks.published.map((p) => [p.subject, p.event.type, p.event.frame_id, p.event.seq])).toEqual([
      ['qdc.lab.lab-a.streams.pinchoff.results', 'result', 'f1', 1],
      ['qdc.lab.lab-a.streams.pinchoff.results', 'result', 'f2', 2],
      ['qdc.lab.lab-a.streams.pinchoff.results', 'result', 'f3', 3],
    ]);
    expect(frames.map((f) => f.acked.mock.calls.length)).toEqual([1, 1, 1]);
    expect(mocks.published[0]!.event).toMatchObject({ lab: 'lab-a', stream: 'pinchoff', latency_ms: 5 });
  });

  it('keeps at most max_in_flight frames in analysis: admit waits for room', async () => {
    const { sut, mocks } = newProcessor({ max_in_flight: 2 });
    await sut.admit(frame(1, trace('a')));
    await sut.admit(frame(2, trace('b')));
    let third = false;
    const admitted = sut.admit(frame(3, trace('c'))).then(() => (third = true));
    await tick();
    expect(third).toBe(false);
    mocks.ok('a');
    await admitted;
    await tick();
    mocks.ok('b');
    await tick();
    mocks.ok('c');
    await sut.pipeline.idle();
    expect(mocks.maxRunning()).toBe(2);
    expect(mocks.published.map((p) => p.event.frame_id)).toEqual(['a', 'b', 'c']);
  });

  it('ignores a redelivery of a frame still in analysis (analysed once)', async () => {
    const { sut, mocks } = newProcessor();
    expect(await sut.admit(frame(7, trace('x'), { 'Nats-Msg-Id': 'x' }))).toBe(true);
    expect(await sut.admit(frame(7, trace('x'), { 'Nats-Msg-Id': 'x' }))).toBe(false);
    await tick();
    mocks.ok('x');
    await sut.pipeline.idle();
    expect(mocks.analyse).toHaveBeenCalledTimes(1);
    expect(mocks.published).toHaveLength(1);
  });

  it('acks a late redelivery of a frame already answered without answering it again', async () => {
    const { sut, mocks } = newProcessor();
    await sut.admit(frame(5, trace('y'), { 'Nats-Msg-Id': 'y' }));
    await tick();
    mocks.ok('y');
    await sut.pipeline.idle();
    const again = frame(5, trace('y'), { 'Nats-Msg-Id': 'y' });
    expect(await sut.admit(again)).toBe(false);
    expect(again.acked).toHaveBeenCalledTimes(1);
    expect(mocks.analyse).toHaveBeenCalledTimes(1);
    expect(mocks.published).toHaveLength(1);
  });

  it('stores each event under <frame id>@<seq>: a redelivery after a crash (event stored, frame not acked) publishes nothing and is acked', async () => {
    const { sut, mocks } = newProcessor();
    await sut.admit(frame(3, trace('z'), { 'Nats-Msg-Id': 'z', 'Qdc-Reply-To': '_INBOX_lab-a.q' }));
    await tick();
    mocks.ok('z');
    await sut.pipeline.idle();
    expect(mocks.published.map((p) => [p.subject, p.msgId])).toEqual([
      ['qdc.lab.lab-a.streams.pinchoff.results', 'z@3'],
      ['_INBOX_lab-a.q', undefined],
    ]);
    // Another replica (a fresh handler, same event stream) gets the frame again: analysed (idempotent), not re-published.
    const other = newProcessor();
    for (const id of mocks.storedIds) other.mocks.storedIds.add(id);
    const again = frame(3, trace('z'), { 'Nats-Msg-Id': 'z', 'Qdc-Reply-To': '_INBOX_lab-a.q' });
    await other.sut.admit(again);
    await tick();
    other.mocks.ok('z');
    await other.sut.pipeline.idle();
    expect(other.mocks.publishEvent).toHaveBeenCalledWith(expect.objectContaining({ frame_id: 'z', seq: 3 }), 'z@3');
    expect(other.mocks.published).toEqual([]);
    expect(again.acked).toHaveBeenCalledTimes(1);
  });

  it('answers and acks nothing once the stream’s lease is lost (the new holder gets the frames again)', async () => {
    const { sut, mocks } = newProcessor();
    const f = frame(1, trace('l'));
    await sut.admit(f);
    await tick();
    mocks.lease.held = false;
    mocks.ok('l');
    await sut.pipeline.idle();
    expect(mocks.publishEvent).not.toHaveBeenCalled();
    expect(f.acked).not.toHaveBeenCalled();
  });

  it('retries storing an event, then leaves the frame unacked (redelivered) and goes on with the next', async () => {
    const { sut, mocks } = newProcessor({}, 2);
    mocks.publishEvent.mockRejectedValueOnce(new Error('timeout')).mockRejectedValueOnce(new Error('timeout'));
    const first = frame(1, { data: 'x' });
    const second = frame(2, { data: 'y' });
    await sut.admit(first);
    await sut.admit(second);
    await sut.pipeline.idle();
    expect(first.acked).not.toHaveBeenCalled();
    expect(second.acked).toHaveBeenCalledTimes(1);
    expect(mocks.published.map((p) => p.event.seq)).toEqual([2]);
  });

  it('answers a frame that is not an array with an error event, without analysis, and goes on with the next frame', async () => {
    const { sut, mocks } = newProcessor();
    const bad = frame(1, { frame_id: 'bad', data: 'not numbers' }, { 'Nats-Msg-Id': 'bad' });
    await sut.admit(bad);
    await sut.admit(frame(2, trace('good')));
    await tick();
    mocks.ok('good');
    await sut.pipeline.idle();
    expect(mocks.published.map((p) => p.event)).toEqual([
      {
        type: 'error',
        lab: 'lab-a',
        stream: 'pinchoff',
        frame_id: 'bad',
        seq: 1,
        error: {
          code: 'invalid_input',
          message: 'expected "data" to be a non-empty array of numbers (1-D trace) or of equal-length rows (2-D map); got string',
        },
      },
      expect.objectContaining({ type: 'result', frame_id: 'good', seq: 2 }),
    ]);
    expect(mocks.analyse).toHaveBeenCalledTimes(1);
    expect(bad.acked).toHaveBeenCalledTimes(1);
  });

  it('turns a frame every model refused into an error event', async () => {
    const { sut, mocks } = newProcessor();
    await sut.admit(frame(1, trace('nan')));
    await tick();
    mocks.pending
      .get('nan')!
      .resolve([{ model: 'pinch-off-classifier-v0', error: { code: 'invalid_input', message: 'expected finite values; got NaN at 3' } }]);
    await sut.pipeline.idle();
    expect(mocks.published[0]!.event).toEqual({
      type: 'error',
      lab: 'lab-a',
      stream: 'pinchoff',
      frame_id: 'nan',
      seq: 1,
      error: { code: 'invalid_input', message: 'pinch-off-classifier-v0: expected finite values; got NaN at 3' },
    });
  });

  it('retries a failing analysis, then reports the frame dropped with the reason', async () => {
    const { sut, mocks } = newProcessor({}, 2);
    await sut.admit(frame(1, trace('t')));
    await tick();
    mocks.pending.get('t')!.reject(new Error('inference did not finish within 300000 ms'));
    await tick();
    await tick();
    mocks.pending.get('t')!.reject(new Error('Redis is not ready'));
    await sut.pipeline.idle();
    expect(mocks.analyse).toHaveBeenCalledTimes(2);
    expect(mocks.sleep).toHaveBeenCalledWith(200);
    expect(mocks.published[0]!.event).toEqual({
      type: 'dropped',
      reason: 'failed',
      lab: 'lab-a',
      stream: 'pinchoff',
      frame_id: 't',
      seq: 1,
      message: 'analysis failed 2 times; last: Redis is not ready',
    });
  });

  it('drops a frame that waited longer than max_lag_ms (reason stale) without analysing it', async () => {
    const { sut, mocks } = newProcessor({ max_lag_ms: 100 });
    await sut.admit(frame(4, trace('old'), { 'Nats-Msg-Id': 'old' }, 500));
    await sut.pipeline.idle();
    expect(mocks.analyse).not.toHaveBeenCalled();
    expect(mocks.published[0]!.event).toEqual({
      type: 'dropped',
      reason: 'stale',
      lab: 'lab-a',
      stream: 'pinchoff',
      frame_id: 'old',
      seq: 4,
      message: "frame waited 505 ms, more than the stream's max_lag_ms 100",
    });
  });

  it('also answers on the frame’s Qdc-Reply-To inbox, but only on an inbox of its own lab', async () => {
    const { sut, mocks } = newProcessor();
    await sut.admit(frame(1, { data: 'x' }, { 'Qdc-Reply-To': '_INBOX_lab-a.abc' }));
    await sut.admit(frame(2, { data: 'x' }, { 'Qdc-Reply-To': '_INBOX_lab-b.abc' }));
    await sut.pipeline.idle();
    expect(mocks.published.map((p) => p.subject)).toEqual([
      'qdc.lab.lab-a.streams.pinchoff.results',
      '_INBOX_lab-a.abc',
      'qdc.lab.lab-a.streams.pinchoff.results',
    ]);
  });
});

describe('decodeFrame', () => {
  it('turns a JSON map into a float64 .npy of its shape and takes the frame id from Nats-Msg-Id first', () => {
    const decoded = decodeFrame(
      new TextEncoder().encode(
        JSON.stringify({
          frame_id: 'json-id',
          data: [
            [1, 2, 3],
            [4, 5, 6],
          ],
        }),
      ),
      'hdr-id',
      9,
      'map',
    );
    expect(decoded.frameId).toBe('hdr-id');
    expect(decoded.fileName).toBe('map-hdr-id.npy');
    const array = decodeNpy(decoded.bytes);
    expect(array.shape).toEqual([2, 3]);
    expect([...array.data]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('passes .npy bytes through unchanged and names the frame by its sequence when no id is given', () => {
    const npy = encodeNpy({ shape: [4], data: [1, 2, 3, 4] }, { dtype: 'f4' });
    expect(decodeFrame(npy, undefined, 12, 's')).toEqual({ frameId: 'seq-12', bytes: npy, fileName: 's-seq-12.npy' });
  });

  it.each([
    [{ data: [[1, 2], [3]] }, 'expected rows of equal length 2 in "data"; row 1 has 1'],
    [{ data: [] }, 'expected "data" to be a non-empty array of numbers (1-D trace) or of equal-length rows (2-D map); got an array with no elements'],
    [{ data: [1, 'a'] }, 'expected "data" to hold numbers or rows of numbers; element 1 is string'],
    [[1, 2, 3], 'expected a JSON object {"frame_id", "data", "axes"}; got a bare array (wrap it: {"data": [...]})'],
  ])('refuses %j: %s', (body, message) => {
    expect(() => decodeFrame(new TextEncoder().encode(JSON.stringify(body)), undefined, 1, 's')).toThrow(new FrameError(message));
  });

  it('refuses bytes that are neither an array file nor JSON', () => {
    expect(() => decodeFrame(new Uint8Array([1, 2, 3]), undefined, 1, 's')).toThrow(/expected a frame as \.npy bytes, \.pt bytes or a JSON object/);
  });
});
