import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { TestSystem } from './system.harness.js';

/** Noiseless simulated devices for service tests; `shot_time_us` sets how long a job holds its device. */
export function writeTestDevices(
  devices: { id: string; shotTimeUs: number; qubits?: number; perTaskCents?: number; perShotCents?: number; maxShots?: number }[],
): string {
  const dir = mkdtempSync(join(tmpdir(), 'qdc-devices-'));
  for (const d of devices) {
    const n = d.qubits ?? 3;
    writeFileSync(
      join(dir, `${d.id}.json`),
      JSON.stringify({
        id: d.id,
        name: `Test device ${d.id}`,
        provider: 'qdc-sim',
        num_qubits: n,
        native_gates: ['rz', 'sx', 'x', 'cz'],
        coupling_map: Array.from({ length: n - 1 }, (_, i) => [i, i + 1]),
        pricing: { per_task_cents: d.perTaskCents ?? 30, per_shot_cents: d.perShotCents ?? 0.1 },
        max_shots: d.maxShots ?? 100_000,
        shot_time_us: d.shotTimeUs,
        // Noiseless, so counts are exact (the physics of noise is tested in libs/circuits).
        noise: {
          qubits: Array.from({ length: n }, () => ({ t1_us: null, t2_us: null, single_qubit_error: 0, readout_error: 0 })),
          edges: Array.from({ length: n - 1 }, (_, i) => ({ qubits: [i, i + 1], two_qubit_error: 0 })),
          gate_times_us: { single: 0.035, two: 0.3, measure: 1 },
        },
      }),
    );
  }
  return dir;
}

export const BELL_QISKIT = 'from qiskit import QuantumCircuit\n\nqc = QuantumCircuit(2, 2)\nqc.h(0)\nqc.cx(0, 1)\nqc.measure([0, 1], [0, 1])\n';

export function qpuClient(sut: TestSystem) {
  const call = (method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${sut.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const json = async (res: Response) => ({ status: res.status, body: await res.json() });
  return {
    get: (path: string, token: string | null) => call('GET', path, token).then(json),
    post: (path: string, token: string | null, body?: unknown, headers?: Record<string, string>) => call('POST', path, token, body, headers).then(json),
    put: (path: string, token: string | null, body?: unknown) => call('PUT', path, token, body).then(json),
    /** Polls POST /qpus/status until `done(status)` or the deadline. */
    async waitFor(token: string, jobId: string, done: (status: string) => boolean, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        // biome-ignore lint/suspicious/noExplicitAny: a JSON response body that the specs read field by field (counts, compiled, timestamps by name)
        const { body } = (await this.post('/v0/coda/qpus/status', token, { job_id: jobId })) as { body: Record<string, any> };
        if (done(body.status)) return body;
        if (Date.now() > deadline) throw new Error(`job ${jobId} still ${body.status}; logs in ${sut.logDir}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** Events of one job from the table, in order. */
export async function jobEvents(sut: TestSystem, jobId: string): Promise<string[]> {
  const rows = await sut.query<{ from_status: string | null; to_status: string }>(
    'SELECT from_status, to_status FROM qpu_job_events WHERE job_id = $1 ORDER BY id',
    [jobId],
  );
  return rows.map((r) => `${r.from_status ?? '∅'}→${r.to_status}`);
}

/** Collects the broker's status-changed events from NATS. */
export async function watchStatusEvents(sut: TestSystem): Promise<{ events: { jobId: string; from: string | null; to: string }[]; close(): Promise<void> }> {
  const nc: NatsConnection = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  const events: { jobId: string; from: string | null; to: string }[] = [];
  nc.subscribe(`${sut.namespace}.qpu.job.status-changed.v1`, { callback: (_err, msg) => void events.push(JSON.parse(new TextDecoder().decode(msg.data))) });
  await nc.flush();
  return { events, close: () => nc.drain() };
}

/** 22 qubits, two layers of rx + cx (86 gates): a few seconds of simulation on the simulation worker. */
export function slowSimulationCircuit(): string {
  const n = 22;
  let code = `OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[${n}];\ncreg c[${n}];\n`;
  for (let layer = 0; layer < 2; layer++) for (let i = 0; i < n; i++) code += `rx(0.${layer + 1}) q[${i}];\n${i + 1 < n ? `cx q[${i}],q[${i + 1}];\n` : ''}`;
  return `${code}measure q -> c;\n`;
}
