import { StreamLease } from './stream-lease.js';

/** A KV bucket as JetStream keeps it for one key: create only when absent, update only at the current revision. */
function fakeKv() {
  const state = { value: undefined as string | undefined, revision: 0, seq: 0 };
  return {
    state,
    expire: () => (state.value = undefined),
    kv: {
      create: async (_k: string, v: unknown) => {
        if (state.value !== undefined) throw new Error('wrong last sequence: key exists');
        state.value = String(v);
        state.seq += 1;
        state.revision = state.seq;
        return state.revision;
      },
      update: async (_k: string, v: unknown, version: number) => {
        if (state.value === undefined || version !== state.revision) throw new Error('wrong last sequence');
        state.value = String(v);
        state.seq += 1;
        state.revision = state.seq;
        return state.revision;
      },
      delete: async (_k: string, opts?: { previousSeq?: number }) => {
        if (opts?.previousSeq !== undefined && opts.previousSeq !== state.revision) throw new Error('wrong last sequence');
        state.value = undefined;
      },
    },
  };
}

describe(StreamLease.name, () => {
  it('lets one replica hold a stream: the second cannot acquire until the first releases', async () => {
    const { kv, state } = fakeKv();
    let t = 0;
    const a = new StreamLease(kv as never, 'lab-a.s', 'replica-a', 6000, () => t);
    const b = new StreamLease(kv as never, 'lab-a.s', 'replica-b', 6000, () => t);
    expect(await a.acquire()).toBe(true);
    expect(await b.acquire()).toBe(false);
    expect([a.holds(), b.holds(), state.value]).toEqual([true, false, 'replica-a']);
    t = 2000;
    expect(await a.renew()).toBe(true);
    await a.release();
    expect(a.holds()).toBe(false);
    expect(await b.acquire()).toBe(true);
    expect(state.value).toBe('replica-b');
  });

  it('stops holding at 80 % of the ttl after the last renewal was sent, before the entry can expire', async () => {
    const { kv } = fakeKv();
    let t = 1000;
    const a = new StreamLease(kv as never, 'k', 'a', 5000, () => t);
    await a.acquire();
    t = 1000 + 3999;
    expect(a.holds()).toBe(true);
    t = 1000 + 4000;
    expect(a.holds()).toBe(false);
    expect(await a.renew()).toBe(false);
  });

  it('loses the lease when another replica took it over after it expired (renew fails, no longer held)', async () => {
    const { kv, expire, state } = fakeKv();
    let t = 0;
    const a = new StreamLease(kv as never, 'k', 'a', 6000, () => t);
    const b = new StreamLease(kv as never, 'k', 'b', 6000, () => t);
    await a.acquire();
    expire();
    expect(await b.acquire()).toBe(true);
    t = 100;
    expect(await a.renew()).toBe(false);
    expect(a.holds()).toBe(false);
    // A's release must not delete B's lease.
    await a.release();
    expect(state.value).toBe('b');
  });
});
