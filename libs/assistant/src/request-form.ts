/**
 * The form a request asks for: a Python scaffold (`def name(params):`, with or without a body or
 * docstring) means the answer is that function, same name and parameters, returning the circuit;
 * "only the source" means the answer is the code and nothing else.
 */
import type { Framework } from './frameworks.js';

export interface Scaffold {
  name: string;
  /** The parameter list as written (annotations and defaults kept). */
  params: string;
  /** Parameters without a default: the function is called with them when the answer is checked. */
  required: string[];
  /** Every parameter's name, in order. */
  names: string[];
  /** Defaults as written (`n: int = 4` → n: '4'). */
  defaults: Record<string, string>;
  /** The return annotation as written (` -> QuantumCircuit`), or ''. */
  returns: string;
  docstring?: string;
}

const DEF = /^[ \t]*def\s+([A-Za-z_]\w*)\s*\(([^)]*)\)\s*(->\s*[^:\n]+)?:/m;

export function scaffoldIn(text: string): Scaffold | undefined {
  const m = DEF.exec(text);
  if (!m) return undefined;
  const params = m[2].trim();
  const list = splitParams(params).filter((p) => p && !p.startsWith('*') && p !== 'self');
  const nameOf = (p: string) => p.split(/[:=]/)[0].trim();
  const required = list.filter((p) => !p.includes('=')).map(nameOf);
  const defaults = Object.fromEntries(list.filter((p) => p.includes('=')).map((p) => [nameOf(p), p.slice(p.indexOf('=') + 1).trim()]));
  const after = text.slice(m.index + m[0].length);
  const doc = /^\s*("""|''')([\s\S]*?)\1/.exec(after);
  return {
    name: m[1],
    params,
    required,
    names: list.map(nameOf),
    defaults,
    returns: m[3] ? ` ${m[3].trim()}` : '',
    ...(doc ? { docstring: dedent(doc[2]) } : {}),
  };
}

/** Parameters split at top-level commas (a default may hold a list or a call). */
function splitParams(params: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of params) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

function dedent(text: string): string {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/** True when the request wants the source and nothing else. */
export function wantsSourceOnly(text: string): boolean {
  return /\b(return|give|output|reply with|answer with)\s+(me\s+)?(only|just)\s+(the\s+)?(complete\s+|full\s+)?(python\s+)?(source|code)\b|\bno explanations?\b|\bcode only\b|\bsource only\b/i.test(
    text,
  );
}

/** The circuit variable of emitted code: `qc` (Qiskit) or `circuit` (Cirq). */
const RESULT_NAME: Partial<Record<Framework, string>> = { qiskit: 'qc', cirq: 'circuit' };

/**
 * Emitted top-level code (imports, a blank line, statements) as the scaffold's function: imports
 * stay at module level, the statements become its body, and it returns the circuit.
 */
export function asFunction(code: string, framework: Framework, scaffold: Scaffold, note?: string): string {
  const result = RESULT_NAME[framework];
  if (!result) throw new Error(`no function form for ${framework}`);
  const lines = code.trimEnd().split('\n');
  const split = lines.indexOf('');
  const imports = lines.slice(0, split);
  const body = lines.slice(split + 1);
  const doc = scaffold.docstring ? [`    """`, ...scaffold.docstring.split('\n').map((l) => (l ? `    ${l}` : '')), `    """`] : [];
  const comment = note ? note.split('\n').map((l) => `    # ${l}`) : [];
  return `${[...imports, '', '', `def ${scaffold.name}(${scaffold.params})${scaffold.returns}:`, ...doc, ...comment, ...body.map((l) => (l ? `    ${l}` : '')), `    return ${result}`].join('\n')}\n`;
}
