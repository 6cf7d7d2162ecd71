import 'reflect-metadata';
import { NatsService, bootstrapService, exitOnStartupError } from '#qdc/platform';
import { SimulationWorkerModule } from './simulation-worker.module.js';
import { SimulationProcessor } from './simulation/simulation.processor.js';
import { QpuDeviceProcessor } from './simulation/qpu-device.processor.js';

bootstrapService('simulation-worker', SimulationWorkerModule, {
  defaultProbePort: 9121,
  readiness: (app) => async () => ({
    nats: app.get(NatsService).isConnected,
    redis: await app.get(SimulationProcessor).isRedisReady(),
  }),
})
  .then((app) => Promise.all([app.get(SimulationProcessor).start(), app.get(QpuDeviceProcessor).start()]))
  .catch(exitOnStartupError('simulation-worker'));
