import type { BackendCapabilities, QpuBackend } from './qpu-backend.js';

/**
 * The contract a lab-node backend fulfils (SPEC §6 "Lab nodes"; implemented by the lab-node issue,
 * not registered by this broker yet, so no lab device is listed). A node registers its device file,
 * heartbeats (30 s without one → `offline`; its jobs stay `queued`), takes jobs for its own device as
 * NativeGateIR and reports counts, all over NATS with per-node authentication; the broker persists a
 * job before offering it and acknowledges a report only after storing it.
 */
export interface LabNodeBackend extends QpuBackend {
  readonly capabilities: BackendCapabilities & { kind: 'lab' };
  /** A node announced (or re-announced) its device; returns whether it was accepted. */
  register(nodeId: string, deviceId: string): Promise<boolean>;
  /** A heartbeat from a node; updates its device's online status. */
  heartbeat(nodeId: string, at: Date): void;
}
