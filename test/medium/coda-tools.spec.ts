import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { startSystem, type TestSystem } from './system.harness.js';

/**
 * The coda circuit tools end to end: gateway → NATS → qpu-broker (inline) or → BullMQ →
 * simulation worker. The harness does not start the broker yet, so this suite starts the broker
 * and one simulation worker itself, with a small inline limit so large circuits take the queue.
 */
describe('coda circuit tools (real gateway, qpu-broker, simulation worker, NATS, Redis)', () => {
  let sut: TestSystem;
  let coda: string;
  let controlOnly: string;
  let queue: Queue;
  const children: ChildProcess[] = [];

  const launch = (name: string, entry: string, env: Record<string, string>) => {
    const child = spawn(process.execPath, [resolve(entry)], { env: { ...sut.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(join(sut.logDir, `${name}.log`));
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    children.push(child);
  };

  const post = (path: string, body: unknown, token: string | null = coda) =>
    fetch(`${sut.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });

  const BELL_QISKIT = 'from qiskit import QuantumCircuit\nqc = QuantumCircuit(2, 2)\nqc.h(0)\nqc.cx(0, 1)\nqc.measure([0, 1], [0, 1])\n';
  const X0 = 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[3];\ncreg c[3];\nx q[0];\nmeasure q -> c;\n';

  beforeAll(async () => {
    const sim = { QDC_SIM_INLINE_MAX_QUBITS: '4', QDC_SIM_MEMORY_LIMIT_BYTES: String(64 * 1024 * 1024) };
    sut = await startSystem({ env: sim });
    // Once the harness starts these itself (with the same env), this suite uses those.
    if (!sut.processes.has('qpu-broker')) launch('qpu-broker', 'dist/apps/qpu-broker/src/main.js', sim);
    if (![...sut.processes.keys()].some((name) => name.startsWith('simulation-worker')))
      launch('simulation-worker', 'dist/apps/qpu-broker/src/simulation-worker.js', sim);
    [coda, controlOnly] = await Promise.all([sut.createKey('coda-lab', 'coda'), sut.createKey('control-lab', 'control')]);
    queue = new Queue('simulation', { connection: { url: sut.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }, prefix: `${sut.namespace}:bull` });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const res = await post('/v0/coda/tools/estimate-resources', { code: X0 });
      // The broker simulates inline when no worker is connected: wait for the worker too.
      if (res.status === 200 && (await queue.getWorkersCount()) > 0) break;
      if (Date.now() > deadline) throw new Error(`qpu-broker did not answer; logs in ${sut.logDir}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  afterAll(async () => {
    await queue?.close();
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 8000).unref();
          }),
      ),
    );
    await sut?.stop();
  });

  it('converts Qiskit to every target on the canonical and legacy paths', async () => {
    for (const path of ['/v0/coda/tools/transpile', '/v0/coda/transpile', '/v0/transpile']) {
      const res = await post(path, { source_code: BELL_QISKIT, target: 'openqasm3' });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ success: true, source_framework: 'qiskit', target_framework: 'openqasm3' });
      expect(body.converted_code).toContain('OPENQASM 3.0;');
      expect(body.converted_code).toContain('cx q[0], q[1];');
    }
    for (const target of ['qiskit', 'cirq', 'openqasm2', 'pennylane', 'braket']) {
      const body = await (await post('/v0/coda/tools/transpile', { source_code: BELL_QISKIT, target })).json();
      expect([target, body.success, typeof body.converted_code]).toEqual([target, true, 'string']);
    }
  });

  it('simulates with seeded counts that sum to shots, bit 0 rightmost', async () => {
    const res = await post('/v0/coda/tools/simulate', { code: BELL_QISKIT, shots: 2000, seed_simulator: 42 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.method).toBe('qasm');
    expect(Object.keys(body.counts).sort()).toEqual(['00', '11']);
    expect(Object.values(body.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(2000);
    const again = await (await post('/v0/coda/simulate', { code: BELL_QISKIT, shots: 2000, seed_simulator: 42 })).json();
    expect(again.counts).toEqual(body.counts);
    const x0 = await (await post('/v0/simulate', { code: X0 })).json();
    expect(x0.counts).toEqual({ '001': 1024 });
  });

  it('returns the statevector for the statevector method', async () => {
    const body = await (
      await post('/v0/coda/tools/simulate', {
        code: 'OPENQASM 3;\ninclude "stdgates.inc";\nqubit[2] q;\nh q[0];\ncx q[0], q[1];',
        method: 'statevector',
        shots: 10,
        seed_simulator: 1,
      })
    ).json();
    expect(body.success).toBe(true);
    expect(body.statevector).toHaveLength(4);
    expect(body.statevector[0][0]).toBeCloseTo(Math.SQRT1_2);
    expect(body.statevector[3][0]).toBeCloseTo(Math.SQRT1_2);
    expect(Object.values(body.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(10);
  });

  it('sends large simulations through the simulation queue to a worker', async () => {
    const ghz = `OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[8];\ncreg c[8];\nh q[0];\n${Array.from({ length: 7 }, (_, i) => `cx q[${i}],q[${i + 1}];`).join('\n')}\nmeasure q -> c;`;
    const res = await post('/v0/coda/tools/simulate', { code: ghz, shots: 500, seed_simulator: 5 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body.counts).sort()).toEqual(['00000000', '11111111']);
    // The worker publishes the outcome before BullMQ marks the job completed: wait for the mark.
    for (const deadline = Date.now() + 10_000; (await queue.getCompletedCount()) === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
    expect(await queue.getCompletedCount()).toBeGreaterThanOrEqual(1);
  });

  it('answers 422 with {success: false, error} for circuits over the memory limit', async () => {
    const res = await post('/v0/coda/tools/simulate', { code: 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[24];\nh q[0];' });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/24 qubits needs 256 MiB.*limit is 64 MiB/);
  });

  it('converts to OpenQASM 3, estimates resources and splits circuits', async () => {
    const cirq =
      'import cirq\nq = cirq.LineQubit.range(3)\ncircuit = cirq.Circuit(cirq.H(q[0]), cirq.CNOT(q[0], q[1]), cirq.T(q[2]), cirq.measure(*q, key="m"))';
    const qasm3 = await (await post('/v0/coda/to-openqasm3', { code: cirq })).json();
    expect(qasm3).toMatchObject({ success: true, source_framework: 'cirq' });
    expect(qasm3.openqasm3).toContain('m[0] = measure q[0];');
    const res = await (await post('/v0/coda/tools/estimate-resources', { code: cirq })).json();
    expect(res).toMatchObject({
      success: true,
      qubit_count: 3,
      clbit_count: 3,
      depth: 3,
      two_qubit_gate_count: 1,
      t_count: 1,
      measurement_count: 3,
      gate_counts: { h: 1, cx: 1, t: 1, measure: 3 },
    });
    const ghz = `OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[6];\nh q[0];\n${Array.from({ length: 5 }, (_, i) => `cx q[${i}],q[${i + 1}];`).join('\n')}`;
    const split = await (await post('/v0/coda/tools/split-circuit', { code: ghz, max_subcircuit_qubits: 4 })).json();
    expect(split).toMatchObject({ success: true, original_qubit_count: 6, max_subcircuit_qubits: 4 });
    expect(split.subcircuits).toHaveLength(2);
    expect(split.subcircuits.every((s: { qubit_count: number; openqasm3: string }) => s.qubit_count <= 4 && s.openqasm3.startsWith('OPENQASM 3.0;'))).toBe(
      true,
    );
    expect(split.recombination.num_cuts).toBe(1);
    const tooSmall = await post('/v0/split-circuit', {
      code: 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[3];\nccx q[0],q[1],q[2];',
      max_subcircuit_qubits: 2,
    });
    // SPEC §6: a well-formed circuit that cannot be split under the limit is 200 {success: false, error}.
    expect(tooSmall.status).toBe(200);
    expect(await tooSmall.json()).toMatchObject({ success: false, error: expect.stringMatching(/acts on 3 qubits/) });
    // The official client's 2-qubit Bell circuit with default arguments (max = half the qubits) on every path.
    for (const path of ['/v0/coda/tools/split-circuit', '/v0/coda/split-circuit', '/v0/split-circuit']) {
      const bell = await post(path, { code: BELL_QISKIT });
      expect([path, bell.status]).toEqual([path, 200]);
      const body = await bell.json();
      expect(body).toMatchObject({ success: false, original_qubit_count: 2, max_subcircuit_qubits: 1 });
      expect(typeof body.error).toBe('string');
    }
    const unparsable = await post('/v0/coda/tools/split-circuit', { code: 'OPENQASM 2.0;\nqreg q[2];\nfoo q[0];' });
    expect(unparsable.status).toBe(422);
  });

  it('answers caller faults with 4xx {success: false, error}, naming the line', async () => {
    const syntax = await post('/v0/coda/tools/simulate', { code: 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[1];\nfoo q[0];' });
    expect(syntax.status).toBe(422);
    expect(await syntax.json()).toMatchObject({ success: false, error: expect.stringMatching(/^line 4: unknown gate/), line: 4 });
    const python = await post('/v0/coda/tools/transpile', {
      source_code: 'from qiskit import QuantumCircuit\nimport os\nos.system("echo hi")',
      target: 'cirq',
    });
    expect(python.status).toBe(422);
    expect((await python.json()).error).toMatch(/line 2: unsupported construct `import os`/);
    const missing = await post('/v0/coda/tools/simulate', {});
    expect(missing.status).toBe(422);
    expect(await missing.json()).toMatchObject({ success: false, error: expect.stringMatching(/code/) });
    const target = await post('/v0/coda/tools/transpile', { source_code: BELL_QISKIT, target: 'quil' });
    expect(target.status).toBe(422);
    expect((await target.json()).error).toMatch(/unknown target 'quil'/);
    const badShots = await post('/v0/coda/tools/simulate', { code: X0, shots: 0 });
    expect(badShots.status).toBe(422);
  });

  it('entry_point names the function whose circuit every tool uses; unknown or ambiguous entry points are 422', async () => {
    const functions = [
      'from qiskit import QuantumCircuit',
      'def flip(n: int = 3) -> QuantumCircuit:',
      '    qc = QuantumCircuit(n, n)',
      '    qc.x(0)',
      '    qc.measure(range(n), range(n))',
      '    return qc',
      'def bell():',
      '    qc = QuantumCircuit(2, 2)',
      '    qc.h(0)',
      '    qc.cx(0, 1)',
      '    qc.measure([0, 1], [0, 1])',
      '    return qc',
      '',
    ].join('\n');
    const flip = await (await post('/v0/coda/tools/simulate', { code: functions, entry_point: 'flip', shots: 50 })).json();
    expect(flip).toMatchObject({ success: true, counts: { '001': 50 } });
    const bell = await (await post('/v0/simulate', { code: functions, entry_point: 'bell', shots: 400, seed_simulator: 3 })).json();
    expect(Object.keys(bell.counts).sort()).toEqual(['00', '11']);
    const transpiled = await (await post('/v0/coda/tools/transpile', { source_code: functions, target: 'openqasm2', entry_point: 'flip' })).json();
    expect(transpiled.converted_code).toContain('qreg q[3];');
    const qasm3 = await (await post('/v0/coda/tools/to-openqasm3', { code: functions, entry_point: 'bell' })).json();
    expect(qasm3.openqasm3).toContain('cx q[0], q[1];');
    const resources = await (await post('/v0/coda/tools/estimate-resources', { code: functions, entry_point: 'flip' })).json();
    expect(resources).toMatchObject({ success: true, qubit_count: 3, gate_counts: { x: 1, measure: 3 } });
    const split = await (await post('/v0/coda/tools/split-circuit', { code: functions, entry_point: 'bell' })).json();
    expect(split).toMatchObject({ success: false, original_qubit_count: 2 });
    const ambiguous = await post('/v0/coda/tools/simulate', { code: functions });
    expect(ambiguous.status).toBe(422);
    expect((await ambiguous.json()).error).toBe(
      'the source builds no QuantumCircuit at top level and several functions return one: flip(), bell(); name the one to use with entry_point',
    );
    const unknown = await post('/v0/coda/tools/estimate-resources', { code: functions, entry_point: 'grover' });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).error).toBe("entry_point 'grover' is not a function defined at module level; functions found: flip(), bell()");
    const notAName = await post('/v0/coda/tools/transpile', { source_code: functions, target: 'cirq', entry_point: 'flip()' });
    expect(notAName.status).toBe(422);
    expect((await notAName.json()).error).toMatch(/entry_point must be the name of a Python function/);
  });

  it('entry_point_args calls the entry point with arguments (a list by position, an object by name) on every tool', async () => {
    const ghz = [
      'from qiskit import QuantumCircuit',
      '',
      'def ghz(n, measured=True):',
      '    qc = QuantumCircuit(n, n)',
      '    qc.h(0)',
      '    for i in range(n - 1):',
      '        qc.cx(i, i + 1)',
      '    if measured:',
      '        qc.measure(range(n), range(n))',
      '    return qc',
      '',
    ].join('\n');
    // Large enough (5 qubits > the inline limit of 4 here) to go through the simulation queue with its arguments.
    const five = await (await post('/v0/coda/tools/simulate', { code: ghz, entry_point: 'ghz', entry_point_args: [5], shots: 300, seed_simulator: 1 })).json();
    expect(Object.keys(five.counts).sort()).toEqual(['00000', '11111']);
    const three = await (await post('/v0/simulate', { code: ghz, entry_point: 'ghz', entry_point_args: { n: 3 }, shots: 300, seed_simulator: 1 })).json();
    expect(Object.keys(three.counts).sort()).toEqual(['000', '111']);
    const resources = await (await post('/v0/coda/tools/estimate-resources', { code: ghz, entry_point: 'ghz', entry_point_args: [4, false] })).json();
    expect([resources.qubit_count, resources.measurement_count]).toEqual([4, 0]);
    const qasm = await (await post('/v0/coda/tools/transpile', { source_code: ghz, target: 'openqasm2', entry_point: 'ghz', entry_point_args: [2] })).json();
    expect(qasm.converted_code).toContain('qreg q[2];');
    const missing = await post('/v0/coda/tools/estimate-resources', { code: ghz, entry_point: 'ghz' });
    expect([missing.status, (await missing.json()).error]).toEqual([422, expect.stringMatching(/ghz\(\) needs arguments \(n\).*entry_point_args/)]);
    const bad = await post('/v0/coda/tools/simulate', { code: ghz, entry_point: 'ghz', entry_point_args: 'n=3' });
    const badBody = await bad.json();
    expect([bad.status, badBody.detail[0].loc]).toEqual([422, ['body', 'entry_point_args']]);
    expect(badBody.error).toMatch(/entry_point_args must be a JSON list/);
  });

  it('without entry_point_args, an angle argument stays a free parameter for conversion (OpenQASM 3 input) and simulation refuses it by name', async () => {
    const ansatz = [
      'from qiskit import QuantumCircuit',
      'def ansatz(theta):',
      '    qc = QuantumCircuit(2)',
      '    qc.ry(theta, 0)',
      '    qc.cx(0, 1)',
      '    return qc',
      '',
    ].join('\n');
    const qasm3 = await post('/v0/coda/tools/to-openqasm3', { code: ansatz, entry_point: 'ansatz' });
    expect(qasm3.status).toBe(200);
    expect((await qasm3.json()).openqasm3).toContain('input float[64] theta;\nqubit[2] q;\nry(theta) q[0];');
    const cirq = await (await post('/v0/coda/tools/transpile', { source_code: ansatz, target: 'cirq', entry_point: 'ansatz' })).json();
    expect(cirq.converted_code).toContain("theta = sympy.Symbol('theta')");
    const simulated = await post('/v0/coda/tools/simulate', { code: ansatz, entry_point: 'ansatz', shots: 10 });
    expect([simulated.status, (await simulated.json()).error]).toEqual([
      422,
      'line 2: entry_point ansatz() needs arguments (theta); give them with entry_point_args (a JSON list, or an object by name) or give them defaults',
    ]);
  });

  it('answers malformed JSON with a 4xx', async () => {
    const res = await fetch(`${sut.baseUrl}/v0/coda/tools/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${coda}` },
      body: '{"code": ',
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ success: false, error: expect.stringMatching(/malformed request body/) });
    const big = await post('/v0/coda/tools/simulate', { code: 'x'.repeat(1_100_000) });
    expect(big.status).toBe(413);
    expect((await big.json()).success).toBe(false);
  });

  it('needs a key with the coda scope', async () => {
    const none = await post('/v0/coda/tools/transpile', { source_code: BELL_QISKIT, target: 'cirq' }, null);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.json()).toMatchObject({ success: false, error: 'Not authenticated' });
    const forbidden = await post('/v0/coda/tools/transpile', { source_code: BELL_QISKIT, target: 'cirq' }, controlOnly);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).success).toBe(false);
  });

  it('keeps the health routes', async () => {
    for (const path of ['/v0/coda/health', '/v0/health']) expect(await (await fetch(`${sut.baseUrl}${path}`)).json()).toEqual({ status: 'ok' });
  });
});
