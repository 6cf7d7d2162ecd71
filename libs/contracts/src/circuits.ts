import { z } from 'zod';

/**
 * Circuit tools (gateway → qpu-broker) and the simulation queue. Field names inside messages
 * are camelCase; the gateway maps them to SPEC §4's snake_case HTTP fields.
 */
export const CircuitTargetFramework = z.enum(['qiskit', 'cirq', 'openqasm2', 'openqasm3', 'pennylane', 'braket']);
export type CircuitTargetFramework = z.infer<typeof CircuitTargetFramework>;

/** Source code limit (the HTTP JSON body is limited to 1 MiB anyway). */
const Code = z
  .string()
  .min(1)
  .max(1024 * 1024);
/** `entry_point`: the Python function whose returned circuit is meant (README "Which circuit"). */
export const CircuitEntryPoint = z.string().min(1).max(200);
/** `entry_point_args`: what the entry point is called with — a JSON list (positional) or an object (by name). */
export const CircuitEntryPointArgs = z.union([z.array(z.json()), z.record(z.string(), z.json())]);
export type CircuitEntryPointArgs = z.infer<typeof CircuitEntryPointArgs>;

export const CircuitsTranspileRequest = z.object({
  code: Code,
  target: z.string().min(1),
  entryPoint: CircuitEntryPoint.optional(),
  entryPointArgs: CircuitEntryPointArgs.optional(),
});
export type CircuitsTranspileRequest = z.infer<typeof CircuitsTranspileRequest>;
export const CircuitsTranspileResponse = z.object({ sourceFramework: z.string(), targetFramework: CircuitTargetFramework, code: z.string() });
export type CircuitsTranspileResponse = z.infer<typeof CircuitsTranspileResponse>;

export const CircuitsCodeRequest = z.object({ code: Code, entryPoint: CircuitEntryPoint.optional(), entryPointArgs: CircuitEntryPointArgs.optional() });
export type CircuitsCodeRequest = z.infer<typeof CircuitsCodeRequest>;
export const CircuitsToQasm3Response = z.object({ sourceFramework: z.string(), openqasm3: z.string() });
export type CircuitsToQasm3Response = z.infer<typeof CircuitsToQasm3Response>;

export const SimulationMethod = z.enum(['qasm', 'statevector']);
export type SimulationMethod = z.infer<typeof SimulationMethod>;
export const MAX_SHOTS = 1_000_000;

export const CircuitsSimulateRequest = z.object({
  code: Code,
  method: SimulationMethod,
  shots: z.number().int().min(1).max(MAX_SHOTS),
  backend: z.string(),
  seed: z.number().int().nonnegative().optional(),
  entryPoint: CircuitEntryPoint.optional(),
  entryPointArgs: CircuitEntryPointArgs.optional(),
});
export type CircuitsSimulateRequest = z.infer<typeof CircuitsSimulateRequest>;

export const CircuitsSimulateResponse = z.object({
  method: SimulationMethod,
  backend: z.string(),
  shots: z.number().int(),
  seed: z.number().int(),
  qubitCount: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
  statevector: z.array(z.tuple([z.number(), z.number()])).optional(),
  /** Where it ran: `inline` in the broker or `queue` on a simulation worker. */
  ranOn: z.enum(['inline', 'queue']),
  elapsedMs: z.number(),
});
export type CircuitsSimulateResponse = z.infer<typeof CircuitsSimulateResponse>;

export const CircuitsResourcesResponse = z.object({
  qubitCount: z.number().int(),
  clbitCount: z.number().int(),
  depth: z.number().int(),
  gateCounts: z.record(z.string(), z.number().int()),
  gateCount: z.number().int(),
  twoQubitGateCount: z.number().int(),
  multiQubitGateCount: z.number().int(),
  tCount: z.number().int(),
  measurementCount: z.number().int(),
  resetCount: z.number().int(),
  sourceFramework: z.string(),
});
export type CircuitsResourcesResponse = z.infer<typeof CircuitsResourcesResponse>;

export const CircuitsSplitRequest = z.object({
  code: Code,
  maxSubcircuitQubits: z.number().int().min(1).max(64).optional(),
  entryPoint: CircuitEntryPoint.optional(),
  entryPointArgs: CircuitEntryPointArgs.optional(),
});
export type CircuitsSplitRequest = z.infer<typeof CircuitsSplitRequest>;
/** The split description is passed through as built by libs/circuits (already JSON). */
export const CircuitsSplitResponse = z.record(z.string(), z.unknown());
export type CircuitsSplitResponse = z.infer<typeof CircuitsSplitResponse>;

/** BullMQ job data of the simulation queue. */
export const SimulationJobData = CircuitsSimulateRequest.extend({
  requestId: z.string(),
  /** Epoch ms after which nobody waits for the answer (the simulation stops then). */
  deadline: z.number().int().optional(),
  /** The producer's outcome prefix (`jobOutcomeInbox`). */
  outcomeInbox: z.string().optional(),
});
export type SimulationJobData = z.infer<typeof SimulationJobData>;
