import { spawn } from 'node:child_process';
import { z } from 'zod';
import { simulateNoisy, validateNoiseModel } from '#qdc/circuits';
import type { NativeGateIR } from '#qdc/contracts';
import { fromNativeGateIR } from './native-gate-ir.js';

/**
 * How a lab node executes a job's NativeGateIR: on the built-in noisy simulator (`--simulate`, with the
 * device file's noise figures), or by the executor the device file names — a command (the IR as JSON on
 * stdin, counts JSON on stdout) or an HTTP endpoint (the IR POSTed as JSON, counts JSON back).
 */
export const ExecutorSpec = z.union([
  z.object({ command: z.array(z.string().min(1)).min(1), timeout_s: z.number().positive().default(3600) }),
  z.object({ url: z.string().url(), timeout_s: z.number().positive().default(3600) }),
]);
export type ExecutorSpec = z.infer<typeof ExecutorSpec>;

export type Executor = (ir: NativeGateIR, context: { seed: number; jobId: string }) => Promise<Record<string, number>>;

/** `{"counts": {...}}` or the counts map itself. */
function countsOf(output: unknown, from: string): Record<string, number> {
  const candidate = output && typeof output === 'object' && 'counts' in output ? (output as { counts: unknown }).counts : output;
  const parsed = z.record(z.string(), z.number().int().nonnegative()).safeParse(candidate);
  if (!parsed.success) throw new Error(`${from} did not return counts (a JSON object of bitstring → count, or {"counts": {...}})`);
  return parsed.data;
}

/** The built-in simulator: device time (shots × shot_time_us × timeScale) then noisy simulation, seeded by the job. */
export function simulatorExecutor(device: { noise?: unknown; shot_time_us: number }, timeScale: number, sleep: (ms: number) => Promise<void>): Executor {
  if (!device.noise) throw new Error('--simulate needs the device file to have a `noise` section');
  const noise = validateNoiseModel(device.noise);
  return async (ir, { seed }) => {
    await sleep((ir.shots * device.shot_time_us * timeScale) / 1000);
    return simulateNoisy(fromNativeGateIR(ir), noise, { shots: ir.shots, seed, method: 'auto' }).counts;
  };
}

export function commandExecutor(spec: { command: string[]; timeout_s: number }, cwd: string): Executor {
  return (ir, { jobId }) =>
    new Promise((resolve, reject) => {
      const child = spawn(spec.command[0]!, spec.command.slice(1), { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, QDC_JOB_ID: jobId } });
      let out = '';
      let err = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), spec.timeout_s * 1000);
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`executor ${spec.command[0]} could not start: ${error.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        if (code !== 0) return reject(new Error(`executor exited with ${signal ?? `code ${code}`}: ${err.trim().slice(-1000) || 'no message on stderr'}`));
        try {
          resolve(countsOf(JSON.parse(out), 'the executor'));
        } catch (error) {
          reject(new Error(error instanceof SyntaxError ? `the executor's output is not JSON: ${out.slice(0, 200)}` : (error as Error).message));
        }
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(JSON.stringify(ir));
    });
}

export function httpExecutor(spec: { url: string; timeout_s: number }): Executor {
  return async (ir, { jobId }) => {
    const res = await fetch(spec.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-qdc-job-id': jobId },
      body: JSON.stringify(ir),
      signal: AbortSignal.timeout(spec.timeout_s * 1000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`executor ${spec.url} answered ${res.status}: ${text.slice(0, 500)}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`executor ${spec.url} did not answer JSON: ${text.slice(0, 200)}`);
    }
    return countsOf(body, `executor ${spec.url}`);
  };
}
