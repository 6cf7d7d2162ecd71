/**
 * The Qiskit front end's objects and names: the Python values it adds (registers, bits, circuits, gates,
 * parameters, instruction sets, bound methods, gate classes, if_test blocks) and the tables that map Qiskit's
 * names to the IR (gate methods and classes, keyword arguments, modules, names accepted and ignored).
 */
import { STANDARD_GATES } from '../ir/gates.js';
import type { Circuit, Condition, GateDefinition, Operation, Register } from '../ir/circuit.js';
import type { Expr } from '../ir/expr.js';
import type { PyObject, PyValue } from './python-objects.js';

export interface RegisterValue extends PyObject {
  kind: 'qreg' | 'creg';
  name: string;
  size: number;
  iterable: true;
  items: PyValue[];
}
export interface BitValue extends PyObject {
  kind: 'qbit' | 'cbit';
  reg: RegisterValue;
  index: number;
}
export interface CircuitValue extends PyObject {
  kind: 'qc';
  circuit: Circuit;
  regs: Map<RegisterValue, Register>;
  qubitRefs: PyValue[];
  clbitRefs: PyValue[];
  condition?: Condition;
  /** The circuit's `name` (base of the gate name `to_gate()` gives it). */
  name?: string;
}
export interface GateValue extends PyObject {
  kind: 'gate';
  name: string;
  params: number[];
  qubits: number;
  controls: number;
  inverse: boolean;
  /** Integer power: repetitions (of the inverse when negative); 1 when absent. */
  power?: number;
  /** Control state over all controls (extra and built-in), bit i = control argument i; absent: all ones. */
  ctrlState?: number;
  /** Custom definitions the gate needs: its own (for a custom gate) and those its body uses. */
  defs?: Map<string, GateDefinition>;
  /** Parameters with unbound `Parameter`s (then `params` is unused). */
  symbolic?: Expr[];
}
/** A `Parameter` (or an element of a `ParameterVector`), or an expression of them. */
export interface ParamValue extends PyObject {
  kind: 'param';
  expr: Expr;
}
export interface ParamVector extends PyObject {
  kind: 'paramvec';
  name: string;
  size: number;
  iterable: true;
  items: PyValue[];
}
export interface InstructionSet extends PyObject {
  kind: 'iset';
  ops: Operation[];
  qc: CircuitValue;
}
export interface MethodValue extends PyObject {
  kind: 'method';
  qc: CircuitValue;
  name: string;
}
export interface GateClass extends PyObject {
  kind: 'gateclass';
  name: string;
}
export interface IfTest extends PyObject {
  kind: 'iftest';
  qc: CircuitValue;
  condition: Condition;
}

/** Qiskit method → [IR gate, parameters, qubits, extra controls]. */
export const GATE_METHODS: Record<string, [string, number, number, number?]> = {
  h: ['h', 0, 1],
  x: ['x', 0, 1],
  y: ['y', 0, 1],
  z: ['z', 0, 1],
  s: ['s', 0, 1],
  sdg: ['sdg', 0, 1],
  t: ['t', 0, 1],
  tdg: ['tdg', 0, 1],
  sx: ['sx', 0, 1],
  sxdg: ['sxdg', 0, 1],
  id: ['id', 0, 1],
  i: ['id', 0, 1],
  rx: ['rx', 1, 1],
  ry: ['ry', 1, 1],
  rz: ['rz', 1, 1],
  p: ['p', 1, 1],
  u1: ['u1', 1, 1],
  u2: ['u2', 2, 1],
  u3: ['u3', 3, 1],
  u: ['u', 3, 1],
  cx: ['cx', 0, 2],
  cnot: ['cx', 0, 2],
  cy: ['cy', 0, 2],
  cz: ['cz', 0, 2],
  ch: ['ch', 0, 2],
  swap: ['swap', 0, 2],
  iswap: ['iswap', 0, 2],
  ecr: ['ecr', 0, 2],
  ccx: ['ccx', 0, 3],
  toffoli: ['ccx', 0, 3],
  cswap: ['cswap', 0, 3],
  fredkin: ['cswap', 0, 3],
  ccz: ['ccz', 0, 3],
  crx: ['crx', 1, 2],
  cry: ['cry', 1, 2],
  crz: ['crz', 1, 2],
  cp: ['cp', 1, 2],
  cu1: ['cu1', 1, 2],
  cu3: ['cu3', 3, 2],
  cu: ['cu', 4, 2],
  rxx: ['rxx', 1, 2],
  ryy: ['ryy', 1, 2],
  rzz: ['rzz', 1, 2],
  csx: ['csx', 0, 2],
  cs: ['s', 0, 2, 1],
  csdg: ['sdg', 0, 2, 1],
};

