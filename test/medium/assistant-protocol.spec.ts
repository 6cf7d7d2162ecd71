/**
 * The assistant's SSE protocol through the real gateway, assistant, NATS (JetStream) and Postgres,
 * with the offline engine (no LLM configured): framing, one terminal event, deprecated fields,
 * 422 bodies, threads per owner, usage, resume with Last-Event-ID. Mirrors the official client's
 * TestCodaAgents*, TestCodaAgentsRun and TestCodaAgentsList expectations.
 */
import { parseCircuit } from '#qdc/circuits';
import { codeBlocks, hellingerFidelity, measuredDistribution } from '#qdc/assistant';
import { startSystem, type TestSystem } from './system.harness.js';
import { assertStreamInvariants, postSse, tokensOf } from './sse-client.js';

let system: TestSystem;
let alice: string;
let bob: string;
let controlOnly: string;

const url = (path: string) => `${system.baseUrl}${path}`;
const ask = (token: string, body: unknown, path = '/v0/coda/agents', headers?: Record<string, string>) => postSse(url(path), token, body, { headers });

beforeAll(async () => {
  system = await startSystem();
  [alice, bob, controlOnly] = await Promise.all([system.createKey('alice', 'coda'), system.createKey('bob', 'coda'), system.createKey('carol', 'control')]);
  // The assistant process may join NATS after the gateway is ready.
  for (const deadline = Date.now() + 60_000; ; ) {
    const r = await fetch(url('/v0/coda/agents'), { headers: { authorization: `Bearer ${alice}` } });
    if (r.status === 200) break;
    if (Date.now() > deadline) throw new Error(`assistant not answering (${r.status}); logs in ${system.logDir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(async () => {
  await system?.stop();
});

describe('GET /agents (coda)', () => {
  it.each(['/v0/coda/agents', '/v0/agents'])('%s lists {agents: [{name, description}]}', async (path) => {
    const r = await fetch(url(path), { headers: { authorization: `Bearer ${alice}` } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { agents: { name: string; description: string }[] };
    expect(body.agents.length).toBeGreaterThanOrEqual(1);
    for (const a of body.agents) {
      expect(a.name).toEqual(expect.any(String));
      expect(a.description.length).toBeGreaterThan(20);
    }
  });

  it('needs a key with the coda scope', async () => {
    expect((await fetch(url('/v0/coda/agents'))).status).toBe(401);
    expect((await fetch(url('/v0/coda/agents'), { headers: { authorization: `Bearer ${controlOnly}` } })).status).toBe(403);
    expect((await ask(controlOnly, { messages: [{ role: 'user', content: 'hi' }] })).status).toBe(403);
  });
});

describe('POST /agents (coda)', () => {
  it.each([
    ['/v0/coda/agents', 'What is a qubit?', 'build'],
    ['/v0/agents', 'Explain superposition briefly', 'learn'],
    ['/v0/coda/agents', 'Define quantum superposition in one line.', 'learn'],
  ])('%s streams "%s" (mode %s, fast) as data-only JSON events ending with one completed', async (path, content, mode) => {
    const r = await ask(alice, { messages: [{ role: 'user', content }], mode, fast: true }, path);
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^text\/event-stream/);
    assertStreamInvariants(r.events);
    expect(r.events.length).toBeGreaterThanOrEqual(2);
    const last = r.events.at(-1)!;
    expect(last).toMatchObject({ type: 'completed', thread_id: expect.any(String), usage: expect.objectContaining({ total_tokens: expect.any(Number) }) });
    // Framing: every event is `id: <run>:<n>` + `data: <json>` + blank line, ids increasing.
    expect(r.raw).toMatch(/^(id: [0-9a-f-]{36}:\d+\ndata: \{.*\}\n\n)+$/);
    const ids = r.frames.map((f) => Number(f.id!.split(':')[1]));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(r.frames.map((f) => f.id!.split(':')[0])).size).toBe(1);
    // The official client reads line by line and keeps `data: ` lines only (json.loads(line[6:])).
    const clientView = r.raw
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(clientView).toEqual(r.events);
  });

  it('answers a concept question from the knowledge base with the section cited', async () => {
    const r = await ask(alice, { messages: [{ role: 'user', content: 'What is a T gate?' }] });
    const text = tokensOf(r.events);
    expect(text).toMatch(/π\/4|pi\/4/);
    expect(text).toMatch(/Source: docs\/knowledge\/[\w-]+\.md § /);
  });

  it('writes a verified circuit: "build a 5-qubit GHZ circuit in Cirq"', async () => {
    const r = await ask(alice, { messages: [{ role: 'user', content: 'build a 5-qubit GHZ circuit in Cirq' }] });
    assertStreamInvariants(r.events);
    const text = tokensOf(r.events);
    const [block] = codeBlocks(text);
    expect(block.code).toMatch(/import cirq/);
    const fidelity = hellingerFidelity(measuredDistribution(parseCircuit(block.code).circuit), { '00000': 0.5, '11111': 0.5 });
    expect(fidelity).toBeGreaterThanOrEqual(0.99);
    expect(r.events.at(-1)).toMatchObject({ type: 'completed', verification: { parsed: true, simulated: true, repairs: 0 } });
  });

  it('code_mode=file sends the code in one files event before completed, none in tokens', async () => {
    const r = await ask(alice, { messages: [{ role: 'user', content: 'make a Grover search for 101' }], code_mode: 'file', budget: 'low' });
    assertStreamInvariants(r.events);
    const files = r.events.filter((e) => e.type === 'files');
    expect(files).toHaveLength(1);
    expect(r.events.indexOf(files[0])).toBe(r.events.length - 2);
    const [file] = files[0].files as { path: string; language: string; content: string }[];
    expect(file).toMatchObject({ path: expect.stringMatching(/\.py$/), language: 'python' });
    expect(tokensOf(r.events)).not.toMatch(/```|QuantumCircuit\(/);
    const d = measuredDistribution(parseCircuit(file.content).circuit);
    expect(d['101']).toBeGreaterThan(0.9);
  });

  it.each([
    [{}, 'messages'],
    [{ messages: [] }, 'at least one message'],
    [{ messages: [{ role: 'robot', content: 'hi' }] }, 'role must be one of user, assistant, system'],
    [{ messages: [{ role: 'user', content: 'hi' }], budget: 'extreme' }, 'budget must be one of low, medium, high'],
    [{ messages: [{ role: 'user', content: 'hi' }], code_mode: 'zip' }, 'code_mode must be one of inline, file'],
    [{ messages: [{ role: 'assistant', content: 'hello' }] }, 'non-empty user message'],
    [[{ role: 'user', content: 'hi' }], 'expected a JSON object'],
    ['{"messages": [', 'malformed request body'],
  ])('answers 422 before any stream for %j', async (body, message) => {
    const r = await ask(alice, body);
    expect(r.status).toBe(422);
    expect(r.contentType).toMatch(/^application\/json/);
    const parsed = JSON.parse(r.raw) as { success: boolean; error: string };
    expect(parsed.success).toBe(false);
    expect(parsed.error).toContain(message);
  });

  it('mode "learn" explains a circuit topic without a circuit, and still writes one asked for in so many words', async () => {
    // The same words: a circuit in build mode (below), an explanation in learn mode.
    const learn = tokensOf((await ask(alice, { messages: [{ role: 'user', content: 'a Bell state in Qiskit' }], mode: 'learn' })).events);
    expect(learn).not.toContain('```');
    expect(learn).toMatch(/Bell/);
    const asked = tokensOf((await ask(alice, { messages: [{ role: 'user', content: 'Write a Bell state circuit in Qiskit' }], mode: 'learn' })).events);
    expect(asked).toContain('```python');
    const built = tokensOf((await ask(alice, { messages: [{ role: 'user', content: 'a Bell state in Qiskit' }], mode: 'build' })).events);
    expect(built).toContain('```python');
  });

  it('accepts any old mode value and fast (an unknown mode means build)', async () => {
    for (const extra of [{ mode: 'build' }, { mode: 'learn' }, { mode: 'agent-v0-legacy' }, { mode: 42, fast: 'yes' }, { fast: false }]) {
      const r = await ask(alice, { messages: [{ role: 'user', content: 'Hi' }], ...extra });
      expect(r.status).toBe(200);
      assertStreamInvariants(r.events);
      expect(r.events.at(-1)!.type).toBe('completed');
    }
  });
});

