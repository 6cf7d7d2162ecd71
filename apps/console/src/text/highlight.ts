/**
 * A small syntax highlighter for the code the assistant writes: Python (Qiskit, Cirq) and OpenQASM 2/3. One pass of
 * a sticky regular expression per language; every character lands in exactly one token, so joining the tokens
 * gives the source back (the Copy button copies the source, never the markup).
 */
export type TokenKind = 'keyword' | 'builtin' | 'function' | 'string' | 'number' | 'comment' | 'operator' | 'plain';
export interface Token {
  kind: TokenKind;
  text: string;
}
export type CodeLanguage = 'python' | 'qasm' | 'plain';

const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break case class continue def del elif else except finally for from global if import in is lambda match nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
const PYTHON_BUILTINS = new Set('print range len list dict set tuple int float str bool abs min max sum enumerate zip self'.split(' '));
const QASM_KEYWORDS = new Set(
  'OPENQASM include qreg creg qubit bit gate opaque measure reset barrier if else for while in return def defcal cal input output let const box delay stretch duration angle float int uint bool complex ctrl negctrl inv pow extern switch case default break continue'.split(
    ' ',
  ),
);
const QASM_BUILTINS = new Set(
  'U CX u u1 u2 u3 p x y z h s sdg t tdg sx sxdg rx ry rz cx cy cz ch swap ccx cswap crx cry crz cp cu1 cu3 id pi π tau euler'.split(' '),
);

/** Python: comments, (triple-quoted, prefixed) strings, numbers, identifiers, operators, whitespace, anything else. */
const PYTHON =
  /(#[^\n]*)|((?:[rRbBuUfF]{1,2})?(?:'''[\s\S]*?(?:'''|$)|"""[\s\S]*?(?:"""|$)|'(?:\\.|[^'\\\n])*'?|"(?:\\.|[^"\\\n])*"?))|((?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?)[jJ]?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/%=<>!&|^~@:.,;()[\]{}]+)|(\s+)|([\s\S])/y;
/** OpenQASM: line and block comments, strings, numbers, identifiers (incl. π), operators, whitespace, anything else. */
const QASM =
  /(\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$))|("(?:\\.|[^"\\\n])*"?)|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?(?:ns|us|µs|ms|s|dt|im)?)|([A-Za-z_π][A-Za-z0-9_]*)|([-+*/%=<>!&|^~@:.,;()[\]{}]+|->)|(\s+)|([\s\S])/y;

export function highlight(source: string, language: CodeLanguage): Token[] {
  if (language === 'plain') return source ? [{ kind: 'plain', text: source }] : [];
  const pattern = language === 'python' ? PYTHON : QASM;
  const keywords = language === 'python' ? PYTHON_KEYWORDS : QASM_KEYWORDS;
  const builtins = language === 'python' ? PYTHON_BUILTINS : QASM_BUILTINS;
  const tokens: Token[] = [];
  const push = (kind: TokenKind, text: string) => {
    const last = tokens.at(-1);
    if (last && last.kind === kind) last.text += text;
    else tokens.push({ kind, text });
  };
  pattern.lastIndex = 0;
  for (let m = pattern.exec(source); m; m = pattern.exec(source)) {
    const [, comment, string, number, word, operator] = m;
    if (comment !== undefined) push('comment', comment);
    else if (string !== undefined) push('string', string);
    else if (number !== undefined) push('number', number);
    else if (word !== undefined) {
      if (keywords.has(word)) push('keyword', word);
      else if (builtins.has(word)) push('builtin', word);
      else if (source[pattern.lastIndex] === '(') push('function', word);
      else push('plain', word);
    } else if (operator !== undefined) push('operator', operator);
    else push('plain', m[0]);
    if (pattern.lastIndex >= source.length) break;
  }
  return tokens;
}

/** The language of a fenced block from its info string, else from its first line (OPENQASM …), else plain. */
export function languageOf(info: string, source: string): CodeLanguage {
  const tag = info.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (['python', 'py', 'python3', 'qiskit', 'cirq', 'pennylane', 'braket'].includes(tag)) return 'python';
  if (['qasm', 'openqasm', 'openqasm2', 'openqasm3', 'qasm2', 'qasm3'].includes(tag)) return 'qasm';
  if (tag) return 'plain';
  if (/^\s*(\/\/[^\n]*\n\s*)*OPENQASM\b/.test(source)) return 'qasm';
  if (/^\s*(from|import)\s+\w+/m.test(source)) return 'python';
  return 'plain';
}
