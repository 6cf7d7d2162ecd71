/** Tokens of OpenQASM 2 and 3 source, each with its 1-based line and column. */
import { syntaxError } from '../errors.js';

export type TokenType = 'id' | 'int' | 'float' | 'string' | 'sym' | 'eof';

export interface Token {
  type: TokenType;
  text: string;
  line: number;
  col: number;
}

const SYMBOLS = ['**', '->', '==', '!=', '<=', '>=', '&&', '||', '++', '+=', '-=', '*=', '/=', '<<', '>>', ';', ',', '(', ')', '[', ']', '{', '}', '+', '-', '*', '/', '^', '@', ':', '=', '!', '<', '>', '%', '~', '&', '|'];

export function tokenizeQasm(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = source.length;
  while (i < n) {
    const ch = source[i];
    if (ch === '\n') {
      line++;
      i++;
      lineStart = i;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\f') {
      i++;
      continue;
    }
    if (ch === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (ch === '/' && source[i + 1] === '*') {
      const startLine = line;
      i += 2;
      while (i < n && !(source[i] === '*' && source[i + 1] === '/')) {
        if (source[i] === '\n') {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      if (i >= n) throw syntaxError(startLine, 'unterminated /* comment');
      i += 2;
      continue;
    }
    if (ch === '#' && source.startsWith('#pragma', i)) {
      // Pragmas are hints to a compiler; they do not change what the circuit does.
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    const col = i - lineStart + 1;
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const m = /^(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][+-]?[0-9]+)?/.exec(source.slice(i, i + 64))!;
      const text = m[0];
      tokens.push({ type: /[.eE]/.test(text) ? 'float' : 'int', text: text.replace(/_/g, ''), line, col });
      i += text.length;
      continue;
    }
    if (/[A-Za-z_$π\u0080-\uffff]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(source[j])) j++;
      tokens.push({ type: 'id', text: source.slice(i, j), line, col });
      i = j;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const end = source.indexOf(ch, i + 1);
      if (end < 0 || source.slice(i, end).includes('\n')) throw syntaxError(line, 'unterminated string');
      tokens.push({ type: 'string', text: source.slice(i + 1, end), line, col });
      i = end + 1;
      continue;
    }
    const sym = SYMBOLS.find((s) => source.startsWith(s, i));
    if (!sym) throw syntaxError(line, `unexpected character '${ch}' at column ${col}`);
    tokens.push({ type: 'sym', text: sym, line, col });
    i += sym.length;
  }
  tokens.push({ type: 'eof', text: '<end of file>', line, col: 1 });
  return tokens;
}
