import { loadAssistantState, nextRequest, saveAssistantState, threadTitle, type ChatThread } from './assistant-threads.js';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

const thread = (over: Partial<ChatThread> = {}): ChatThread => ({ id: 't1', title: 'Bell', messages: [], updatedAt: '2026-11-28T10:00:00Z', ...over });

describe('assistant threads', () => {
  it('keeps threads and the run in flight together across a reload', () => {
    const storage = new MemoryStorage();
    const state = {
      threads: [
        thread({
          messages: [
            { role: 'user' as const, content: 'Bell state?' },
            { role: 'assistant' as const, content: 'Here', state: 'streaming' as const },
          ],
        }),
      ],
      pending: { threadId: 't1', body: { messages: [{ role: 'user' as const, content: 'Bell state?' }] }, lastEventId: 'run:4' },
    };
    saveAssistantState(state, storage);
    expect(loadAssistantState(storage)).toEqual(state);
    expect(loadAssistantState(new MemoryStorage())).toEqual({ threads: [] });
  });

  it('asks with the finished messages of the thread and its server id', () => {
    const t = thread({
      serverThreadId: 'srv-1',
      messages: [
        { role: 'user', content: 'Bell state?' },
        { role: 'assistant', content: 'Here it is', state: 'done' },
        { role: 'user', content: 'GHZ?' },
        { role: 'assistant', content: 'half', state: 'stopped' },
      ],
    });
    expect(nextRequest(t, 'and with 3 qubits?')).toEqual({
      messages: [
        { role: 'user', content: 'Bell state?' },
        { role: 'assistant', content: 'Here it is' },
        { role: 'user', content: 'GHZ?' },
        { role: 'user', content: 'and with 3 qubits?' },
      ],
      thread_id: 'srv-1',
    });
    expect(nextRequest(undefined, 'hi')).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
  });

  it('titles a thread by its first line', () => {
    expect(threadTitle('  Make a Bell state\nin Qiskit')).toBe('Make a Bell state');
    expect(threadTitle('x'.repeat(80))).toHaveLength(58);
  });
});
