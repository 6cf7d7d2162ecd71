export { CircuitError, type CircuitErrorKind } from './errors.js';
export {
  MAX_CIRCUIT_QUBITS,
  MAX_CIRCUIT_CLBITS,
  MAX_LIST_LENGTH,
  MAX_EXPRESSION_DEPTH,
  MAX_CALL_DEPTH,
  MAX_LOOP_ITERATIONS,
  MAX_EVALUATION_STEPS,
} from './limits.js';
export * from './ir/expr.js';
export * from './ir/circuit.js';
export { STANDARD_GATES, standardGate, gateMatrix, eulerAngles, type StandardGate } from './ir/gates.js';
export { decomposeGate } from './ir/decompositions.js';
export {
  checkUnitary,
  synthesizeUnitary,
  synthesizeStatePreparation,
  MAX_SYNTHESIS_QUBITS,
  MAX_STATE_PREPARATION_QUBITS,
  type Complex,
} from './ir/unitary-synthesis.js';
export { haarUnitary } from './ir/haar.js';
export { pyFromJson, type EntryPointArgs, type JsonArgument } from './frontends/python-entry-point.js';
export { parseQasm, QELIB1_GATES, STDGATES } from './frontends/qasm.parser.js';
export { parseQiskit } from './frontends/qiskit.parser.js';
export { parseCirq } from './frontends/cirq.parser.js';
export { detectFramework, type SourceFramework } from './frontends/detect.js';
export { emitQasm2, emitQasm3 } from './emitters/qasm.emitter.js';
export { emitQiskit, emitCirq, emitPennyLane, emitBraket } from './emitters/python.emitter.js';
export {
  parseCircuit,
  emitCircuit,
  transpile,
  targetFramework,
  TARGET_FRAMEWORKS,
  type TargetFramework,
  type ParsedSource,
  type ParseOptions,
} from './convert.js';
export {
  simulate,
  simulationCost,
  finalState,
  stateBytes,
  DEFAULT_MEMORY_LIMIT_BYTES,
  DEFAULT_MAX_STATEVECTOR_QUBITS,
  type SimulateOptions,
  type SimulationResult,
  type SimulationMethod,
} from './simulator/simulate.js';
export { compileProgram } from './simulator/program.js';
export { applyDense1 } from './simulator/kernels.js';
export { createRng } from './simulator/rng.js';
export { circuitUnitary, equivalentUpToGlobalPhase, equalUnitaries } from './simulator/unitary.js';
export { estimateResources, type CircuitResources } from './resources/resources.js';
export {
  planWireCuts,
  fragmentCircuit,
  fragmentTensor,
  reconstructDistribution,
  MAX_CUTS,
  type CutPlan,
  type Fragment,
  type WireCut,
  type Basis,
  type Preparation,
} from './cutting/wire-cut.js';
export { splitCircuit, type SplitResult, type SubcircuitDescription } from './cutting/split-circuit.js';
export { randomCircuit, type RandomCircuitOptions } from './random-circuit.js';
export {
  compileToDevice,
  circuitStats,
  SUPPORTED_NATIVE_SETS,
  type DeviceTarget,
  type CompiledCircuit,
  type CompileOptions,
  type CompileStats,
} from './compile/compile-to-device.js';
export { lineCouplingMap, gridCouplingMap, heavyHex16CouplingMap, type CouplingMap } from './compile/coupling-maps.js';
export { simulateNoisy, DENSITY_MATRIX_MAX_QUBITS, type NoisyMethod, type NoisySimulationOptions, type NoisySimulationResult } from './noise/simulate-noisy.js';
export { validateNoiseModel, noiselessModel, type NoiseModel, type QubitNoise, type EdgeNoise, type GateTimes } from './noise/noise-model.js';
export { validateDeviceSpec, deviceTarget, deviceNoiseSummary, type DeviceSpec, type DeviceNoiseSummary } from './devices/device-spec.js';
