import { Module } from '@nestjs/common';
import { ConfigModule, JobWorkerHost, NatsModule, PrismaService } from '#qdc/platform';
import { CircuitToolsHandlers } from './circuits/circuit-tools.handlers.js';
import { CircuitToolsService } from './circuits/circuit-tools.service.js';
import { SimulationProducer } from './simulation/simulation.producer.js';
import { simulationConfigProvider } from './simulation/simulation.config.js';
import { qpuConfigProvider } from './qpu.config.js';
import { DeviceCatalogue } from './devices/device-catalogue.js';
import { DeviceToolchain } from './devices/device-toolchain.js';
import { SimulatedBackend } from './backends/simulated.backend.js';
import { BackendRegistry } from './backends/backend-registry.js';
import { QPU_BACKENDS } from './backends/qpu-backend.js';
import { IonqBackend } from './backends/ionq/ionq.backend.js';
import { QpuJobsRepository } from './jobs/qpu-jobs.repository.js';
import { QpuJobMetrics } from './jobs/qpu-job.metrics.js';
import { QpuJobsService } from './jobs/qpu-jobs.service.js';
import { QpuJobsHandlers } from './jobs/qpu-jobs.handlers.js';
import { JobRecovery } from './jobs/job-recovery.js';
import { BudgetsService } from './budgets/budgets.service.js';
import { LabNodeBackendService } from './backends/lab-node.backend.js';
import { LabCredentialsHandlers } from './lab/lab-credentials.handlers.js';
import { LabCredentialsService } from './lab/lab-credentials.service.js';
import { LabNodeHandlers } from './lab/lab-node.handlers.js';
import { WebhooksRepository } from './webhooks/webhooks.repository.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { WebhooksHandlers } from './webhooks/webhooks.handlers.js';
import { WebhookDispatcher } from './webhooks/webhook-dispatcher.js';
import { WebhookSender } from './webhooks/webhook-sender.js';
import { WebhookMetrics } from './webhooks/webhook.metrics.js';
import { LabStreamWebhookSource } from './webhooks/lab-stream-webhook-source.js';

/** The QPU broker: circuit tools, devices, QPU jobs (Postgres) and their backends, signed webhooks, over NATS. */
@Module({
  imports: [ConfigModule.forService('qpu-broker'), NatsModule],
  providers: [
    simulationConfigProvider,
    SimulationProducer,
    CircuitToolsService,
    CircuitToolsHandlers,
    qpuConfigProvider,
    PrismaService,
    DeviceCatalogue,
    DeviceToolchain,
    SimulatedBackend,
    JobWorkerHost,
    IonqBackend,
    LabNodeBackendService,
    {
      provide: QPU_BACKENDS,
      useFactory: (simulated: SimulatedBackend, ionq: IonqBackend, lab: LabNodeBackendService) => [simulated, ...(ionq.enabled ? [ionq] : []), lab],
      inject: [SimulatedBackend, IonqBackend, LabNodeBackendService],
    },
    BackendRegistry,
    QpuJobsRepository,
    QpuJobMetrics,
    QpuJobsService,
    QpuJobsHandlers,
    JobRecovery,
    BudgetsService,
    LabNodeHandlers,
    LabCredentialsService,
    LabCredentialsHandlers,
    WebhooksRepository,
    WebhooksService,
    WebhooksHandlers,
    WebhookSender,
    WebhookDispatcher,
    WebhookMetrics,
    LabStreamWebhookSource,
  ],
})
export class QpuBrokerModule {}