/** Gate classes of qiskit.circuit.library → Qiskit method with the same meaning. */
export const GATE_CLASSES: Record<string, string> = {
  HGate: 'h',
  XGate: 'x',
  YGate: 'y',
  ZGate: 'z',
  SGate: 's',
  SdgGate: 'sdg',
  TGate: 't',
  TdgGate: 'tdg',
  SXGate: 'sx',
  SXdgGate: 'sxdg',
  IGate: 'id',
  RXGate: 'rx',
  RYGate: 'ry',
  RZGate: 'rz',
  PhaseGate: 'p',
  U1Gate: 'u1',
  U2Gate: 'u2',
  U3Gate: 'u3',
  UGate: 'u',
  CXGate: 'cx',
  CYGate: 'cy',
  CZGate: 'cz',
  CHGate: 'ch',
  SwapGate: 'swap',
  iSwapGate: 'iswap',
  ECRGate: 'ecr',
  CCXGate: 'ccx',
  CSwapGate: 'cswap',
  CCZGate: 'ccz',
  CRXGate: 'crx',
  CRYGate: 'cry',
  CRZGate: 'crz',
  CPhaseGate: 'cp',
  CU1Gate: 'cu1',
  CU3Gate: 'cu3',
  CUGate: 'cu',
  RXXGate: 'rxx',
  RYYGate: 'ryy',
  RZZGate: 'rzz',
  CSXGate: 'csx',
  CSGate: 'cs',
  CSdgGate: 'csdg',
  MCXGate: 'mcx',
};

export const PARAM_KWARGS = ['theta', 'phi', 'lam', 'lambda_', 'gamma'];
export const QUBIT_KWARGS = [
  'qubit',
  'control_qubit',
  'target_qubit',
  'qubit1',
  'qubit2',
  'control_qubit1',
  'control_qubit2',
  'target_qubit1',
  'target_qubit2',
];

/** Names whose only job is to run, transpile or show a circuit: accepted and ignored. */
export const EXECUTION_NAMES = new Set([
  'transpile',
  'execute',
  'Aer',
  'AerSimulator',
  'BasicAer',
  'BasicSimulator',
  'Sampler',
  'StatevectorSampler',
  'Estimator',
  'StatevectorEstimator',
  'SamplerV2',
  'EstimatorV2',
  'plot_histogram',
  'plot_bloch_multivector',
  'plot_state_city',
  'Statevector',
  'QiskitRuntimeService',
  'generate_preset_pass_manager',
  'FakeManilaV2',
  'FakeBrisbane',
]);
export const EXECUTION_MODULES = [
  'qiskit_aer',
  'qiskit.providers',
  'qiskit.primitives',
  'qiskit.visualization',
  'qiskit.quantum_info',
  'qiskit_ibm_runtime',
  'qiskit.transpiler',
  'qiskit.compiler',
  'matplotlib',
  'qiskit.result',
];
export const QISKIT_MODULES = [
  'qiskit',
  'qiskit.circuit',
  'qiskit.circuit.library',
  'qiskit.circuit.library.standard_gates',
  'qiskit.circuit.library.generalized_gates',
  'qiskit.circuit.library.basis_change',
  'qiskit.circuit.library.data_preparation',
  'qiskit.extensions',
];
/** Library circuits and gates built here from their published definitions (see gate-library.ts). */
export const LIBRARY_NAMES = new Set([
  'QFT',
  'QFTGate',
  'GroverOperator',
  'grover_operator',
  'MCMT',
  'MCMTGate',
  'UnitaryGate',
  'Diagonal',
  'DiagonalGate',
  'StatePreparation',
  'Initialize',
  'MCPhaseGate',
  'Operator',
  'RealAmplitudes',
  'real_amplitudes',
  'EfficientSU2',
  'efficient_su2',
]);

/** Built-in controls of a standard gate (`cx` has 1); custom gates have none. */
export const builtinControls = (g: { name: string }): number => STANDARD_GATES.get(g.name)?.controls ?? 0;
/** Rotation-like gates whose non-integer power scales the angle. */
export const ANGLE_POWER = new Set(['rx', 'ry', 'rz', 'p', 'u1', 'rxx', 'ryy', 'rzz', 'crx', 'cry', 'crz', 'cp', 'cu1']);
