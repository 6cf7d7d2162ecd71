/**
 * The thread a simulation worker runs one queued simulation in (simulation-thread-runner.ts): the state vector and
 * the CPU-bound loop live here, so the worker's event loop stays free and BullMQ's job lock keeps being renewed.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { RpcError, type SimulationJobData } from '#qdc/contracts';
import { runSimulation } from './run-simulation.js';
import type { SimulationConfig } from './simulation.config.js';
import type { SimulationThreadReply } from './simulation-thread-runner.js';

const { data, config } = workerData as { data: SimulationJobData; config: SimulationConfig };
let reply: SimulationThreadReply;
try {
  reply = { ok: true, response: runSimulation(data, config, 'queue') };
} catch (error) {
  reply =
    error instanceof RpcError
      ? { ok: false, rpc: error.toBody() }
      : { ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
parentPort!.postMessage(reply);
