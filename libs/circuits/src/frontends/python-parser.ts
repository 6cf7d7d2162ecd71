/**
 * The parser of the Python subset: tokens (python-tokenizer.ts) → the AST (python-ast.ts). Anything outside the
 * subset is a line-numbered `unsupported construct` error.
 */
import { syntaxError, unsupported } from '../errors.js';
import { enterNesting } from '../limits.js';
import type { PyArg, PyExpr, PyFPart, PyGenerator, PyIndex, PyParam, PySlice, PyStmt } from './python-ast.js';
import { tokenizePython, type PyToken } from './python-tokenizer.js';

const UNSUPPORTED_STATEMENTS: Record<string, string> = {
  class: 'classes are outside the supported subset; use functions',
  try: 'try blocks are outside the supported subset',
  async: 'async code is outside the supported subset',
  await: 'await is outside the supported subset',
  yield: 'yield is read as a statement (`yield op`, `yield from ops`) in a function, not as a value',
  exec: 'exec is never run',
  eval: 'eval is never run',
};

/** Reserved words that can never be a value. */
const KEYWORDS = new Set([
  'def',
  'return',
  'if',
  'elif',
  'else',
  'while',
  'for',
  'in',
  'and',
  'or',
  'not',
  'is',
  'lambda',
  'pass',
  'break',
  'continue',
  'global',
  'nonlocal',
  'assert',
  'del',
  'raise',
  'import',
  'from',
  'as',
  'with',
  'except',
  'finally',
]);

const AUGMENTED = ['+=', '-=', '*=', '/=', '//=', '%=', '**=', '&=', '|=', '^=', '<<=', '>>=', '@='];

export function parsePython(source: string): PyStmt[] {
  const parser = new PyParser(tokenizePython(source));
  return parser.module();
}

/** An f-string's text → literal parts and `{expression!conversion:spec}` fields (spec fields nest). */
function parseFString(text: string, line: number): PyFPart[] {
  const parts: PyFPart[] = [];
  let lit = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if ((ch === '{' || ch === '}') && text[i + 1] === ch) {
      lit += ch;
      i += 2;
      continue;
    }
    if (ch === '}') throw syntaxError(line, "f-string: single '}' is not allowed");
    if (ch !== '{') {
      lit += ch;
      i++;
      continue;
    }
    if (lit) parts.push(lit);
    lit = '';
    // The expression runs to a depth-0 `!`, `:` or `}` outside quotes.
    let j = i + 1;
    let depth = 0;
    let quote = '';
    for (; j < text.length; j++) {
      const c = text[j];
      if (quote) {
        if (c === quote) quote = '';
        continue;
      }
      if (c === "'" || c === '"') quote = c;
      else if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || (c === '}' && depth > 0)) depth--;
      else if (depth === 0 && (c === '}' || c === ':' || (c === '!' && text[j + 1] !== '='))) break;
    }
    if (j >= text.length) throw syntaxError(line, "f-string: expecting '}'");
    const exprText = text.slice(i + 1, j);
    if (!exprText.trim()) throw syntaxError(line, 'f-string: empty expression not allowed');
    if (/=\s*$/.test(exprText) && !/[=!<>]=\s*$/.test(exprText))
      throw unsupported(line, `f'{${exprText}}'`, 'self-documenting f-string fields (x=) are outside the supported subset');
    const expr = parseSubExpression(exprText, line);
    let conv: string | undefined;
    if (text[j] === '!') {
      conv = text[j + 1];
      if (!'rsa'.includes(conv ?? '-')) throw syntaxError(line, `f-string: invalid conversion character '${conv}'`);
      j += 2;
    }
    let spec: PyExpr | undefined;
    if (text[j] === ':') {
      let k = j + 1;
      let nest = 0;
      for (; k < text.length; k++) {
        if (text[k] === '{') nest++;
        else if (text[k] === '}') {
          if (nest === 0) break;
          nest--;
        }
      }
      spec = { t: 'fstr', parts: parseFString(text.slice(j + 1, k), line), line };
      j = k;
    }
    if (text[j] !== '}') throw syntaxError(line, "f-string: expecting '}'");
    parts.push({ expr, conv, spec });
    i = j + 1;
  }
  if (lit) parts.push(lit);
  return parts;
}

function parseSubExpression(text: string, line: number): PyExpr {
  const tokens = tokenizePython(`(${text.replace(/\n/g, ' ')})`).map((t) => ({ ...t, line: t.line + line - 1 }));
  const parser = new PyParser(tokens);
  return parser.subExpression();
}

