import { Worker } from 'node:worker_threads';
import { RpcError, type CircuitsSimulateResponse, type RpcErrorBody, type SimulationJobData } from '#qdc/contracts';
import type { SimulationConfig } from './simulation.config.js';

export type SimulationThreadReply = { ok: true; response: CircuitsSimulateResponse } | { ok: false; rpc: RpcErrorBody } | { ok: false; message: string };

/**
 * Runs one simulation in a thread of its own (simulation-thread.ts) and answers what runSimulation would have:
 * the response, or the same RpcError. The simulation blocked the worker's event loop before, so the job lock had to
 * outlast the longest simulation (QDC_SIM_TIMEOUT_MS + 30 s) and a killed worker's job waited that long to be
 * retried; off the event loop, the normal lock (QDC_JOB_LOCK_MS) is renewed and a dead worker's job is retried
 * within it. The thread ends with the job, so its memory (the state vector) goes with it. A simulation still running
 * at `deadline` (epoch ms: nobody waits for it any more) is stopped and answered `timeout`.
 */
export function runSimulationInThread(data: SimulationJobData, config: SimulationConfig, deadline?: number): Promise<CircuitsSimulateResponse> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL('./simulation-thread.js', import.meta.url), { workerData: { data, config } });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer =
      deadline === undefined
        ? undefined
        : setTimeout(
            () => {
              settle(() => reject(new RpcError('timeout', `the simulation did not finish before its deadline (${new Date(deadline).toISOString()})`)));
              void thread.terminate();
            },
            Math.max(0, deadline - Date.now()),
          );
    thread.once('message', (reply: SimulationThreadReply) =>
      settle(() => {
        if (reply.ok) resolve(reply.response);
        else if ('rpc' in reply) reject(new RpcError(reply.rpc.code, reply.rpc.message, reply.rpc.details));
        else reject(new Error(`the simulation thread failed: ${reply.message}`));
      }),
    );
    thread.once('error', (error: Error) => settle(() => reject(error)));
    thread.once('exit', (code) => settle(() => reject(new Error(`the simulation thread exited with code ${code} before answering`))));
  });
}