describe('threads', () => {
  it('continues a thread of the same owner; an unknown id starts one with that id', async () => {
    const first = await ask(alice, { messages: [{ role: 'user', content: 'build a 5-qubit GHZ circuit' }], thread_id: 'integration-test-thread' });
    expect(first.events.at(-1)).toMatchObject({ type: 'completed', thread_id: 'integration-test-thread' });
    const second = await ask(alice, { messages: [{ role: 'user', content: 'now in Cirq with 6 qubits' }], thread_id: 'integration-test-thread' });
    const [block] = codeBlocks(tokensOf(second.events));
    expect(block.code).toMatch(/import cirq/);
    expect(hellingerFidelity(measuredDistribution(parseCircuit(block.code).circuit), { '000000': 0.5, '111111': 0.5 })).toBeGreaterThanOrEqual(0.99);
    const rows = await system.query<{ role: string }>(
      `SELECT role FROM assistant_messages m JOIN owners o ON o.id = m.owner_id WHERE o.name = 'alice' AND thread_id = 'integration-test-thread' ORDER BY m.id`,
    );
    expect(rows.map((r) => r.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it("another owner's thread id behaves as new and never leaks", async () => {
    const r = await ask(bob, { messages: [{ role: 'user', content: 'now in Cirq with 6 qubits' }], thread_id: 'integration-test-thread' });
    expect(r.events.at(-1)).toMatchObject({ type: 'completed', thread_id: 'integration-test-thread' });
    expect(tokensOf(r.events)).not.toMatch(/```|import cirq|QuantumCircuit/);
    const threads = await system.query<{ name: string; n: string }>(
      `SELECT o.name, count(m.id)::text AS n FROM assistant_threads t JOIN owners o ON o.id = t.owner_id LEFT JOIN assistant_messages m ON m.owner_id = t.owner_id AND m.thread_id = t.id WHERE t.id = 'integration-test-thread' GROUP BY o.name ORDER BY o.name`,
    );
    expect(threads).toEqual([
      { name: 'alice', n: '4' },
      { name: 'bob', n: '2' },
    ]);
  });

  it('gives a new thread id when none is sent, and records usage per owner', async () => {
    const r = await ask(bob, { messages: [{ role: 'user', content: 'Create a GHZ state on 3 qubits' }] });
    const threadId = r.events.at(-1)!.thread_id as string;
    expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
    // Usage is written after the terminal event (off the stream's path): wait for it briefly.
    let usage: { status: string; engine: string; completion_tokens: number; thread_id: string }[] = [];
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
      usage = await system.query(
        `SELECT u.status, u.engine, u.completion_tokens, u.thread_id FROM assistant_usage u JOIN owners o ON o.id = u.owner_id WHERE o.name = 'bob' AND u.thread_id = $1`,
        [threadId],
      );
      if (usage.length) break;
    }
    expect(usage[0]).toMatchObject({ status: 'completed', engine: 'offline', thread_id: threadId });
    expect(usage[0].completion_tokens).toBeGreaterThan(0);
  });
});

describe('resume with Last-Event-ID', () => {
  it('replays what the client missed after a disconnect, without loss or duplicates', async () => {
    const request = { messages: [{ role: 'user', content: 'write the inverse QFT on 4 qubits that recovers 1011' }] };
    const cut = await ask(alice, request, '/v0/coda/agents');
    const full = tokensOf(cut.events);
    const partial = await postSse(url('/v0/coda/agents'), alice, request, { stopAfter: (frames) => frames.filter((f) => f.event).length >= 3 });
    const lastId = partial.frames.filter((f) => f.id).at(-1)!.id!;
    expect(partial.events.at(-1)!.type).toBe('token');
    const resumed = await ask(alice, request, '/v0/agents', { 'Last-Event-ID': lastId });
    expect(resumed.status).toBe(200);
    assertStreamInvariants(resumed.events);
    const [run, seen] = lastId.split(':');
    for (const f of resumed.frames) {
      expect(f.id!.split(':')[0]).toBe(run);
      expect(Number(f.id!.split(':')[1])).toBeGreaterThan(Number(seen));
    }
    expect(tokensOf(partial.events) + tokensOf(resumed.events)).toBe(full);
    expect(resumed.events.at(-1)!.type).toBe('completed');
  });

  it("answers 404 for another owner's run and 422 for an id it never sent", async () => {
    const r = await ask(alice, { messages: [{ role: 'user', content: 'Hi' }] });
    const id = r.frames[0].id!;
    const other = await ask(bob, { messages: [{ role: 'user', content: 'Hi' }] }, '/v0/coda/agents', { 'Last-Event-ID': id });
    expect(other.status).toBe(404);
    const unknown = await ask(alice, { messages: [{ role: 'user', content: 'Hi' }] }, '/v0/coda/agents', {
      'Last-Event-ID': '6c0e3a52-52a4-4a43-9d0b-3f4d2a5e8d11:3',
    });
    expect(unknown.status).toBe(404);
    const bad = await ask(alice, { messages: [{ role: 'user', content: 'Hi' }] }, '/v0/coda/agents', { 'Last-Event-ID': 'nonsense' });
    expect(bad.status).toBe(422);
  });
});
