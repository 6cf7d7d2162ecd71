/** The frameworks the assistant writes circuits in (the six targets of libs/circuits). */
import type { TargetFramework } from '#qdc/circuits';

export type Framework = TargetFramework;

const PATTERNS: [RegExp, Framework][] = [
  [/\bpenny\s*lane\b|\bqml\b/i, 'pennylane'],
  [/\bbraket\b/i, 'braket'],
  [/\bcirq\b/i, 'cirq'],
  [/\b(open\s*)?qasm\s*-?\s*2(\.0)?\b/i, 'openqasm2'],
  [/\b(open\s*)?qasm\s*-?\s*3(\.0)?\b/i, 'openqasm3'],
  [/\bopen\s*qasm\b|\bqasm\b/i, 'openqasm3'],
  [/\bqiskit\b/i, 'qiskit'],
];

/** The framework a message names, or undefined when it names none. */
export function frameworkIn(text: string): Framework | undefined {
  for (const [re, fw] of PATTERNS) if (re.test(text)) return fw;
  return undefined;
}

export const FRAMEWORK_LABEL: Record<Framework, string> = {
  qiskit: 'Qiskit',
  cirq: 'Cirq',
  pennylane: 'PennyLane',
  openqasm2: 'OpenQASM 2',
  openqasm3: 'OpenQASM 3',
  braket: 'Amazon Braket',
};

/** Code-fence language and file extension of a framework's source. */
export function codeLanguage(fw: Framework): { fence: string; language: string; extension: string } {
  if (fw === 'openqasm2' || fw === 'openqasm3') return { fence: 'qasm', language: 'openqasm', extension: 'qasm' };
  return { fence: 'python', language: 'python', extension: 'py' };
}
