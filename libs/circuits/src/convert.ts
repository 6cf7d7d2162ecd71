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
import type { PythonParseOptions } from './frontends/python-entry-point.js';
import { emitQasm2, emitQasm3 } from './emitters/qasm.emitter.js';
import { emitBraket, emitCirq, emitPennyLane, emitQiskit } from './emitters/python.emitter.js';

export const TARGET_FRAMEWORKS = ['qiskit', 'cirq', 'openqasm2', 'openqasm3', 'pennylane', 'braket'] as const;
export type TargetFramework = (typeof TARGET_FRAMEWORKS)[number];

const TARGET_ALIASES: Record<string, TargetFramework> = {
  qasm2: 'openqasm2',
  qasm3: 'openqasm3',
  qasm: 'openqasm3',
  openqasm: 'openqasm3',
  'amazon-braket': 'braket',
  amazon_braket: 'braket',
};

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

/** Options of parseCircuit: `entryPoint` names the Python function whose returned circuit is meant (request field `entry_point`). */
export type ParseOptions = PythonParseOptions;

export function parseCircuit(source: string, options: ParseOptions = {}): ParsedSource {
  if (!source.trim()) throw new CircuitError('syntax', 'the code is empty');
  try {
    return parseDetected(source, options);
  } catch (error) {
    throw asLimitError(error);
  }
}

function parseDetected(source: string, options: ParseOptions): ParsedSource {
  const framework = detectFramework(source);
  if (options.entryPoint !== undefined && (framework === 'openqasm2' || framework === 'openqasm3')) {
    throw new CircuitError(
      'semantic',
      `entry_point '${options.entryPoint}' names a Python function, but the source is ${framework === 'openqasm2' ? 'OpenQASM 2' : 'OpenQASM 3'}; functions found: none`,
    );
  }
  switch (framework) {
    case 'openqasm2':
      return { framework, circuit: parseQasm(source, 2).circuit };
    case 'openqasm3':
      return { framework, circuit: parseQasm(source, 3, options).circuit };
    case 'qiskit':
      return { framework, circuit: parseQiskit(source, options) };
    case 'cirq':
      return { framework, circuit: parseCirq(source, options) };
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

export function transpile(
  source: string,
  target: string,
  options: ParseOptions = {},
): { sourceFramework: SourceFramework; targetFramework: TargetFramework; code: string } {
  const t = targetFramework(target);
  const { framework, circuit } = parseCircuit(source, options);
  return { sourceFramework: framework, targetFramework: t, code: emitCircuit(circuit, t) };
}
