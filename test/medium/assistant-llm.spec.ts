/**
 * The assistant with an LLM provider: a local scripted OpenAI-compatible streaming server (test
 * double of the external service) behind the real gateway, assistant, NATS and Postgres. Token
 * streams, tool calls, a broken circuit repaired in the second round, 429 then success, provider
 * down → error event, keepalive comments while the model is silent, cancel on disconnect.
 */
import { parseCircuit } from '#qdc/circuits';
import { codeBlocks, hellingerFidelity, measuredDistribution } from '#qdc/assistant';
import { startSystem, type TestSystem } from './system.harness.js';
import { isCheckFailure, roundsScript, startScriptedLlm, type ScriptedServer } from './scripted-llm.server.js';
import { assertStreamInvariants, postSse, tokensOf } from './sse-client.js';

const BELL = 'from qiskit import QuantumCircuit\n\nqc = QuantumCircuit(2, 2)\nqc.h(0)\nqc.cx(0, 1)\nqc.measure([0, 1], [0, 1])\n';
// Parses, but prepares (|00⟩ + |01⟩)/√2: no entangling gate.
const NOT_BELL = 'from qiskit import QuantumCircuit\n\nqc = QuantumCircuit(2, 2)\nqc.h(0)\nqc.measure([0, 1], [0, 1])\n';
const UNPARSEABLE = 'from qiskit import QuantumCircuit\n\nqc = QuantumCircuit(2, 2)\nqc.hadamard_please(0)\n';

let llm: ScriptedServer;
let system: TestSystem;
let key: string;

const ask = (body: unknown, options: Parameters<typeof postSse>[3] = {}) => postSse(`${system.baseUrl}/v0/coda/agents`, key, body, options);
const user = (content: string) => ({ messages: [{ role: 'user', content }] });

