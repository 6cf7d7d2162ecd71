import { z } from 'zod';
import { SimulationJobData, CircuitsSimulateResponse } from '../circuits.js';
import { FrameJobData, FrameJobResponse } from '../frame-jobs.js';
import { InferenceJobData, ModelsRunResponse, RunGroupJobData, RunGroupResponse } from '../models.js';
import { QpuJobStatus, QpuSimulationJobData } from '../qpu.js';
import { JobName, QPU_DEVICE_QUEUES, QPU_POLL_QUEUE, QueueName } from '../queues.js';
import { defineJob, type JobContract } from './define.js';

/**
 * Queue `inference` carries two job kinds, told apart by name: an upload's run and an instrument frame's analysis;
 * queue `inference-groups` one: a group of concurrent small uploads' runs (the gateway's dynamic batching), short
 * jobs a worker runs several at a time. The gateway and lab-streams add them (JobProducer), the inference workers run
 * them (JobWorkerHost).
 */
export const InferenceJobs = {
  runModel: defineJob({ queue: QueueName.Inference, name: JobName.RunModel, data: InferenceJobData, outcome: ModelsRunResponse }),
  runGroup: defineJob({ queue: QueueName.InferenceGroups, name: JobName.RunGroup, data: RunGroupJobData, outcome: RunGroupResponse }),
  analyseFrame: defineJob({ queue: QueueName.Inference, name: JobName.AnalyseFrame, data: FrameJobData, outcome: FrameJobResponse }),
} as const;

/** Queue `simulation`: circuits too large for the broker's own event loop (CircuitToolsRpc.simulate). */
export const SimulationJobs = {
  simulate: defineJob({ queue: QueueName.Simulation, name: JobName.Simulate, data: SimulationJobData, outcome: CircuitsSimulateResponse }),
} as const;

/** What a simulated device's execution ended with (the broker holds the job's state; nobody waits on this). */
export const QpuExecutionOutcome = z.object({ ran: z.boolean(), status: QpuJobStatus });
export type QpuExecutionOutcome = z.infer<typeof QpuExecutionOutcome>;

/** The BullMQ job behind one cloud QPU job: creates it at the provider, then re-delays itself to poll its status. */
export const IonqPollJobData = z.object({ jobId: z.string().uuid(), polls: z.number().int().nonnegative() });
export type IonqPollJobData = z.infer<typeof IonqPollJobData>;

export const QpuExecutionJobs = {
  /** One queue per simulated device (`qpu-<device>`, QPU_DEVICE_QUEUES is the family): run a QPU job on it. */
  runOnDevice: defineJob({ queue: QPU_DEVICE_QUEUES, name: JobName.RunQpuJob, data: QpuSimulationJobData, outcome: QpuExecutionOutcome }),
  /** Queue `qpu-poll`: a cloud QPU job's creation and status polls. */
  pollCloud: defineJob({ queue: QPU_POLL_QUEUE, name: JobName.PollQpuJob, data: IonqPollJobData, outcome: z.string() }),
} as const;

/** Every job kind, by queue (family): a worker host refuses to start a queue whose kinds it does not all handle. */
export const JOB_CONTRACTS: readonly JobContract[] = [...Object.values(InferenceJobs), ...Object.values(SimulationJobs), ...Object.values(QpuExecutionJobs)];
