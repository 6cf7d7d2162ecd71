import type { DeviceFile } from '../devices/device-file.js';
import type { QpuJobRow } from '../jobs/qpu-jobs.repository.js';

/** What a backend can run and whether a device of it is usable now. */
export interface BackendCapabilities {
  kind: 'simulated' | 'lab' | 'cloud';
  /** Device files whose `provider` is this value are run by this backend. */
  provider: string;
  /** Live status of a device (a cloud backend may report maintenance; a lab device offline without heartbeat). */
  status(device: DeviceFile): 'online' | 'offline' | 'maintenance';
}

/** What a backend knows about a job it was given (used by the recovery sweep). */
export type BackendPoll = { state: 'pending' } | { state: 'lost' } | { state: 'failed'; error: string };

/**
 * One way of executing QPU jobs. The broker persists a job first, then calls `submit`; the backend
 * later reports transitions through the broker (JobService), never by writing the database itself.
 * `submit` must be idempotent per job id: recovery calls it again for jobs it finds `lost`.
 */
export interface QpuBackend {
  readonly capabilities: BackendCapabilities;
  submit(job: QpuJobRow, device: DeviceFile): Promise<void>;
  poll(job: QpuJobRow, device: DeviceFile): Promise<BackendPoll>;
  /** Best effort: stop the job at the backend; the broker has already recorded the cancellation. */
  cancel(job: QpuJobRow, device: DeviceFile): Promise<void>;
  /** Devices this backend adds at run time (lab devices registered by their nodes), beside the device files. */
  listDevices?(): DeviceFile[];
  /** Refuses (CircuitError → 422 at submission) a compiled circuit this backend cannot take. */
  refuseUnsupported?(compiled: unknown, device: DeviceFile): void;
}

export const QPU_BACKENDS = Symbol('QPU_BACKENDS');
