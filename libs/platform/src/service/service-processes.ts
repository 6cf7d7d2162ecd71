import type { ServiceName } from '#qdc/contracts';

/** One process kind of QDC, as `npm start` and the medium-test harness launch it (deploy/ has one manifest each). */
export interface ServiceProcess {
  name: ServiceName;
  /** The built entry point, relative to the repository root. */
  entry: string;
  /** Default probe port (`QDC_HEALTH_PORT`); the gateway serves its probes on its HTTP port. */
  probePort?: number;
  /** Workers run as several processes: `npm start` takes the count from this setting, tests from their options. */
  replicasFrom?: 'QDC_INFERENCE_WORKERS';
}

/**
 * Every QDC process, in start order (results first: the others wait for it; the gateway last, so that ready means
 * ready). Add a new service here and `npm start`, the test harness and the docs' service list follow.
 */
export const SERVICE_PROCESSES: readonly ServiceProcess[] = [
  { name: 'results', entry: 'dist/apps/results/src/main.js', probePort: 9102 },
  { name: 'inference-worker', entry: 'dist/apps/inference-worker/src/main.js', probePort: 9111, replicasFrom: 'QDC_INFERENCE_WORKERS' },
  { name: 'qpu-broker', entry: 'dist/apps/qpu-broker/src/main.js', probePort: 9103 },
  { name: 'simulation-worker', entry: 'dist/apps/qpu-broker/src/simulation-worker.js', probePort: 9121 },
  { name: 'lab-streams', entry: 'dist/apps/lab-streams/src/main.js', probePort: 9131 },
  { name: 'assistant', entry: 'dist/apps/assistant/src/main.js', probePort: 9104 },
  { name: 'gateway', entry: 'dist/apps/gateway/src/main.js' },
];

/** The process names of a service with `count` replicas (`worker-0`, `worker-1`, … for inference workers). */
export function replicaNames(service: ServiceProcess, count: number): string[] {
  if (!service.replicasFrom) return [service.name];
  return Array.from({ length: count }, (_, i) => `worker-${i}`);
}
