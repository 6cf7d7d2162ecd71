import { CircuitError, compileToDevice, parseCircuit, simulateNoisy, validateNoiseModel, type Circuit, type ParseOptions } from '#qdc/circuits';
import type { QpuCompiledStats } from '#qdc/contracts';
import type { DeviceFile } from './device-file.js';

/**
 * The broker's seam to the science in libs/circuits: compile a submitted circuit for a device and
 * execute the stored compiled circuit with the device's noise. The compiled circuit is JSON (stored
 * in qpu_jobs.compiled and handed to a simulation worker or a provider).
 */
export interface CompiledJob {
  sourceFramework: string;
  circuit: unknown;
  initialLayout: number[];
  finalLayout: number[];
  stats: QpuCompiledStats;
}

export interface ExecutionResult {
  counts: Record<string, number>;
  method: string;
}

/** Parses any front end and compiles it to the device's native gates, layout and routing included (CircuitError → 422). */
export function compileForDevice(code: string, device: DeviceFile, options: ParseOptions = {}): CompiledJob {
  const { framework, circuit } = parseCircuit(code, options);
  if (circuit.numQubits > device.num_qubits) {
    throw new CircuitError('limit', `the circuit uses ${circuit.numQubits} qubits; device ${device.id} has ${device.num_qubits}`);
  }
  const compiled = compileToDevice(circuit, { numQubits: device.num_qubits, nativeGates: device.native_gates, couplingMap: device.coupling_map });
  return {
    sourceFramework: framework,
    circuit: circuitToJson(compiled.circuit),
    initialLayout: compiled.initialLayout,
    finalLayout: compiled.finalLayout,
    stats: {
      native_gate_count: compiled.stats.nativeGateCount,
      two_qubit_gate_count: compiled.stats.twoQubitGateCount,
      swap_count: compiled.stats.swapCount,
      depth: compiled.stats.depth,
    },
  };
}

/** The compiled IR as stored JSON (a compiled circuit has no custom gate definitions). */
export function circuitToJson(circuit: Circuit): unknown {
  const { definitions: _definitions, ...rest } = circuit;
  return rest;
}

export function circuitFromJson(json: unknown): Circuit {
  return { ...(json as Omit<Circuit, 'definitions'>), definitions: new Map() };
}

/**
 * Runs a compiled job's shots on the device's noise model (density matrix for small circuits,
 * Monte-Carlo trajectories for larger ones), seeded so a re-run after a crash gives the same counts.
 */
export function executeOnDevice(compiled: unknown, device: DeviceFile, options: { shots: number; seed: number }): ExecutionResult {
  if (!device.noise) throw new CircuitError('semantic', `device ${device.id} has no noise model to simulate with`);
  const result = simulateNoisy(circuitFromJson(compiled), validateNoiseModel(device.noise), { shots: options.shots, seed: options.seed, method: 'auto' });
  return { counts: result.counts, method: result.method };
}

/** Injectable face of the toolchain (so services can be tested with a stand-in). */
export class DeviceToolchain {
  compile(code: string, device: DeviceFile, options: ParseOptions = {}): CompiledJob {
    return compileForDevice(code, device, options);
  }

  execute(compiled: unknown, device: DeviceFile, options: { shots: number; seed: number }): ExecutionResult {
    return executeOnDevice(compiled, device, options);
  }
}
