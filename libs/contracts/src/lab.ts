import { z } from 'zod';

/**
 * Lab nodes (SPEC §6): the NATS contract between a lab's node and the QPU broker. Every lab subject is
 * `<namespace>.lab.<lab>.…`, so a NATS user limited to its lab's subjects (`qdc lab add`) can only act for
 * its own lab; the broker additionally checks every message against the lab and node that registered the
 * device. Payloads are JSON with snake_case fields (a lab writes them in Python); docs/lab-integration.md
 * has their JSON Schemas.
 */

/** Lab ids and lab device ids are single NATS subject tokens. */
export const LAB_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const LabId = z.string().regex(LAB_ID_PATTERN, 'lower-case letters, digits, dashes and underscores (no dots)');

export const labSubjects = (namespace: string, lab: string) => {
  const base = `${namespace}.lab.${lab}`;
  return {
    /** node → broker request: register (or re-register) a device. */
    register: `${base}.register.v1`,
    /** node → broker events, every heartbeat interval. */
    heartbeat: `${base}.heartbeat.v1`,
    /** node → broker request: `running`, `completed` (counts) or `failed` (error) for a job. */
    report: `${base}.report.v1`,
    /** broker → node: the lab's work-queue stream holds one subject per device and job. */
    jobs: `${base}.jobs`,
    job: (deviceId: string, jobId: string) => `${base}.jobs.${deviceId}.${jobId}`,
    deviceJobs: (deviceId: string) => `${base}.jobs.${deviceId}.*`,
  };
};

/** The wildcard subjects the broker listens on (`*` = the lab). */
export const labWildcards = (namespace: string) => ({
  register: `${namespace}.lab.*.register.v1`,
  heartbeat: `${namespace}.lab.*.heartbeat.v1`,
  report: `${namespace}.lab.*.report.v1`,
});

/** The lab of a lab subject (`<namespace>.lab.<lab>.…`), or undefined. */
export function labOfSubject(namespace: string, subject: string): string | undefined {
  const prefix = `${namespace}.lab.`;
  if (!subject.startsWith(prefix)) return undefined;
  const lab = subject.slice(prefix.length).split('.')[0];
  return lab && LAB_ID_PATTERN.test(lab) ? lab : undefined;
}

/** The JetStream work-queue stream of a lab and the durable pull consumer of one of its devices. */
export const labJobStream = (namespace: string, lab: string): string => `${namespace}-lab-${lab}`;
export const labDeviceConsumer = (deviceId: string): string => `node-${deviceId}`;

/** The native circuit a lab executor receives on stdin (or as the HTTP body). */
export const NativeGateIR = z.object({
  version: z.literal(1),
  num_qubits: z.number().int().positive(),
  num_clbits: z.number().int().nonnegative(),
  gates: z.array(z.object({ gate: z.string().min(1), qubits: z.array(z.number().int().nonnegative()).min(1), params: z.array(z.number()) })),
  measurements: z.array(z.object({ qubit: z.number().int().nonnegative(), clbit: z.number().int().nonnegative() })),
  shots: z.number().int().positive(),
});
export type NativeGateIR = z.infer<typeof NativeGateIR>;

export const LabRegisterRequest = z.object({
  node_id: z.string().min(1).max(128),
  device: z.record(z.string(), z.unknown()),
});
export type LabRegisterRequest = z.infer<typeof LabRegisterRequest>;

export const LabRegisterResponse = z.object({
  device_id: z.string(),
  stream: z.string(),
  consumer: z.string(),
  heartbeat_ms: z.number().int().positive(),
  ack_wait_ms: z.number().int().positive(),
});
export type LabRegisterResponse = z.infer<typeof LabRegisterResponse>;

export const LabHeartbeat = z.object({ node_id: z.string().min(1), device_id: z.string().min(1), at: z.string() });
export type LabHeartbeat = z.infer<typeof LabHeartbeat>;

/** The job message on the lab's work-queue stream (its Nats-Msg-Id is the job id). */
export const LabJobMessage = z.object({ job_id: z.string().uuid(), device_id: z.string(), seed: z.number().int().nonnegative(), circuit: NativeGateIR });
export type LabJobMessage = z.infer<typeof LabJobMessage>;

const ReportBase = z.object({ node_id: z.string().min(1), device_id: z.string().min(1), job_id: z.string().uuid(), delivery: z.number().int().positive() });
export const LabReport = z.discriminatedUnion('type', [
  ReportBase.extend({ type: z.literal('running') }),
  /** Counts keyed by bitstrings over the classical bits, clbit 0 rightmost, `num_clbits` characters. */
  ReportBase.extend({ type: z.literal('completed'), counts: z.record(z.string(), z.number().int().nonnegative()), elapsed_ms: z.number().nonnegative() }),
  ReportBase.extend({ type: z.literal('failed'), error: z.string().min(1).max(4000) }),
]);
export type LabReport = z.infer<typeof LabReport>;

/** The broker's answer to a report: `run` (for `running`) says whether the node should execute the job. */
export const LabReportAck = z.object({ status: z.string(), run: z.boolean() });
export type LabReportAck = z.infer<typeof LabReportAck>;

/** `qdc lab remove` → qpu-broker: forget the lab's devices (lab_devices rows, liveness, the broker's device list). */
export const LabRemoveDevicesRequest = z.object({ lab: LabId });
export type LabRemoveDevicesRequest = z.infer<typeof LabRemoveDevicesRequest>;
export const LabRemoveDevicesResponse = z.object({ devices: z.array(z.string()), failedJobs: z.number().int().nonnegative() });
export type LabRemoveDevicesResponse = z.infer<typeof LabRemoveDevicesResponse>;

/**
 * Lab credentials (`/v0/admin/lab-credentials` → qpu-broker, which issues them in QDC_NATS_AUTH_DIR as `qdc lab add`
 * does): a lab's NATS nkey user. QDC keeps the public key only; the seed is in the creation answer, once.
 */
export const LabCredentialDto = z.object({ lab: z.string(), public_key: z.string(), added_at: z.string() });
export type LabCredentialDto = z.infer<typeof LabCredentialDto>;
export const LabCredentialCreateRequest = z.object({ lab: LabId });
export type LabCredentialCreateRequest = z.infer<typeof LabCredentialCreateRequest>;
/** The content of the lab's credentials file (`qdc node start --credentials <file>`). */
export const LabCredentialsFileDto = z.object({ lab: z.string(), namespace: z.string(), nkey_seed: z.string() });
export type LabCredentialsFileDto = z.infer<typeof LabCredentialsFileDto>;
export const CreatedLabCredentialDto = LabCredentialDto.extend({
  credentials: LabCredentialsFileDto,
  /** Whether nats-server was told to reload (QDC_NATS_PID_FILE); false: the change is in auth.conf, not yet applied. */
  reloaded: z.boolean(),
});
export type CreatedLabCredentialDto = z.infer<typeof CreatedLabCredentialDto>;
export const LabCredentialRevokeRequest = z.object({ lab: LabId });
export type LabCredentialRevokeRequest = z.infer<typeof LabCredentialRevokeRequest>;
export const RevokedLabCredentialDto = LabCredentialDto.extend({ revoked_at: z.string(), reloaded: z.boolean() });
export type RevokedLabCredentialDto = z.infer<typeof RevokedLabCredentialDto>;
