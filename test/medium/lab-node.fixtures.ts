import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestSystem } from './system.harness.js';

/** A noiseless lab device file (so counts are exact); `shot_time_us` sets how long a job holds the node. */
export function writeLabDevice(device: {
  id: string;
  lab: string;
  shotTimeUs: number;
  qubits?: number;
  perTaskCents?: number;
  perShotCents?: number;
  executor?: unknown;
}): string {
  const n = device.qubits ?? 2;
  const dir = mkdtempSync(join(tmpdir(), 'qdc-lab-device-'));
  const path = join(dir, 'device.json');
  writeFileSync(
    path,
    JSON.stringify({
      id: device.id,
      name: `Lab test device ${device.id}`,
      lab: device.lab,
      provider: 'lab',
      num_qubits: n,
      native_gates: ['rz', 'sx', 'x', 'cz'],
      coupling_map: Array.from({ length: n - 1 }, (_, i) => [i, i + 1]),
      pricing: { per_task_cents: device.perTaskCents ?? 10, per_shot_cents: device.perShotCents ?? 0.01 },
      max_shots: 100_000,
      shot_time_us: device.shotTimeUs,
      noise: {
        qubits: Array.from({ length: n }, () => ({ t1_us: null, t2_us: null, single_qubit_error: 0, readout_error: 0 })),
        edges: Array.from({ length: n - 1 }, (_, i) => ({ qubits: [i, i + 1], two_qubit_error: 0 })),
        gate_times_us: { single: 0.035, two: 0.3, measure: 1 },
      },
      ...(device.executor ? { executor: device.executor } : {}),
    }),
  );
  return path;
}

/** Starts `qdc node start` (the built CLI) as its own process against the test system's NATS and namespace. */
export function startNode(sut: TestSystem, name: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [resolve('dist/apps/cli/src/main.js'), 'node', 'start', ...args], {
    env: { ...sut.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(sut.logDir, `${name}.log`));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Resolves when the process prints a line matching `pattern` (e.g. the node taking a job). */
export function waitForOutput(child: ChildProcess, pattern: RegExp, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolveWait, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`no output matching ${pattern} within ${timeoutMs} ms`)), timeoutMs);
    child.stdout?.on('data', (d) => {
      seen += String(d);
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolveWait();
      }
    });
  });
}
