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
  startProbeServer,
} from '#qdc/platform';
import type { ServiceName } from '#qdc/contracts';

/** The probe port of the whole process (`/livez`, `/readyz` of every service but the gateway, `/metrics`) when QDC_HEALTH_PORT is not set. */
export const ALL_IN_ONE_PROBE_PORT = 9100;

/** How each service boots here: the same entry functions as the services' own main.ts, imported when needed. */
const BOOT: Record<ServiceName, () => Promise<INestApplicationContext>> = {
  results: async () => (await import('../../results/src/results.start.js')).startResults(),
  'inference-worker': async () => (await import('../../model-runner/src/worker.start.js')).startInferenceWorker(),
  'qpu-broker': async () => (await import('../../qpu-broker/src/qpu-broker.start.js')).startQpuBroker(),
  'simulation-worker': async () => (await import('../../qpu-broker/src/simulation-worker.start.js')).startSimulationWorker(),
  'lab-streams': async () => (await import('../../model-runner/src/streams.start.js')).startLabStreams(),
  assistant: async () => (await import('../../assistant/src/assistant.start.js')).startAssistant(),
  gateway: async () => (await import('../../gateway/src/gateway.start.js')).startGateway(),
};

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
 * connection, queue workers and Postgres pool, over the same subjects and queues as in the split mode. The services
 * other than the gateway boot together, the gateway last (ready means ready, as in SERVICE_PROCESSES's order). If one
 * fails to boot, those already up are closed and the error names it. Signals are the caller's: call `stop()`.
 */
export async function startAllInOne(): Promise<AllInOne> {
  enterSingleProcess();
  const config = loadConfig();
  Logger.overrideLogger(new QdcLogger(config, () => currentService() ?? 'all-in-one'));
  setMetricsService('all-in-one');
  initTracing(config, 'all-in-one');
  const logger = new Logger('all-in-one');
  const boot = async (name: ServiceName): Promise<void> => {
    await asService(name, BOOT[name]).catch((error: unknown) => {
      throw new ServiceBootError(name, error);
    });
  };
  try {
    const [first, ...rest] = SERVICE_PROCESSES.filter((s) => s.name !== 'gateway').map((s) => s.name);
    // results first (the owner of the schema, which migrates it when QDC_MIGRATE_ON_BOOT), then the others together.
    if (first) await boot(first);
    const booted = await Promise.allSettled(rest.map(boot));
    const failed = booted.find((b): b is PromiseRejectedResult => b.status === 'rejected');
    if (failed) throw failed.reason;
    await boot('gateway');
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
