import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NatsService, bootstrapService } from '#qdc/platform';
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
  .catch((error) => {
    new Logger('simulation-worker').error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  });
