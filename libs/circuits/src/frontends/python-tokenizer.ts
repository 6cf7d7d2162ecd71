/**
 * The tokenizer of the Python subset (python-parser.ts): names, numbers, strings and f-strings, operators, and
 * NEWLINE / INDENT / DEDENT from the indentation, as Python's own tokenizer produces them.
 */
import { syntaxError } from '../errors.js';

export type PyTokenType = 'name' | 'number' | 'string' | 'fstring' | 'op' | 'newline' | 'indent' | 'dedent' | 'eof';
export interface PyToken {
  type: PyTokenType;
  text: string;
  line: number;
}

const OPERATORS = [
  '**=',
  '//=',
  '>>=',
  '<<=',
  '**',
  '//',
  '==',
  '!=',
  '<=',
  '>=',
  '->',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '@=',
  '&=',
  '|=',
  '^=',
  ':=',
  '<<',
  '>>',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '.',
  ';',
  '=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '@',
  '<',
  '>',
  '~',
  '&',
  '|',
  '^',
];

export function tokenizePython(source: string): PyToken[] {
  const tokens: PyToken[] = [];
  const indents = [0];
  let depth = 0; // bracket nesting: newlines inside brackets are not statement ends
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let continued = false;
  for (let li = 0; li < lines.length; li++) {
    const text = lines[li];
    const line = li + 1;
    let i = 0;
    if (depth === 0 && !continued) {
      const indentMatch = /^[ \t]*/.exec(text)![0];
      const rest = text.slice(indentMatch.length);
      if (rest === '' || rest.startsWith('#')) continue;
      const width = indentMatch.replace(/\t/g, '        ').length;
      if (width > indents.at(-1)!) {
        indents.push(width);
        tokens.push({ type: 'indent', text: '<indent>', line });
      } else {
        while (width < indents.at(-1)!) {
          indents.pop();
          tokens.push({ type: 'dedent', text: '<dedent>', line });
        }
        if (width !== indents.at(-1)) throw syntaxError(line, 'inconsistent indentation');
      }
      i = indentMatch.length;
    }
    continued = false;
    while (i < text.length) {
      const ch = text[i];
      if (ch === ' ' || ch === '\t') {
        i++;
        continue;
      }
      if (ch === '#') break;
      if (ch === '\\' && i === text.length - 1) {
        continued = true;
        i++;
        continue;
      }
      const numMatch = /^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|(?:[0-9][0-9_]*)?\.?[0-9_]*(?:[eE][+-]?[0-9]+)?[jJ]?)/.exec(text.slice(i));
      if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
        const t = numMatch![0];
        tokens.push({ type: 'number', text: t.replace(/_/g, ''), line });
        i += t.length;
        continue;
      }
      const strMatch = /^([rRbBuUfF]{0,2})('''|"""|'|")/.exec(text.slice(i));
      if (strMatch && (strMatch[1] === '' || /^[a-zA-Z]+$/.test(strMatch[1]))) {
        const prefix = strMatch[1].toLowerCase();
        const quote = strMatch[2];
        let j = i + strMatch[0].length;
        let value = '';
        let curLine = li;
        let curText = text;
        for (;;) {
          if (j >= curText.length) {
            if (quote.length === 1) throw syntaxError(line, 'unterminated string');
            curLine++;
            if (curLine >= lines.length) throw syntaxError(line, 'unterminated string');
            curText = lines[curLine];
            value += '\n';
            j = 0;
            continue;
          }
          if (curText.startsWith(quote, j)) break;
          if (curText[j] === '\\' && !prefix.includes('r')) {
            const esc = curText[j + 1] ?? '';
            value += esc === 'n' ? '\n' : esc === 't' ? '\t' : esc === 'r' ? '\r' : esc === '0' ? '\0' : esc;
            j += 2;
            continue;
          }
          value += curText[j++];
        }
        tokens.push({ type: prefix.includes('f') ? 'fstring' : 'string', text: value, line });
        if (curLine !== li) {
          // A triple-quoted string spanning lines: continue after it on its last line.
          li = curLine;
          lines[li] = ' '.repeat(j + quote.length) + curText.slice(j + quote.length);
          i = j + quote.length;
          const rest = lines[li].slice(i);
          if (rest.trim() === '' || rest.trim().startsWith('#')) break;
          continue;
        }
        i = j + quote.length;
        continue;
      }
      if (/[A-Za-z_\u0080-\uffff]/.test(ch)) {
        const m = /^[A-Za-z_0-9\u0080-\uffff]+/.exec(text.slice(i))![0];
        tokens.push({ type: 'name', text: m, line });
        i += m.length;
        continue;
      }
      const op = OPERATORS.find((o) => text.startsWith(o, i));
      if (!op) throw syntaxError(line, `unexpected character '${ch}'`);
      if (op === '(' || op === '[' || op === '{') depth++;
      if (op === ')' || op === ']' || op === '}') depth = Math.max(0, depth - 1);
      tokens.push({ type: 'op', text: op, line });
      i += op.length;
    }
    if (
      depth === 0 &&
      !continued &&
      tokens.length &&
      tokens.at(-1)!.type !== 'newline' &&
      tokens.at(-1)!.type !== 'indent' &&
      tokens.at(-1)!.type !== 'dedent'
    ) {
      tokens.push({ type: 'newline', text: '<newline>', line });
    }
  }
  const last = lines.length;
  if (tokens.length && tokens.at(-1)!.type !== 'newline') tokens.push({ type: 'newline', text: '<newline>', line: last });
  while (indents.length > 1) {
    indents.pop();
    tokens.push({ type: 'dedent', text: '<dedent>', line: last });
  }
  tokens.push({ type: 'eof', text: '<end of file>', line: last });
  return tokens;
}
