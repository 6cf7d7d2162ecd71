import { type INestApplicationContext, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import {
  QdcLogger,
  SERVICE_PROCESSES,
  asService,
  currentService,
  describeConnectionError,
  enterSingleProcess,
  hostedServices,
  initTracing,
  loadConfig,
  setMetricsService,
  shutdownTracing,
  startProbeServer,
} from '#qdc/platform';
import type { ServiceName } from '#qdc/contracts';

/** The probe port of the whole process (`/livez`, `/readyz` of every service but the gateway, `/metrics`) when QDC_HEALTH_PORT is not set. */
export const ALL_IN_ONE_PROBE_PORT = 9100;

/** Each service's entry function (the same its own main.ts calls), from its module, imported once. */
const ENTRY_MODULES: Record<ServiceName, () => Promise<() => Promise<INestApplicationContext>>> = {
  results: async () => (await import('../../results/src/results.start.js')).startResults,
  'inference-worker': async () => (await import('../../inference-worker/src/worker.start.js')).startInferenceWorker,
  'qpu-broker': async () => (await import('../../qpu-broker/src/qpu-broker.start.js')).startQpuBroker,
  'simulation-worker': async () => (await import('../../qpu-broker/src/simulation-worker.start.js')).startSimulationWorker,
  'lab-streams': async () => (await import('../../lab-streams/src/lab-streams.start.js')).startLabStreams,
  assistant: async () => (await import('../../assistant/src/assistant.start.js')).startAssistant,
  gateway: async () => (await import('../../gateway/src/gateway.start.js')).startGateway,
};
const entries = new Map<ServiceName, Promise<() => Promise<INestApplicationContext>>>();
const entry = (name: ServiceName): Promise<() => Promise<INestApplicationContext>> => {
  if (!entries.has(name)) entries.set(name, ENTRY_MODULES[name]());
  return entries.get(name)!;
};

/**
 * Loads the modules of the services the process needs to be ready (most of their boot's CPU time) without starting
 * anything: `npm start` calls it while it checks the servers and migrates, so the loading overlaps that I/O. Failures
 * surface again in `startAllInOne()`.
 */
export function preloadServices(): void {
  for (const name of [...STAGES[0]!, ...STAGES[1]!]) entry(name).catch(() => undefined);
}

/**
 * Boot order, in stages (one event loop: a service booting delays the answers of those already up): first what the
 * gateway needs to answer (results for keys, the gateway itself), together; then what its /readyz also needs (the
 * qpu-broker), alone, so that the process is ready as soon as it can be; then the others together. A model run
 * accepted meanwhile waits in the queue for the inference worker, as it would in the split mode, where the processes
 * boot side by side; a QPU call before the broker is up is answered 503 with Retry-After, as when it restarts.
 */
const FIRST: readonly ServiceName[] = ['results', 'gateway'];
const STAGES: readonly (readonly ServiceName[])[] = [
  FIRST,
  ['qpu-broker'],
  SERVICE_PROCESSES.map((s) => s.name).filter((name) => !FIRST.includes(name) && name !== 'qpu-broker'),
];

/** A service that did not boot: which one, and why (a dependency not answering is said in one line). */
export class ServiceBootError extends Error {
  constructor(
    readonly service: string,
    readonly reason: unknown,
  ) {
    const why = describeConnectionError(reason) ?? (reason instanceof Error ? reason.message : String(reason));
    super(`${service} did not start: ${why}`);
  }
}

export interface AllInOne {
  /** The probe server of the process (its port: `probes.address()`). */
  probes: Server;
  /** Drains and closes every service (the gateway first, as SIGTERM does in the split mode), then the probes. */
  stop(): Promise<void>;
}

/**
 * Every QDC service in this process (the single-process mode): each its own Nest application with its own NATS
 * connection, queue workers and Postgres pool, over the same subjects and queues as in the split mode (boot order:
 * STAGES). If one fails to boot, those already up are closed and the error names it. Signals are the caller's: call
 * `stop()`.
 */
export async function startAllInOne(): Promise<AllInOne> {
  enterSingleProcess();
  const config = loadConfig();
  Logger.overrideLogger(new QdcLogger(config, () => currentService() ?? 'all-in-one'));
  setMetricsService('all-in-one');
  initTracing(config, 'all-in-one');
  const logger = new Logger('all-in-one');
  const boot = async (name: ServiceName): Promise<void> => {
    await asService(name, async () => (await entry(name))()).catch((error: unknown) => {
      throw new ServiceBootError(name, error);
    });
  };
  const bootTogether = async (names: readonly ServiceName[]): Promise<void> => {
    const booted = await Promise.allSettled(names.map(boot));
    const failed = booted.find((b): b is PromiseRejectedResult => b.status === 'rejected');
    if (failed) throw failed.reason;
  };
  try {
    for (const stage of STAGES) await bootTogether(stage);
  } catch (error) {
    await closeAll(hostedServices().map((s) => s.app));
    throw error;
  }
  const probes = await asService('all-in-one', () =>
    startProbeServer(config.QDC_HEALTH_PORT ?? ALL_IN_ONE_PROBE_PORT, async () => {
      const checks: Record<string, boolean> = {};
      for (const service of hostedServices()) {
        for (const [name, ok] of Object.entries((await service.readiness?.()) ?? {})) checks[`${service.name}.${name}`] = ok;
      }
      return checks;
    }),
  );
  logger.log(
    `${hostedServices().length} services in one process (${hostedServices()
      .map((s) => s.name)
      .join(', ')})`,
  );
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const services = hostedServices();
      const gateway = services.filter((s) => s.name === 'gateway');
      await closeAll(gateway.map((s) => s.app));
      await closeAll(services.filter((s) => s.name !== 'gateway').map((s) => s.app));
      await new Promise<void>((done) => probes.close(() => done()));
      await shutdownTracing(); // the last spans, once every service has drained
    })();
    return stopping;
  };
  return { probes, stop };
}

async function closeAll(apps: INestApplicationContext[]): Promise<void> {
  const closed = await Promise.allSettled(apps.map((app) => app.close()));
  for (const c of closed)
    if (c.status === 'rejected') new Logger('all-in-one').error(`a service did not close cleanly: ${(c.reason as Error)?.message ?? c.reason}`);
}
