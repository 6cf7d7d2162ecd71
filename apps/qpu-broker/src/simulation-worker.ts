import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NatsService, bootstrapService } from '#qdc/platform';
import { SimulationWorkerModule } from './simulation-worker.module.js';
import { SimulationProcessor } from './simulation/simulation.processor.js';

bootstrapService('simulation-worker', SimulationWorkerModule, {
  defaultProbePort: 9121,
  readiness: (app) => async () => ({
    nats: app.get(NatsService).isConnected,
    redis: await app.get(SimulationProcessor).isRedisReady(),
  }),
})
  .then((app) => app.get(SimulationProcessor).start())
  .catch((error) => {
    new Logger('simulation-worker').error(error instanceof Error ? error.stack : String(error));
    process.exit(1);
  });
