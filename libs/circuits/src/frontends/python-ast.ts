/**
 * A tokenizer and parser for the statement and expression forms that circuit-building Python
 * uses (imports, assignments, calls, for loops, with blocks, comprehensions). It builds an AST
 * that the Qiskit and Cirq front ends interpret over their own restricted values; nothing is
 * ever executed by Python. Anything else is a line-numbered `unsupported construct` error.
 */
import { syntaxError, unsupported } from '../errors.js';
import { enterNesting } from '../limits.js';

type PyTokenType = 'name' | 'number' | 'string' | 'op' | 'newline' | 'indent' | 'dedent' | 'eof';
interface PyToken {
  type: PyTokenType;
  text: string;
  line: number;
}

export type PyExpr =
  | { t: 'num'; v: number; line: number; imag?: true }
  | { t: 'str'; v: string; line: number }
  | { t: 'const'; v: boolean | null; line: number }
  | { t: 'name'; id: string; line: number }
  | { t: 'attr'; obj: PyExpr; name: string; line: number }
  | { t: 'call'; fn: PyExpr; args: PyArg[]; kwargs: { name: string; value: PyExpr }[]; line: number }
  | { t: 'index'; obj: PyExpr; index: PyIndex; line: number }
  | { t: 'bin'; op: string; a: PyExpr; b: PyExpr; line: number }
  | { t: 'unary'; op: string; a: PyExpr; line: number }
  | { t: 'list'; items: PyArg[]; line: number }
  | { t: 'tuple'; items: PyArg[]; line: number }
  | { t: 'comp'; elt: PyExpr; target: PyExpr; iter: PyExpr; line: number }
  | { t: 'compare'; op: string; a: PyExpr; b: PyExpr; line: number };

export type PyArg = PyExpr | { t: 'star'; value: PyExpr; line: number };
export type PySlice = { t: 'slice'; lo?: PyExpr; hi?: PyExpr; step?: PyExpr; line: number };
/** A subscript: one index or slice, or several (`a[i, j]`, `a[:, 0]`) for numpy arrays. */
export type PyIndex = PyExpr | PySlice | { t: 'multi'; items: (PyExpr | PySlice)[]; line: number };

export type PyStmt =
  | { t: 'import'; module: string; alias?: string; line: number }
  | { t: 'from'; module: string; names: { name: string; alias?: string }[]; line: number }
  | { t: 'assign'; targets: PyExpr[]; value: PyExpr; line: number }
  | { t: 'augassign'; target: PyExpr; op: string; value: PyExpr; line: number }
  | { t: 'expr'; value: PyExpr; line: number }
  | { t: 'for'; target: PyExpr; iter: PyExpr; body: PyStmt[]; line: number }
  | { t: 'with'; item: PyExpr; alias?: string; body: PyStmt[]; line: number }
  | { t: 'ifmain'; body: PyStmt[]; line: number }
  | { t: 'pass'; line: number };

