/**
 * The toolchain's entry points: parse any supported source (language detected), and convert it
 * to any of the six targets.
 */
import { asLimitError } from './limits.js';
import { CircuitError } from './errors.js';
import type { Circuit } from './ir/circuit.js';
import { detectFramework, type SourceFramework } from './frontends/detect.js';
import { parseQasm } from './frontends/qasm.parser.js';
import { parseQiskit } from './frontends/qiskit.parser.js';
import { parseCirq } from './frontends/cirq.parser.js';
import { emitQasm2, emitQasm3 } from './emitters/qasm.emitter.js';
import { emitBraket, emitCirq, emitPennyLane, emitQiskit } from './emitters/python.emitter.js';

export const TARGET_FRAMEWORKS = ['qiskit', 'cirq', 'openqasm2', 'openqasm3', 'pennylane', 'braket'] as const;
export type TargetFramework = (typeof TARGET_FRAMEWORKS)[number];

const TARGET_ALIASES: Record<string, TargetFramework> = { qasm2: 'openqasm2', qasm3: 'openqasm3', qasm: 'openqasm3', openqasm: 'openqasm3', 'amazon-braket': 'braket', amazon_braket: 'braket' };

/** The canonical target name for what a caller wrote (`QASM3`, `openqasm3`, …), or an error listing the choices. */
export function targetFramework(name: string): TargetFramework {
  const lower = name.trim().toLowerCase();
  const t = (TARGET_FRAMEWORKS as readonly string[]).includes(lower) ? (lower as TargetFramework) : TARGET_ALIASES[lower];
  if (!t) throw new CircuitError('semantic', `unknown target '${name}'; expected one of ${TARGET_FRAMEWORKS.join(', ')}`);
  return t;
}

export interface ParsedSource {
  framework: SourceFramework;
  circuit: Circuit;
}

export function parseCircuit(source: string): ParsedSource {
  if (!source.trim()) throw new CircuitError('syntax', 'the code is empty');
  try {
    return parseDetected(source);
  } catch (error) {
    throw asLimitError(error);
  }
}

function parseDetected(source: string): ParsedSource {
  const framework = detectFramework(source);
  switch (framework) {
    case 'openqasm2':
      return { framework, circuit: parseQasm(source, 2).circuit };
    case 'openqasm3':
      return { framework, circuit: parseQasm(source, 3).circuit };
    case 'qiskit':
      return { framework, circuit: parseQiskit(source) };
    case 'cirq':
      return { framework, circuit: parseCirq(source) };
  }
}

export function emitCircuit(circuit: Circuit, target: TargetFramework): string {
  switch (target) {
    case 'qiskit':
      return emitQiskit(circuit);
    case 'cirq':
      return emitCirq(circuit);
    case 'openqasm2':
      return emitQasm2(circuit);
    case 'openqasm3':
      return emitQasm3(circuit);
    case 'pennylane':
      return emitPennyLane(circuit);
    case 'braket':
      return emitBraket(circuit);
  }
}

export function transpile(source: string, target: string): { sourceFramework: SourceFramework; targetFramework: TargetFramework; code: string } {
  const t = targetFramework(target);
  const { framework, circuit } = parseCircuit(source);
  return { sourceFramework: framework, targetFramework: t, code: emitCircuit(circuit, t) };
}
