/** Fenced code blocks in model output (```lang … ```), and which of them hold circuits. */
export interface CodeBlock {
  language: string;
  code: string;
  /** Offsets of the whole fence in the text. */
  start: number;
  end: number;
}

export function codeBlocks(text: string): CodeBlock[] {
  const out: CodeBlock[] = [];
  const re = /```([\w+-]*)[^\n]*\n([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push({ language: m[1].toLowerCase(), code: m[2], start: m.index, end: m.index + m[0].length });
  return out;
}

/** True when a block is circuit source (OpenQASM, or Python that imports a quantum SDK). */
export function isCircuitBlock(block: CodeBlock): boolean {
  if (/^\s*OPENQASM\s/m.test(block.code)) return true;
  return /\b(from|import)\s+(qiskit|cirq|pennylane|braket)\b/.test(block.code);
}
