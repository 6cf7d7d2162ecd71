import { Module } from '@nestjs/common';
import { ConfigModule, JobWorkerHost, NatsModule } from '#qdc/platform';
import { SimulationProcessor } from './simulation/simulation.processor.js';
import { simulationConfigProvider } from './simulation/simulation.config.js';
import { QpuDeviceProcessor } from './simulation/qpu-device.processor.js';
import { qpuConfigProvider } from './qpu.config.js';
import { DeviceCatalogue } from './devices/device-catalogue.js';
import { DeviceToolchain } from './devices/device-toolchain.js';

/**
 * A simulation worker process: scale these out for large circuits (queue `simulation`); also executes simulated-device
 * QPU jobs (one queue per device). Both on one JobWorkerHost.
 */
@Module({
  imports: [ConfigModule.forService('simulation-worker'), NatsModule],
  providers: [JobWorkerHost, simulationConfigProvider, SimulationProcessor, qpuConfigProvider, DeviceCatalogue, DeviceToolchain, QpuDeviceProcessor],
})
export class SimulationWorkerModule {}
