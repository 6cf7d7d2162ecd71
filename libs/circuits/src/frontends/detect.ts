/**
 * Which language a circuit source is written in: an OPENQASM header decides for OpenQASM;
 * otherwise imports and calls decide between Qiskit and Cirq; headerless QASM is recognised by
 * its declarations.
 */
import { CircuitError } from '../errors.js';

export type SourceFramework = 'qiskit' | 'cirq' | 'openqasm2' | 'openqasm3';

export function detectFramework(source: string): SourceFramework {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const header = /^\s*OPENQASM\s+([0-9.]+)\s*;/m.exec(code);
  if (header) return header[1].startsWith('3') ? 'openqasm3' : 'openqasm2';
  const python = source.replace(/#.*$/gm, '');
  if (/^\s*(import\s+cirq\b|from\s+cirq\b)/m.test(python) || /\bcirq\.\w/.test(python)) return 'cirq';
  if (/^\s*(import\s+qiskit\b|from\s+qiskit\b)/m.test(python) || /\bQuantumCircuit\s*\(/.test(python)) return 'qiskit';
  if (/^\s*(import\s+pennylane|from\s+pennylane)/m.test(python))
    throw new CircuitError(
      'unsupported',
      'PennyLane source can be produced (target "pennylane") but not read; send Qiskit, Cirq, OpenQASM 2 or OpenQASM 3',
      undefined,
      'pennylane',
    );
  if (/^\s*(import\s+braket|from\s+braket)/m.test(python))
    throw new CircuitError(
      'unsupported',
      'Amazon Braket source can be produced (target "braket") but not read; send Qiskit, Cirq, OpenQASM 2 or OpenQASM 3',
      undefined,
      'braket',
    );
  if (/^\s*include\s+"stdgates\.inc"/m.test(code) || /^\s*(qubit|bit)(\s*\[[^\]]*\])?\s+[A-Za-z_]\w*\s*;/m.test(code)) return 'openqasm3';
  if (/^\s*(qreg|creg)\s+[A-Za-z_]\w*\s*\[/m.test(code) || /^\s*include\s+"qelib1\.inc"/m.test(code)) return 'openqasm2';
  throw new CircuitError(
    'syntax',
    'cannot tell the language of the code: expected OpenQASM 2 or 3 (an OPENQASM header), Qiskit Python (from qiskit import QuantumCircuit) or Cirq Python (import cirq)',
  );
}
