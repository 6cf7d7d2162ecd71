/** Tokens of OpenQASM 2 and 3 source, each with its 1-based line and column. */
import { syntaxError } from '../errors.js';

export type TokenType = 'id' | 'int' | 'float' | 'string' | 'sym' | 'eof';

export interface Token {
  type: TokenType;
  text: string;
  line: number;
  col: number;
}

const SYMBOLS = [
  '**',
  '->',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '++',
  '+=',
  '-=',
  '*=',
  '/=',
  '<<',
  '>>',
  ';',
  ',',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '+',
  '-',
  '*',
  '/',
  '^',
  '@',
  ':',
  '=',
  '!',
  '<',
  '>',
  '%',
  '~',
  '&',
  '|',
];
const TWO_CHAR_SYMBOLS = new Set(SYMBOLS.filter((s) => s.length === 2));
const ONE_CHAR_SYMBOLS = new Set(SYMBOLS.filter((s) => s.length === 1));
/** Sticky: matched at the current position of the whole source, no slicing. */
const NUMBER = /(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?(?:[eE][+-]?[0-9]+)?/y;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** [A-Za-z_$] or any code unit ≥ 0x80 (π and other Unicode identifiers). */
const isIdStart = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c >= 0x80;
const isIdPart = (c: number): boolean => isIdStart(c) || isDigit(c);

export function tokenizeQasm(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const n = source.length;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 10) {
      line++;
      i++;
      lineStart = i;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12) {
      i++;
      continue;
    }
    const next = i + 1 < n ? source.charCodeAt(i + 1) : -1;
    if (c === 47 && next === 47) {
      while (i < n && source.charCodeAt(i) !== 10) i++;
      continue;
    }
    if (c === 47 && next === 42) {
      const startLine = line;
      i += 2;
      while (i < n && !(source.charCodeAt(i) === 42 && source.charCodeAt(i + 1) === 47)) {
        if (source.charCodeAt(i) === 10) {
          line++;
          lineStart = i + 1;
        }
        i++;
      }
      if (i >= n) throw syntaxError(startLine, 'unterminated /* comment');
      i += 2;
      continue;
    }
    if (c === 35 && source.startsWith('#pragma', i)) {
      // Pragmas are hints to a compiler; they do not change what the circuit does.
      while (i < n && source.charCodeAt(i) !== 10) i++;
      continue;
    }
    const col = i - lineStart + 1;
    if (isDigit(c) || (c === 46 && isDigit(next))) {
      NUMBER.lastIndex = i;
      const text = NUMBER.exec(source)![0];
      let float = false;
      let underscore = false;
      for (let k = 0; k < text.length; k++) {
        const d = text.charCodeAt(k);
        if (d === 46 || d === 101 || d === 69) float = true;
        else if (d === 95) underscore = true;
      }
      tokens.push({ type: float ? 'float' : 'int', text: underscore ? text.replace(/_/g, '') : text, line, col });
      i += text.length;
      continue;
    }
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(source.charCodeAt(j))) j++;
      tokens.push({ type: 'id', text: source.slice(i, j), line, col });
      i = j;
      continue;
    }
    if (c === 34 || c === 39) {
      const quote = source[i]!;
      const end = source.indexOf(quote, i + 1);
      if (end < 0 || source.slice(i, end).includes('\n')) throw syntaxError(line, 'unterminated string');
      tokens.push({ type: 'string', text: source.slice(i + 1, end), line, col });
      i = end + 1;
      continue;
    }
    const two = source.slice(i, i + 2);
    const sym = TWO_CHAR_SYMBOLS.has(two) ? two : ONE_CHAR_SYMBOLS.has(source[i]!) ? source[i]! : undefined;
    if (!sym) throw syntaxError(line, `unexpected character '${source[i]}' at column ${col}`);
    tokens.push({ type: 'sym', text: sym, line, col });
    i += sym.length;
  }
  tokens.push({ type: 'eof', text: '<end of file>', line, col: 1 });
  return tokens;
}