beforeAll(async () => {
  llm = await startScriptedLlm();
  system = await startSystem({
    env: {
      QDC_LLM_BASE_URL: llm.url,
      QDC_LLM_MODEL: 'scripted-model',
      QDC_LLM_MODEL_LOW: 'scripted-small',
      QDC_LLM_MAX_TOKENS_LOW: '111',
      QDC_LLM_API_KEY: 'sk-test-123',
      QDC_LLM_MAX_RETRIES: '2',
      QDC_LLM_RETRY_BASE_MS: '20',
      QDC_LLM_TIMEOUT_MS: '20000',
      QDC_SSE_KEEPALIVE_MS: '200',
      QDC_ASSISTANT_DETACH_GRACE_MS: '300',
    },
  });
  key = await system.createKey('lab', 'coda');
  for (const deadline = Date.now() + 60_000; ; ) {
    const r = await fetch(`${system.baseUrl}/v0/coda/agents`, { headers: { authorization: `Bearer ${key}` } });
    if (r.status === 200) break;
    if (Date.now() > deadline) throw new Error(`assistant not answering; logs in ${system.logDir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

afterAll(async () => {
  await system?.stop();
  await llm?.close();
});

describe('assistant with an OpenAI-compatible provider', () => {
  it('relays the token stream and reports the provider usage', async () => {
    llm.script(() => [
      { kind: 'content', text: 'Hello' },
      { kind: 'content', text: ', lab' },
      { kind: 'content', text: '!' },
      { kind: 'end', finish: 'stop', promptTokens: 42, completionTokens: 3 },
    ]);
    const r = await ask({ ...user('say hello'), mode: 'build', fast: true });
    assertStreamInvariants(r.events);
    expect(tokensOf(r.events)).toBe('Hello, lab!');
    expect(r.events.at(-1)).toMatchObject({
      type: 'completed',
      usage: { prompt_tokens: 42, completion_tokens: 3, total_tokens: 45, engine: 'llm', model: 'scripted-model' },
      verification: null,
    });
    const [request] = llm.requests;
    expect(request.headers.authorization).toBe('Bearer sk-test-123');
    expect(request.body).toMatchObject({ model: 'scripted-model', stream: true, max_tokens: 4096 });
    expect(request.body.messages[0].role).toBe('system');
    expect(request.body.tools!.map((t) => t.function.name).sort()).toEqual([
      'estimate_resources',
      'list_characterization_models',
      'list_qpus',
      'search_docs',
      'simulate',
      'to_openqasm3',
      'transpile',
    ]);
  });

  it('uses the per-budget model and token limit', async () => {
    llm.script(() => [
      { kind: 'content', text: 'ok' },
      { kind: 'end', finish: 'stop' },
    ]);
    await ask({ ...user('hi'), budget: 'low' });
    expect(llm.requests[0].body).toMatchObject({ model: 'scripted-small', max_tokens: 111 });
  });

  it("runs tool calls (simulate) with QDC's simulator and feeds the result back to the model", async () => {
    llm.script((body) => {
      const tool = body.messages.find((m) => m.role === 'tool');
      if (!tool)
        return [
          { kind: 'tool-call', id: 'call_1', name: 'simulate', arguments: JSON.stringify({ code: BELL, shots: 1000, seed: 7 }) },
          { kind: 'end', finish: 'tool_calls' },
        ];
      const counts = (JSON.parse(tool.content as string) as { counts: Record<string, number> }).counts;
      return [
        { kind: 'content', text: `Counts: 00=${counts['00']}, 11=${counts['11']}, total=${Object.values(counts).reduce((a, b) => a + b, 0)}` },
        { kind: 'end', finish: 'stop' },
      ];
    });
    const r = await ask(user('simulate a bell pair for me'));
    assertStreamInvariants(r.events);
    const text = tokensOf(r.events);
    expect(text).toMatch(/^Counts: 00=\d+, 11=\d+, total=1000$/);
    const [, a, b] = /00=(\d+), 11=(\d+)/.exec(text)!.map(Number);
    expect(a + b).toBe(1000);
    expect(Math.abs(a - 500)).toBeLessThan(80);
    expect(r.events.at(-1)).toMatchObject({ type: 'completed', usage: { tool_calls: 1 } });
    const second = llm.requests[1].body.messages;
    expect(second.find((m) => m.role === 'assistant')?.tool_calls).toHaveLength(1);
    expect(second.find((m) => m.role === 'tool')?.tool_call_id).toBe('call_1');
  });

  it("lists the QPU broker's devices as a tool", async () => {
    llm.script((body) => {
      const tool = body.messages.find((m) => m.role === 'tool');
      if (!tool)
        return [
          { kind: 'tool-call', id: 'call_q', name: 'list_qpus', arguments: '{}' },
          { kind: 'end', finish: 'tool_calls' },
        ];
      const { devices } = JSON.parse(tool.content as string) as { devices: { id: string; num_qubits: number }[] };
      return [
        {
          kind: 'content',
          text: devices
            .map((d) => `${d.id}:${d.num_qubits}`)
            .sort()
            .join(' '),
        },
        { kind: 'end', finish: 'stop' },
      ];
    });
    const r = await ask(user('which QPUs can I use?'));
    assertStreamInvariants(r.events);
    expect(tokensOf(r.events)).toBe('qdc-sim-heavyhex-16:16 qdc-sim-ion-11:11 qdc-sim-line-5:5');
  });

  it('repairs a circuit whose distribution contradicts the request in the second round (budget high)', async () => {
    llm.script((body) => {
      const feedback = body.messages.some((m) => m.role === 'user' && /failed/.test(m.content ?? ''));
      return feedback
        ? [
            { kind: 'content', text: 'Fixed:\n```python\n' },
            { kind: 'content', text: `${BELL}\`\`\`\nThe CNOT entangles the pair.` },
            { kind: 'end', finish: 'stop' },
          ]
        : [
            { kind: 'content', text: `Here is the circuit:\n\`\`\`python\n${NOT_BELL}\`\`\`\n` },
            { kind: 'end', finish: 'stop' },
          ];
    });
    const r = await ask(user('Build a Bell state circuit'));
    assertStreamInvariants(r.events);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1].body.messages.at(-1)!.content).toMatch(/Hellinger fidelity 0\.2500/); // (Σ√(p·q))² = (√(0.5·0.5))²
    const text = tokensOf(r.events);
    const circuits = codeBlocks(text);
    expect(circuits).toHaveLength(1); // the broken one was never sent
    expect(hellingerFidelity(measuredDistribution(parseCircuit(circuits[0].code).circuit), { '00': 0.5, '11': 0.5 })).toBeGreaterThanOrEqual(0.99);
    expect(r.events.at(-1)).toMatchObject({ type: 'completed', verification: { parsed: true, simulated: true, repairs: 1 } });
  });

  it('tests a scaffold answer against the request, repairs a wrong first answer with the failure stated, and says what was checked', async () => {
    const scaffold =
      'from qiskit import QuantumCircuit\n\ndef grover_search_oracle_00():\n    """\n    Build a 2-qubit Grover search circuit whose oracle marks |00⟩; one iteration; measure both qubits.\n    """\n';
    // First answer: the function, but its oracle marks |11⟩ (no X gates around the CZ).
    const wrong = (xs: string) =>
      `Here it is:\n\`\`\`python\nfrom qiskit import QuantumCircuit\n\ndef grover_search_oracle_00():\n    qc = QuantumCircuit(2, 2)\n    qc.h([0, 1])\n${xs}    qc.cz(0, 1)\n${xs}    qc.h([0, 1])\n    qc.x([0, 1])\n    qc.cz(0, 1)\n    qc.x([0, 1])\n    qc.h([0, 1])\n    qc.measure([0, 1], [0, 1])\n    return qc\n\`\`\`\n`;
    llm.script(roundsScript([wrong(''), wrong('    qc.x([0, 1])\n')]));
    const r = await ask(user(scaffold));
    assertStreamInvariants(r.events);
    expect(llm.requests).toHaveLength(2);
    const feedback = llm.requests[1].body.messages.filter(isCheckFailure);
    expect(feedback).toHaveLength(1);
    expect(feedback[0].content).toMatch(/Hellinger fidelity 0\.0000 < 0\.99\); expected \{00: 1\.000\}, simulated \{11: 1\.000\}/);
    expect(feedback[0].content).toMatch(/same name and parameters/);
    const text = tokensOf(r.events);
    expect(text).toMatch(/QDC tested that circuit against the request and it failed/);
    const circuits = codeBlocks(text);
    expect(circuits).toHaveLength(1); // the wrong one was never sent
    expect(measuredDistribution(parseCircuit(circuits[0].code, { entryPoint: 'grover_search_oracle_00' }).circuit)).toEqual({ '00': expect.closeTo(1, 9) });
    expect(text.split('\n\n').at(-1)).toMatch(
      /^Checked against the request with QDC's simulator: written in Qiskit, as asked; `grover_search_oracle_00\(\)` is defined and returns a 2-qubit circuit; 2 qubits, as the request states; all 2 qubits measured, as asked; its exact output distribution matches the one the request implies \(Hellinger fidelity 1\.0000, threshold 0\.99\)\. Read as: Grover search over 2 qubits for 00\.$/,
    );
    expect(r.events.at(-1)).toMatchObject({ type: 'completed', verification: { parsed: true, simulated: true, repairs: 1, fidelity: 1 } });
  });

  it('a wrong framework is a failed check; a final failure is said plainly', async () => {
    llm.script(roundsScript([`Sure:\n\`\`\`python\n${BELL}\`\`\`\n`]));
    const r = await ask({ ...user('Build a Bell state circuit in Cirq and measure both qubits'), budget: 'medium' });
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1].body.messages.at(-1)!.content).toMatch(/it failed: written in qiskit, but the request asks for Cirq/);
    expect(tokensOf(r.events)).toMatch(
      /This circuit FAILED QDC's check against the request after 1 repair round: written in qiskit, but the request asks for Cirq/,
    );
  });

  it('sends no unverified circuit when the budget allows no repair (low)', async () => {
    llm.script(() => [
      { kind: 'content', text: `Try this:\n\`\`\`python\n${UNPARSEABLE}\`\`\`\n` },
      { kind: 'end', finish: 'stop' },
    ]);
    const r = await ask({ ...user('write a qiskit circuit'), budget: 'low' });
    assertStreamInvariants(r.events);
    expect(llm.requests).toHaveLength(1);
    const text = tokensOf(r.events);
    expect(codeBlocks(text)).toHaveLength(0);
    expect(text).not.toContain('qc = QuantumCircuit(2, 2)');
    expect(text).toMatch(/not included: it failed QDC's check/);
    expect(r.events.at(-1)).toMatchObject({ type: 'completed', verification: { parsed: false, simulated: false, repairs: 0 } });
  });

  it('after the last round, sends a circuit that runs but differs from the standard target, saying so', async () => {
    llm.script(() => [
      { kind: 'content', text: `Here:\n\`\`\`python\n${NOT_BELL}\`\`\`\n` },
      { kind: 'end', finish: 'stop' },
    ]);
    const r = await ask({ ...user('Build a Bell state circuit'), budget: 'low' });
    const text = tokensOf(r.events);
    expect(codeBlocks(text)).toHaveLength(1);
    expect(text).toMatch(
      /This circuit FAILED QDC's check against the request after 0 repair rounds: its measured distribution does not match the request \(Hellinger fidelity 0\.2500/,
    );
    expect(r.events.at(-1)).toMatchObject({ type: 'completed', verification: { parsed: true, simulated: true, repairs: 0, fidelity: 0.25 } });
  });

  it('code_mode=file moves verified code into files; converts to the framework asked for (PennyLane)', async () => {
    llm.script(() => [
      { kind: 'content', text: `Bell pair:\n\`\`\`python\n${BELL}\`\`\`\nDone.` },
      { kind: 'end', finish: 'stop' },
    ]);
    const r = await ask({ ...user('Build a Bell state circuit in PennyLane'), code_mode: 'file' });
    assertStreamInvariants(r.events);
    const files = r.events.filter((e) => e.type === 'files');
    expect(files).toHaveLength(1);
    expect(r.events.indexOf(files[0])).toBe(r.events.length - 2);
    const [file] = files[0].files as { path: string; content: string }[];
    expect(file.content).toMatch(/import pennylane as qml/);
    expect(tokensOf(r.events)).not.toMatch(/```|QuantumCircuit|qml\./);
    expect(r.events.at(-1)).toMatchObject({ verification: { parsed: true, simulated: true, repairs: 0 } });
  });

  it('retries after 429 (Retry-After) and then succeeds', async () => {
    llm.script((_, attempt) =>
      attempt === 1
        ? [{ kind: 'status', status: 429, headers: { 'retry-after': '0' } }]
        : [
            { kind: 'content', text: 'Recovered.' },
            { kind: 'end', finish: 'stop' },
          ],
    );
    const r = await ask(user('hello after a rate limit'));
    assertStreamInvariants(r.events);
    expect(llm.requests).toHaveLength(2);
    expect(tokensOf(r.events)).toBe('Recovered.');
    expect(r.events.at(-1)!.type).toBe('completed');
  });

  it('ends with one clear error event when the provider stays down (5xx after retries)', async () => {
    llm.script(() => [{ kind: 'status', status: 503, body: '{"error":{"message":"overloaded"}}' }]);
    const r = await ask(user('anyone there?'));
    assertStreamInvariants(r.events);
    expect(llm.requests).toHaveLength(3); // first try + QDC_LLM_MAX_RETRIES
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({
      type: 'error',
      error: expect.stringMatching(/language model provider at http:\/\/127\.0\.0\.1:\d+\/v1 is not available \(HTTP 503/),
    });
  });

  it('does not retry a request the provider refuses (401) and says so', async () => {
    llm.script(() => [{ kind: 'status', status: 401, body: '{"error":{"message":"bad key"}}' }]);
    const r = await ask(user('hello'));
    expect(llm.requests).toHaveLength(1);
    expect(r.events.at(-1)).toMatchObject({ type: 'error', error: expect.stringMatching(/refused the request \(HTTP 401/) });
  });

  it('sends `: keepalive` comments while the model is silent, and cancels the run when the client goes away', async () => {
    llm.script(() => [{ kind: 'content', text: 'Thinking' }, { kind: 'hang' }]);
    const partial = await ask(user('think slowly'), { stopAfter: (frames) => frames.filter((f) => f.comment === 'keepalive').length >= 2 });
    expect(partial.raw).toMatch(/: keepalive\n\n/);
    expect(partial.events).toEqual([{ type: 'token', content: 'Thinking' }]);
    // After the detach grace period (300 ms here) the assistant aborts the provider request and records `cancelled`.
    for (const deadline = Date.now() + 10_000; !llm.requests[0].closedEarly; ) {
      if (Date.now() > deadline) throw new Error('the provider request was not aborted');
      await new Promise((r) => setTimeout(r, 50));
    }
    const lastId = partial.frames.filter((f) => f.id).at(-1)!.id!;
    const resumed = await ask(user('think slowly'), { headers: { 'Last-Event-ID': lastId } });
    assertStreamInvariants(resumed.events);
    expect(resumed.events.at(-1)!.type).toBe('cancelled');
    let usage: { status: string }[] = [];
    for (const deadline = Date.now() + 5_000; Date.now() < deadline && usage[0]?.status !== 'cancelled'; await new Promise((r) => setTimeout(r, 50))) {
      usage = await system.query(`SELECT status FROM assistant_usage ORDER BY created_at DESC LIMIT 1`);
    }
    expect(usage[0].status).toBe('cancelled');
  });

  it('a client that reconnects within the grace period keeps its run alive and gets every event', async () => {
    llm.script(() => [
      { kind: 'content', text: 'Part one. ' },
      { kind: 'wait', ms: 600 },
      { kind: 'content', text: 'Part two.' },
      { kind: 'end', finish: 'stop' },
    ]);
    const partial = await ask(user('two parts please'), { stopAfter: (frames) => frames.some((f) => f.event?.type === 'token') });
    const lastId = partial.frames.filter((f) => f.id).at(-1)!.id!;
    const resumed = await ask(user('two parts please'), { headers: { 'Last-Event-ID': lastId } });
    assertStreamInvariants(resumed.events);
    expect(tokensOf(partial.events) + tokensOf(resumed.events)).toBe('Part one. Part two.');
    expect(resumed.events.at(-1)!.type).toBe('completed');
    expect(llm.requests[0].closedEarly).toBe(false);
  });

  // Last: it stops the assistant process.
  it('ends the stream with an error event when the assistant process running it dies', async () => {
    llm.script(() => [{ kind: 'content', text: 'Working on it' }, { kind: 'hang' }]);
    const assistant = system.processes.get('assistant')!;
    const streamed = ask(user('a long answer please'));
    for (const deadline = Date.now() + 10_000; !llm.requests.length; await new Promise((r) => setTimeout(r, 20))) {
      if (Date.now() > deadline) throw new Error('the run never reached the provider');
    }
    await new Promise((r) => setTimeout(r, 300)); // the first token is relayed
    assistant.kill('SIGKILL');
    const r = await streamed;
    assertStreamInvariants(r.events);
    expect(r.events[0]).toEqual({ type: 'token', content: 'Working on it' });
    expect(r.events.at(-1)).toMatchObject({ type: 'error', error: expect.stringMatching(/the assistant stopped answering/) });
  });
});