const OPERATORS = ['**=', '//=', '>>=', '<<=', '**', '//', '==', '!=', '<=', '>=', '->', '+=', '-=', '*=', '/=', '%=', '@=', '&=', '|=', '^=', ':=', '<<', '>>', '(', ')', '[', ']', '{', '}', ',', ':', '.', ';', '=', '+', '-', '*', '/', '%', '@', '<', '>', '~', '&', '|', '^'];

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
        if (prefix.includes('f')) throw unsupported(line, 'f-string', 'formatted strings are outside the supported subset');
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
            value += curText[j + 1] === 'n' ? '\n' : (curText[j + 1] ?? '');
            j += 2;
            continue;
          }
          value += curText[j++];
        }
        tokens.push({ type: 'string', text: value, line });
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
    if (depth === 0 && !continued && tokens.length && tokens.at(-1)!.type !== 'newline' && tokens.at(-1)!.type !== 'indent' && tokens.at(-1)!.type !== 'dedent') {
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

const UNSUPPORTED_STATEMENTS: Record<string, string> = {
  def: 'function definitions are outside the supported subset; write the circuit at top level',
  class: 'classes are outside the supported subset',
  while: 'while loops are outside the supported subset; use for … in range(…)',
  if: 'if statements are outside the supported subset (only `if __name__ == "__main__":` is accepted)',
  try: 'try blocks are outside the supported subset',
  return: 'return is outside the supported subset',
  lambda: 'lambdas are outside the supported subset',
  global: 'global is outside the supported subset',
  del: 'del is outside the supported subset',
  async: 'async code is outside the supported subset',
  await: 'await is outside the supported subset',
  yield: 'yield is outside the supported subset',
  raise: 'raise is outside the supported subset',
  assert: 'assert is outside the supported subset',
  exec: 'exec is never run',
  eval: 'eval is never run',
};

export function parsePython(source: string): PyStmt[] {
  const parser = new PyParser(tokenizePython(source));
  return parser.module();
}

class PyParser {
  private pos = 0;
  private readonly nesting = { depth: 0 };

  constructor(private readonly tokens: PyToken[]) {}

  private peek(o = 0): PyToken {
    return this.tokens[Math.min(this.pos + o, this.tokens.length - 1)];
  }
  private next(): PyToken {
    return this.tokens[this.pos < this.tokens.length - 1 ? this.pos++ : this.pos];
  }
  private isOp(text: string, o = 0): boolean {
    const t = this.peek(o);
    return t.type === 'op' && t.text === text;
  }
  private isName(text: string, o = 0): boolean {
    const t = this.peek(o);
    return t.type === 'name' && t.text === text;
  }
  private acceptName(text: string): boolean {
    if (this.isName(text)) {
      this.pos++;
      return true;
    }
    return false;
  }
  private acceptOp(text: string): boolean {
    if (this.isOp(text)) {
      this.pos++;
      return true;
    }
    return false;
  }
  private expectOp(text: string, what = ''): void {
    const t = this.peek();
    if (!this.acceptOp(text)) throw syntaxError(t.line, `expected '${text}'${what}; got '${t.text}'`);
  }
  private name(what: string): PyToken {
    const t = this.next();
    if (t.type !== 'name') throw syntaxError(t.line, `expected ${what}; got '${t.text}'`);
    return t;
  }

  module(): PyStmt[] {
    const out: PyStmt[] = [];
    while (this.peek().type !== 'eof') {
      if (this.peek().type === 'newline') {
        this.next();
        continue;
      }
      if (this.peek().type === 'indent') throw syntaxError(this.peek().line, 'unexpected indentation');
      out.push(...this.statement());
    }
    return out;
  }

  private block(): PyStmt[] {
    this.expectOp(':', ' to start the block');
    if (this.peek().type !== 'newline') {
      const simple = this.simpleStatements();
      return simple;
    }
    this.next();
    if (this.peek().type !== 'indent') throw syntaxError(this.peek().line, 'expected an indented block');
    this.next();
    const body: PyStmt[] = [];
    while (this.peek().type !== 'dedent' && this.peek().type !== 'eof') {
      if (this.peek().type === 'newline') {
        this.next();
        continue;
      }
      body.push(...this.statement());
    }
    if (this.peek().type === 'dedent') this.next();
    return body;
  }

  private statement(): PyStmt[] {
    const t = this.peek();
    if (t.type === 'op' && t.text === '@') throw unsupported(t.line, 'decorator', 'decorators are outside the supported subset');
    if (t.type === 'name') {
      if (t.text === 'for') return [this.forStatement()];
      if (t.text === 'with') return [this.withStatement()];
      if (t.text === 'if' && this.isName('__name__', 1)) {
        this.next();
        this.next();
        this.expectOp('==');
        const s = this.next();
        if (s.type !== 'string' || s.text !== '__main__') throw unsupported(t.line, 'if', UNSUPPORTED_STATEMENTS.if);
        return [{ t: 'ifmain', body: this.block(), line: t.line }];
      }
      if (t.text in UNSUPPORTED_STATEMENTS) throw unsupported(t.line, t.text, UNSUPPORTED_STATEMENTS[t.text]);
    }
    return this.simpleStatements();
  }

  private simpleStatements(): PyStmt[] {
    const out: PyStmt[] = [this.simpleStatement()];
    while (this.acceptOp(';')) {
      if (this.peek().type === 'newline') break;
      out.push(this.simpleStatement());
    }
    const end = this.next();
    if (end.type !== 'newline' && end.type !== 'eof') throw syntaxError(end.line, `expected the end of the line; got '${end.text}'`);
    return out;
  }

  private dotted(): string {
    let name = this.name('a module name').text;
    while (this.acceptOp('.')) name += `.${this.name('a module name').text}`;
    return name;
  }

  private simpleStatement(): PyStmt {
    const t = this.peek();
    const line = t.line;
    if (t.type === 'name' && t.text === 'import') {
      this.next();
      const module = this.dotted();
      const alias = this.acceptName('as') ? this.name('an alias').text : undefined;
      if (this.isOp(',')) throw unsupported(line, 'import a, b', 'import one module per line');
      return { t: 'import', module, alias, line };
    }
    if (t.type === 'name' && t.text === 'from') {
      this.next();
      const module = this.dotted();
      if (!this.isName('import')) throw syntaxError(line, "expected 'import'");
      this.next();
      const paren = this.acceptOp('(');
      const names: { name: string; alias?: string }[] = [];
      if (this.acceptOp('*')) names.push({ name: '*' });
      else
        do {
          if (paren && this.isOp(')')) break;
          const name = this.name('a name to import').text;
          const alias = this.acceptName('as') ? this.name('an alias').text : undefined;
          names.push({ name, alias });
        } while (this.acceptOp(','));
      if (paren) this.expectOp(')');
      return { t: 'from', module, names, line };
    }
    if (t.type === 'name' && t.text === 'pass') {
      this.next();
      return { t: 'pass', line };
    }
    if (t.type === 'name' && t.text in UNSUPPORTED_STATEMENTS) throw unsupported(line, t.text, UNSUPPORTED_STATEMENTS[t.text]);
    const first = this.exprList();
    const aug = ['+=', '-=', '*=', '/=', '@='].find((op) => this.isOp(op));
    if (aug) {
      this.next();
      return { t: 'augassign', target: first, op: aug.slice(0, -1), value: this.exprList(), line };
    }
    if (this.isOp('=')) {
      const targets = [first];
      let value: PyExpr = first;
      while (this.acceptOp('=')) {
        value = this.exprList();
        targets.push(value);
      }
      targets.pop();
      return { t: 'assign', targets, value, line };
    }
    if (this.isOp(':')) throw unsupported(line, 'annotation', 'type annotations are outside the supported subset');
    return { t: 'expr', value: first, line };
  }

  private forStatement(): PyStmt {
    const line = this.next().line;
    const target = this.targetList();
    if (!this.isName('in')) throw syntaxError(line, "expected 'in' in the for statement");
    this.next();
    const iter = this.exprList();
    const body = this.block();
    if (this.isName('else')) throw unsupported(this.peek().line, 'for … else', 'for/else is outside the supported subset');
    return { t: 'for', target, iter, body, line };
  }

  private withStatement(): PyStmt {
    const line = this.next().line;
    const item = this.expr();
    const alias = this.acceptName('as') ? this.name('a name').text : undefined;
    return { t: 'with', item, alias, body: this.block(), line };
  }

  private targetList(): PyExpr {
    const line = this.peek().line;
    const first = this.postfix();
    if (!this.isOp(',')) return first;
    const items: PyArg[] = [first];
    while (this.acceptOp(',')) {
      if (this.isName('in')) break;
      items.push(this.postfix());
    }
    return { t: 'tuple', items, line };
  }

  private exprList(): PyExpr {
    const line = this.peek().line;
    const first = this.starOrExpr();
    if (!this.isOp(',')) return first as PyExpr;
    const items: PyArg[] = [first];
    while (this.acceptOp(',')) {
      if (this.isOp('=') || this.peek().type === 'newline' || this.isOp(')')) break;
      items.push(this.starOrExpr());
    }
    return { t: 'tuple', items, line };
  }

  private starOrExpr(): PyArg {
    const line = this.peek().line;
    if (this.acceptOp('*')) return { t: 'star', value: this.expr(), line };
    return this.expr();
  }

  expr(): PyExpr {
    const line = this.peek().line;
    if (this.isName('lambda')) throw unsupported(line, 'lambda', UNSUPPORTED_STATEMENTS.lambda);
    const value = this.comparison();
    if (this.isName('if')) throw unsupported(line, 'conditional expression', 'x if c else y is outside the supported subset');
    return value;
  }

  private comparison(): PyExpr {
    const a = this.arith();
    for (const op of ['==', '!=', '<', '>', '<=', '>=']) {
      if (this.isOp(op)) {
        const line = this.next().line;
        return { t: 'compare', op, a, b: this.arith(), line };
      }
    }
    if (this.isName('and') || this.isName('or') || this.isName('not')) throw unsupported(this.peek().line, this.peek().text, 'boolean logic is outside the supported subset');
    return a;
  }

  private arith(): PyExpr {
    let left = this.term();
    while (this.isOp('+') || this.isOp('-')) {
      const t = this.next();
      left = { t: 'bin', op: t.text, a: left, b: this.term(), line: t.line };
    }
    return left;
  }

  private term(): PyExpr {
    let left = this.factor();
    while (this.isOp('*') || this.isOp('/') || this.isOp('//') || this.isOp('%') || this.isOp('@')) {
      const t = this.next();
      left = { t: 'bin', op: t.text, a: left, b: this.factor(), line: t.line };
    }
    return left;
  }

  /** Every nesting level (parentheses, brackets, calls, unary chains) passes here, so it is counted here. */
  private factor(): PyExpr {
    const leave = enterNesting(this.nesting, this.peek().line);
    try {
      if (this.isOp('-') || this.isOp('+') || this.isOp('~')) {
        const t = this.next();
        return { t: 'unary', op: t.text, a: this.factor(), line: t.line };
      }
      const base = this.postfix();
      if (this.isOp('**')) {
        const t = this.next();
        return { t: 'bin', op: '**', a: base, b: this.factor(), line: t.line };
      }
      return base;
    } finally {
      leave();
    }
  }

  private postfix(): PyExpr {
    let e = this.atom();
    for (;;) {
      const t = this.peek();
      if (this.acceptOp('.')) {
        e = { t: 'attr', obj: e, name: this.name('an attribute name').text, line: t.line };
      } else if (this.acceptOp('(')) {
        e = this.callRest(e, t.line);
      } else if (this.acceptOp('[')) {
        const index = this.subscript();
        this.expectOp(']', ' to close the subscript');
        e = { t: 'index', obj: e, index, line: t.line };
      } else return e;
    }
  }

  private subscript(): PyIndex {
    const line = this.peek().line;
    const first = this.subscriptItem();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.acceptOp(',')) {
      if (this.isOp(']')) break;
      items.push(this.subscriptItem());
    }
    return { t: 'multi', items, line };
  }

  private subscriptItem(): PyExpr | PySlice {
    const line = this.peek().line;
    const lo = this.isOp(':') ? undefined : this.expr();
    if (!this.acceptOp(':')) return lo!;
    const hi = this.isOp(']') || this.isOp(':') || this.isOp(',') ? undefined : this.expr();
    const step = this.acceptOp(':') && !this.isOp(']') && !this.isOp(',') ? this.expr() : undefined;
    return { t: 'slice', lo, hi, step, line };
  }

  private callRest(fn: PyExpr, line: number): PyExpr {
    const args: PyArg[] = [];
    const kwargs: { name: string; value: PyExpr }[] = [];
    while (!this.isOp(')')) {
      if (this.peek().type === 'name' && this.isOp('=', 1)) {
        const name = this.next().text;
        this.next();
        kwargs.push({ name, value: this.expr() });
      } else if (this.isOp('**')) {
        throw unsupported(this.peek().line, '**kwargs', 'keyword unpacking is outside the supported subset');
      } else {
        const arg = this.starOrExpr();
        if (this.isName('for')) {
          args.push(this.comprehension(arg as PyExpr, line));
        } else args.push(arg);
      }
      if (!this.acceptOp(',')) break;
    }
    this.expectOp(')', ' to close the call');
    return { t: 'call', fn, args, kwargs, line };
  }

  private comprehension(elt: PyExpr, line: number): PyExpr {
    this.next(); // for
    const target = this.targetList();
    if (!this.isName('in')) throw syntaxError(line, "expected 'in' in the comprehension");
    this.next();
    const iter = this.comparison();
    if (this.isName('if') || this.isName('for')) throw unsupported(line, 'comprehension', 'comprehensions with if or nested for are outside the supported subset');
    return { t: 'comp', elt, target, iter, line };
  }

  private atom(): PyExpr {
    const t = this.next();
    const line = t.line;
    if (t.type === 'number') {
      if (/[jJ]$/.test(t.text)) return { t: 'num', v: Number(t.text.slice(0, -1)), line, imag: true };
      const v = /^0[xX]/.test(t.text) ? parseInt(t.text, 16) : /^0[bB]/.test(t.text) ? parseInt(t.text.slice(2), 2) : Number(t.text);
      return { t: 'num', v, line };
    }
    if (t.type === 'string') {
      let v = t.text;
      while (this.peek().type === 'string') v += this.next().text;
      return { t: 'str', v, line };
    }
    if (t.type === 'name') {
      if (t.text === 'True' || t.text === 'False') return { t: 'const', v: t.text === 'True', line };
      if (t.text === 'None') return { t: 'const', v: null, line };
      if (t.text in UNSUPPORTED_STATEMENTS) throw unsupported(line, t.text, UNSUPPORTED_STATEMENTS[t.text]);
      return { t: 'name', id: t.text, line };
    }
    if (t.type === 'op' && t.text === '(') {
      if (this.acceptOp(')')) return { t: 'tuple', items: [], line };
      const first = this.starOrExpr();
      if (this.isName('for')) {
        const comp = this.comprehension(first as PyExpr, line);
        this.expectOp(')');
        return comp;
      }
      if (this.acceptOp(')')) return first as PyExpr;
      const items: PyArg[] = [first];
      while (this.acceptOp(',')) {
        if (this.isOp(')')) break;
        items.push(this.starOrExpr());
      }
      this.expectOp(')', ' to close the tuple');
      return { t: 'tuple', items, line };
    }
    if (t.type === 'op' && t.text === '[') {
      const items: PyArg[] = [];
      if (this.acceptOp(']')) return { t: 'list', items, line };
      const first = this.starOrExpr();
      if (this.isName('for')) {
        const comp = this.comprehension(first as PyExpr, line);
        this.expectOp(']');
        return comp;
      }
      items.push(first);
      while (this.acceptOp(',')) {
        if (this.isOp(']')) break;
        items.push(this.starOrExpr());
      }
      this.expectOp(']', ' to close the list');
      return { t: 'list', items, line };
    }
    if (t.type === 'op' && t.text === '{') throw unsupported(line, '{…}', 'dicts and sets are outside the supported subset');
    if (t.type === 'indent') throw syntaxError(line, 'unexpected indentation');
    throw syntaxError(line, `unexpected '${t.text}'`);
  }
}