class PyParser {
  private pos = 0;
  private readonly nesting = { depth: 0 };
  /** Loops and functions around the statement being parsed (break/continue/return outside them are syntax errors). */
  private loops = 0;
  private functions = 0;

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
    if (t.type !== 'name' || KEYWORDS.has(t.text)) throw syntaxError(t.line, `expected ${what}; got '${t.text}'`);
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

  /** One parenthesised expression (an f-string field). */
  subExpression(): PyExpr {
    this.expectOp('(');
    const e = this.exprList();
    this.expectOp(')');
    if (this.peek().type !== 'newline' && this.peek().type !== 'eof') throw syntaxError(this.peek().line, `f-string: unexpected '${this.peek().text}'`);
    return e;
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

  private loopBody(): PyStmt[] {
    this.loops++;
    try {
      return this.block();
    } finally {
      this.loops--;
    }
  }

  private statement(): PyStmt[] {
    const t = this.peek();
    if (t.type === 'op' && t.text === '@') throw unsupported(t.line, 'decorator', 'decorators are outside the supported subset');
    if (t.type === 'name') {
      if (t.text === 'for') return [this.forStatement()];
      if (t.text === 'while') return [this.whileStatement()];
      if (t.text === 'if') return [this.ifStatement()];
      if (t.text === 'def') return [this.defStatement()];
      if (t.text === 'with') return [this.withStatement()];
      if (t.text === 'elif' || t.text === 'else') throw syntaxError(t.line, `'${t.text}' without a matching if`);
      if (t.text in UNSUPPORTED_STATEMENTS && t.text !== 'yield' && !this.isOp('=', 1) && !this.isOp('.', 1))
        throw unsupported(t.line, t.text, UNSUPPORTED_STATEMENTS[t.text]);
    }
    return this.simpleStatements();
  }

  private ifStatement(): PyStmt {
    const line = this.next().line; // if / elif
    const test = this.namedExpr();
    const body = this.block();
    let orelse: PyStmt[] = [];
    if (this.isName('elif')) orelse = [this.ifStatement()];
    else if (this.acceptName('else')) orelse = this.block();
    return { t: 'if', test, body, orelse, line };
  }

  private whileStatement(): PyStmt {
    const line = this.next().line;
    const test = this.namedExpr();
    const body = this.loopBody();
    const orelse = this.acceptName('else') ? this.block() : [];
    return { t: 'while', test, body, orelse, line };
  }

  private defStatement(): PyStmt {
    const line = this.next().line;
    const name = this.name('a function name').text;
    this.expectOp('(', ` after def ${name}`);
    const params = this.params(')', true);
    this.expectOp(')', ` to close the parameters of ${name}`);
    // Annotations are parsed and ignored (Python does not check them either).
    const returns = this.acceptOp('->') ? this.expr() : undefined;
    const loops = this.loops;
    this.loops = 0;
    this.functions++;
    try {
      return { t: 'def', name, params, returns, body: this.block(), line };
    } finally {
      this.functions--;
      this.loops = loops;
    }
  }

  /** Parameters up to `close` (`)` for def, `:` for lambda). */
  private params(close: string, annotations: boolean): PyParam[] {
    const params: PyParam[] = [];
    let kwonly = false;
    while (!this.isOp(close)) {
      const line = this.peek().line;
      if (this.acceptOp('/')) {
        if (!this.acceptOp(',')) break;
        continue;
      }
      let kind: PyParam['kind'] = kwonly ? 'kwonly' : 'normal';
      if (this.acceptOp('**')) kind = 'varkw';
      else if (this.acceptOp('*')) {
        kwonly = true;
        if (this.isOp(',')) {
          this.next();
          continue;
        }
        kind = 'varargs';
      }
      const name = this.name('a parameter name').text;
      if (params.some((p) => p.name === name)) throw syntaxError(line, `duplicate parameter '${name}'`);
      if (annotations && this.acceptOp(':')) this.expr();
      const param: PyParam = { name, kind };
      if (this.acceptOp('=')) {
        if (kind === 'varargs' || kind === 'varkw') throw syntaxError(line, `*${name} cannot have a default`);
        param.default = this.expr();
      } else if (kind === 'normal' && params.some((p) => p.kind === 'normal' && p.default)) {
        throw syntaxError(line, `parameter '${name}' without a default follows one with a default`);
      }
      params.push(param);
      if (!this.acceptOp(',')) break;
    }
    return params;
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

  private atStatementEnd(): boolean {
    const t = this.peek();
    return t.type === 'newline' || t.type === 'eof' || this.isOp(';');
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
    if (t.type === 'name') {
      switch (t.text) {
        case 'pass':
          this.next();
          return { t: 'pass', line };
        case 'break':
        case 'continue':
          this.next();
          if (!this.loops) throw syntaxError(line, `'${t.text}' outside a loop`);
          return { t: t.text, line };
        case 'return': {
          this.next();
          if (!this.functions) throw syntaxError(line, "'return' outside a function");
          return { t: 'return', value: this.atStatementEnd() ? undefined : this.exprList(), line };
        }
        case 'global':
        case 'nonlocal': {
          this.next();
          const names = [this.name('a name').text];
          while (this.acceptOp(',')) names.push(this.name('a name').text);
          return { t: t.text, names, line };
        }
        case 'assert': {
          this.next();
          const test = this.expr();
          return { t: 'assert', test, msg: this.acceptOp(',') ? this.expr() : undefined, line };
        }
        case 'del': {
          this.next();
          const first = this.exprList();
          return { t: 'del', targets: first.t === 'tuple' ? (first.items as PyExpr[]) : [first], line };
        }
        case 'yield': {
          this.next();
          if (!this.functions) throw syntaxError(line, "'yield' outside a function");
          const from = this.acceptName('from');
          return { t: 'yield', value: this.atStatementEnd() ? undefined : this.exprList(), from, line };
        }
        case 'raise': {
          this.next();
          const exc = this.atStatementEnd() ? undefined : this.expr();
          if (this.acceptName('from')) this.expr();
          return { t: 'raise', exc, line };
        }
      }
      if (t.text in UNSUPPORTED_STATEMENTS && !this.isOp('=', 1) && !this.isOp('.', 1)) throw unsupported(line, t.text, UNSUPPORTED_STATEMENTS[t.text]);
    }
    const first = this.exprList();
    const aug = AUGMENTED.find((op) => this.isOp(op));
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
    if (this.acceptOp(':')) {
      // `name: type = value` — the annotation is parsed and ignored.
      this.expr();
      if (!this.acceptOp('=')) return { t: 'pass', line };
      return { t: 'assign', targets: [first], value: this.exprList(), line };
    }
    return { t: 'expr', value: first, line };
  }

  private forStatement(): PyStmt {
    const line = this.next().line;
    const target = this.targetList();
    if (!this.isName('in')) throw syntaxError(line, "expected 'in' in the for statement");
    this.next();
    const iter = this.exprList();
    const body = this.loopBody();
    const orelse = this.acceptName('else') ? this.block() : [];
    return { t: 'for', target, iter, body, orelse, line };
  }

  private withStatement(): PyStmt {
    const line = this.next().line;
    const item = this.expr();
    const alias = this.acceptName('as') ? this.name('a name').text : undefined;
    return { t: 'with', item, alias, body: this.block(), line };
  }

  private targetList(): PyExpr {
    const line = this.peek().line;
    const first = this.target();
    if (!this.isOp(',')) {
      if (first.t === 'star') throw syntaxError(line, 'a starred target needs a tuple or list around it');
      return first;
    }
    const items: PyArg[] = [first];
    while (this.acceptOp(',')) {
      if (this.isName('in')) break;
      items.push(this.target());
    }
    return { t: 'tuple', items, line };
  }

  private target(): PyArg {
    const line = this.peek().line;
    if (this.acceptOp('*')) return { t: 'star', value: this.postfix(), line };
    return this.postfix();
  }

  private exprList(): PyExpr {
    const line = this.peek().line;
    const first = this.starOrExpr();
    if (!this.isOp(',')) {
      if (first.t === 'star') throw syntaxError(line, 'a starred expression needs a tuple or list around it');
      return first;
    }
    const items: PyArg[] = [first];
    while (this.acceptOp(',')) {
      if (
        this.isOp('=') ||
        this.peek().type === 'newline' ||
        this.isOp(')') ||
        this.isOp(';') ||
        this.isOp(':') ||
        this.peek().type === 'eof' ||
        AUGMENTED.some((op) => this.isOp(op))
      )
        break;
      items.push(this.starOrExpr());
    }
    return { t: 'tuple', items, line };
  }

  private starOrExpr(): PyArg {
    const line = this.peek().line;
    if (this.acceptOp('*')) return { t: 'star', value: this.orTest(), line };
    return this.namedExpr();
  }

  private namedExpr(): PyExpr {
    const e = this.expr();
    if (this.isOp(':=')) throw unsupported(this.peek().line, ':=', 'assignment expressions are outside the supported subset');
    return e;
  }

  expr(): PyExpr {
    const line = this.peek().line;
    if (this.acceptName('lambda')) {
      const params = this.params(':', false);
      this.expectOp(':', ' after the lambda parameters');
      return { t: 'lambda', params, body: this.expr(), line };
    }
    const value = this.orTest();
    if (this.acceptName('if')) {
      const test = this.orTest();
      if (!this.acceptName('else')) throw syntaxError(line, "expected 'else' in the conditional expression");
      return { t: 'ifexp', test, body: value, orelse: this.expr(), line };
    }
    return value;
  }

  private orTest(): PyExpr {
    const line = this.peek().line;
    const first = this.andTest();
    if (!this.isName('or')) return first;
    const values = [first];
    while (this.acceptName('or')) values.push(this.andTest());
    return { t: 'boolop', op: 'or', values, line };
  }

  private andTest(): PyExpr {
    const line = this.peek().line;
    const first = this.notTest();
    if (!this.isName('and')) return first;
    const values = [first];
    while (this.acceptName('and')) values.push(this.notTest());
    return { t: 'boolop', op: 'and', values, line };
  }

  private notTest(): PyExpr {
    if (this.isName('not')) {
      const line = this.next().line;
      const leave = enterNesting(this.nesting, line);
      try {
        return { t: 'unary', op: 'not', a: this.notTest(), line };
      } finally {
        leave();
      }
    }
    return this.comparison();
  }

  private compareOp(): string | undefined {
    for (const op of ['==', '!=', '<', '>', '<=', '>=']) if (this.isOp(op)) return op;
    if (this.isName('in')) return 'in';
    if (this.isName('not') && this.isName('in', 1)) return 'not in';
    if (this.isName('is')) return this.isName('not', 1) ? 'is not' : 'is';
    return undefined;
  }

  private comparison(): PyExpr {
    const line = this.peek().line;
    const a = this.bitOr();
    const ops: string[] = [];
    const operands = [a];
    for (let op = this.compareOp(); op; op = this.compareOp()) {
      this.next();
      if (op === 'not in' || op === 'is not') this.next();
      ops.push(op);
      operands.push(this.bitOr());
    }
    return ops.length ? { t: 'compare', ops, operands, line } : a;
  }

  private binaryLevel(ops: string[], next: () => PyExpr): PyExpr {
    let left = next();
    for (let t = this.peek(); t.type === 'op' && ops.includes(t.text); t = this.peek()) {
      this.next();
      left = { t: 'bin', op: t.text, a: left, b: next(), line: t.line };
    }
    return left;
  }

  private bitOr(): PyExpr {
    return this.binaryLevel(['|'], () => this.bitXor());
  }
  private bitXor(): PyExpr {
    return this.binaryLevel(['^'], () => this.bitAnd());
  }
  private bitAnd(): PyExpr {
    return this.binaryLevel(['&'], () => this.shift());
  }
  private shift(): PyExpr {
    return this.binaryLevel(['<<', '>>'], () => this.arith());
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

  /** `a[i]`, `a[lo:hi:step]`; several indices are a tuple (`d[i, j]`), or a `multi` subscript when one is a slice (`a[:, 0]`). */
  private subscript(): PyIndex {
    const line = this.peek().line;
    const first = this.subscriptItem();
    if (!this.isOp(',')) return first;
    const items = [first];
    while (this.acceptOp(',')) {
      if (this.isOp(']')) break;
      items.push(this.subscriptItem());
    }
    if (items.every((it) => it.t !== 'slice')) return { t: 'tuple', items: items as PyExpr[], line };
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
      } else if (this.acceptOp('**')) {
        // `**mapping`: a keyword named '**' carries the dict to spread.
        kwargs.push({ name: '**', value: this.expr() });
      } else {
        const arg = this.starOrExpr();
        if (this.isName('for')) {
          args.push(this.comprehension('gen', arg as PyExpr, line));
        } else args.push(arg);
      }
      if (!this.acceptOp(',')) break;
    }
    this.expectOp(')', ' to close the call');
    return { t: 'call', fn, args, kwargs, line };
  }

  private comprehension(kind: 'list' | 'gen' | 'dict' | 'set', elt: PyExpr, line: number, value?: PyExpr): PyExpr {
    const generators: PyGenerator[] = [];
    while (this.acceptName('for')) {
      const target = this.targetList();
      if (!this.acceptName('in')) throw syntaxError(line, "expected 'in' in the comprehension");
      const iter = this.orTest();
      const ifs: PyExpr[] = [];
      while (this.acceptName('if')) ifs.push(this.orTest());
      generators.push({ target, iter, ifs });
    }
    return { t: 'comp', kind, elt, value, generators, line };
  }

  private strings(first: PyToken): PyExpr {
    const line = first.line;
    const parts: PyFPart[] = [];
    let formatted = false;
    for (let t: PyToken | undefined = first; t; t = this.peek().type === 'string' || this.peek().type === 'fstring' ? this.next() : undefined) {
      if (t.type === 'fstring') {
        formatted = true;
        parts.push(...parseFString(t.text, t.line));
      } else parts.push(t.text);
    }
    if (!formatted) return { t: 'str', v: parts.join(''), line };
    return { t: 'fstr', parts, line };
  }

  private atom(): PyExpr {
    const t = this.next();
    const line = t.line;
    if (t.type === 'number') {
      if (/[jJ]$/.test(t.text)) return { t: 'num', v: Number(t.text.slice(0, -1)), line, imag: true };
      const v = /^0[xX]/.test(t.text)
        ? parseInt(t.text, 16)
        : /^0[bB]/.test(t.text)
          ? parseInt(t.text.slice(2), 2)
          : /^0[oO]/.test(t.text)
            ? parseInt(t.text.slice(2), 8)
            : Number(t.text);
      return { t: 'num', v, line };
    }
    if (t.type === 'string' || t.type === 'fstring') return this.strings(t);
    if (t.type === 'name') {
      if (t.text === 'True' || t.text === 'False') return { t: 'const', v: t.text === 'True', line };
      if (t.text === 'None') return { t: 'const', v: null, line };
      if (t.text in UNSUPPORTED_STATEMENTS) throw unsupported(line, t.text, UNSUPPORTED_STATEMENTS[t.text]);
      if (KEYWORDS.has(t.text)) throw syntaxError(line, `unexpected '${t.text}'`);
      return { t: 'name', id: t.text, line };
    }
    if (t.type === 'op' && t.text === '(') {
      if (this.acceptOp(')')) return { t: 'tuple', items: [], line };
      const first = this.starOrExpr();
      if (this.isName('for')) {
        const comp = this.comprehension('gen', first as PyExpr, line);
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
        const comp = this.comprehension('list', first as PyExpr, line);
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
    if (t.type === 'op' && t.text === '{') return this.dictDisplay(line);
    if (t.type === 'indent') throw syntaxError(line, 'unexpected indentation');
    throw syntaxError(line, `unexpected '${t.text}'`);
  }

  /** Whether `op` comes before the end of the current display item (at bracket depth 0). */
  private isOpAhead(op: string): boolean {
    let depth = 0;
    for (let i = this.pos; i < this.tokens.length; i++) {
      const t = this.tokens[i];
      if (t.type === 'eof') return false;
      if (t.type !== 'op') continue;
      if (t.text === '(' || t.text === '[' || t.text === '{') depth++;
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        if (depth === 0) return false;
        depth--;
      } else if (depth === 0 && t.text === ',') return false;
      else if (depth === 0 && t.text === op) return true;
    }
    return false;
  }

  private setDisplay(line: number): PyExpr {
    const first = this.starOrExpr();
    if (this.isName('for')) {
      const comp = this.comprehension('set', first as PyExpr, line);
      this.expectOp('}');
      return comp;
    }
    const items: PyArg[] = [first];
    while (this.acceptOp(',')) {
      if (this.isOp('}')) break;
      items.push(this.starOrExpr());
    }
    this.expectOp('}', ' to close the set');
    return { t: 'set', items, line };
  }

  private dictDisplay(line: number): PyExpr {
    const entries: { key?: PyExpr; value: PyExpr }[] = [];
    if (this.acceptOp('}')) return { t: 'dict', entries, line };
    do {
      if (this.isOp('}')) break;
      if (this.acceptOp('**')) {
        entries.push({ value: this.bitOr() });
        continue;
      }
      if (entries.length === 0 && (this.isOp('*') || !this.isOpAhead(':'))) return this.setDisplay(line);
      const key = this.expr();
      this.expectOp(':', ' in the dict');
      const value = this.expr();
      if (entries.length === 0 && this.isName('for')) {
        const comp = this.comprehension('dict', key, line, value);
        this.expectOp('}');
        return comp;
      }
      entries.push({ key, value });
    } while (this.acceptOp(','));
    this.expectOp('}', ' to close the dict');
    return { t: 'dict', entries, line };
  }
}
