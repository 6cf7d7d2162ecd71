import type { JetStreamManager, StreamInfo } from '@nats-io/jetstream';
import { loadConfig } from '../config/config.js';
import { matchReplicas, streamReplicas } from './jetstream-replicas.js';

const info = (name: string, replicas: number) => ({ config: { name, num_replicas: replicas } }) as unknown as StreamInfo;

function setup(update: (name: string, change: object) => Promise<StreamInfo>) {
  const calls: [string, object][] = [];
  const jsm = {
    streams: {
      update: (name: string, change: object) => {
        calls.push([name, change]);
        return update(name, change);
      },
    },
  } as unknown as JetStreamManager;
  return { sut: matchReplicas, mocks: { jsm, calls } };
}

describe(matchReplicas.name, () => {
  it('leaves a stream that has the configured replicas alone', async () => {
    const { sut, mocks } = setup(() => Promise.reject(new Error('not expected')));
    const current = info('qdc-lab-a', 3);
    expect(await sut(mocks.jsm, current, { QDC_NATS_REPLICAS: 3 })).toBe(current);
    expect(mocks.calls).toEqual([]);
  });

  it('changes only the replicas of a stream created with another count', async () => {
    const { sut, mocks } = setup((name) => Promise.resolve(info(name, 3)));
    const updated = await sut(mocks.jsm, info('KV_qdc-lab-streams', 1), { QDC_NATS_REPLICAS: 3 });
    expect(mocks.calls).toEqual([['KV_qdc-lab-streams', { num_replicas: 3 }]]);
    expect(updated.config.num_replicas).toBe(3);
  });

  it('says which stream, which counts and what NATS answered when the change is refused', async () => {
    const { sut, mocks } = setup(() => Promise.reject(new Error('replicas > 1 not supported in non-clustered mode')));
    await expect(sut(mocks.jsm, info('OBJ_qdc-payloads', 1), { QDC_NATS_REPLICAS: 3 })).rejects.toThrow(
      'stream OBJ_qdc-payloads has 1 replica(s), QDC_NATS_REPLICAS is 3, and NATS refused the change: replicas > 1 not supported in non-clustered mode',
    );
  });
});

describe('QDC_NATS_REPLICAS', () => {
  it('is 1 unless set, and goes into a stream configuration as num_replicas', () => {
    expect(streamReplicas(loadConfig({}))).toEqual({ num_replicas: 1 });
    expect(streamReplicas(loadConfig({ QDC_NATS_REPLICAS: '3' }))).toEqual({ num_replicas: 3 });
    expect(() => loadConfig({ QDC_NATS_REPLICAS: '0' })).toThrow(/QDC_NATS_REPLICAS/);
  });
});
