/**
 * A parser for the Python literal subset that .npy headers use (what `ast.literal_eval` would
 * accept there): dicts, tuples, lists, str, int, True/False/None. Never evaluates anything.
 */
export type PyLiteral =
  | { kind: 'str'; value: string }
  | { kind: 'int'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'none' }
  | { kind: 'tuple' | 'list'; items: PyLiteral[] }
  | { kind: 'dict'; entries: Array<[PyLiteral, PyLiteral]> };

/** Thrown with a short reason; the .npy decoder turns it into an ArrayDecodeError naming the header. */
export class PyLiteralSyntaxError extends Error {}

// Real headers nest two deep (dict → shape tuple); a low cap keeps recursion bounded on hostile input.
const MAX_DEPTH = 16;

export function parsePyLiteral(text: string): PyLiteral {
  const parser = new LiteralParser(text);
  const value = parser.value(0);
  parser.skipSpace();
  if (!parser.atEnd()) parser.fail('unexpected text after the literal');
  return value;
}

class LiteralParser {
  private pos = 0;

  constructor(private readonly text: string) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  fail(reason: string): never {
    throw new PyLiteralSyntaxError(`${reason} at character ${this.pos}`);
  }

  skipSpace(): void {
    while (this.pos < this.text.length && ' \t\n\r\f\v'.includes(this.text[this.pos])) this.pos++;
  }

  value(depth: number): PyLiteral {
    if (depth > MAX_DEPTH) this.fail('nesting too deep');
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === undefined) this.fail('unexpected end of text');
    if (c === '{') return this.dict(depth);
    if (c === '(') return this.sequence('tuple', ')', depth);
    if (c === '[') return this.sequence('list', ']', depth);
    if (c === "'" || c === '"') return { kind: 'str', value: this.string(c) };
    if (c === '-' || c === '+' || (c >= '0' && c <= '9')) return this.integer();
    return this.keyword();
  }

  private expect(c: string): void {
    this.skipSpace();
    if (this.text[this.pos] !== c) this.fail(`expected '${c}'`);
    this.pos++;
  }

  /** Comma-separated items up to `close`, trailing comma allowed; reports whether any comma was seen. */
  private items(close: string, item: () => void): boolean {
    let sawComma = false;
    this.skipSpace();
    while (this.text[this.pos] !== close) {
      item();
      this.skipSpace();
      if (this.text[this.pos] === ',') {
        sawComma = true;
        this.pos++;
        this.skipSpace();
      } else if (this.text[this.pos] !== close) {
        this.fail(`expected ',' or '${close}'`);
      }
    }
    this.pos++;
    return sawComma;
  }

  private dict(depth: number): PyLiteral {
    this.pos++;
    const entries: Array<[PyLiteral, PyLiteral]> = [];
    this.items('}', () => {
      const key = this.value(depth + 1);
      this.expect(':');
      entries.push([key, this.value(depth + 1)]);
    });
    return { kind: 'dict', entries };
  }

  private sequence(kind: 'tuple' | 'list', close: string, depth: number): PyLiteral {
    this.pos++;
    const items: PyLiteral[] = [];
    const sawComma = this.items(close, () => items.push(this.value(depth + 1)));
    // `(3)` is just a parenthesised 3 in Python, not a tuple.
    if (kind === 'tuple' && items.length === 1 && !sawComma) return items[0];
    return { kind, items };
  }

  private string(quote: string): string {
    this.pos++;
    let out = '';
    for (;;) {
      const c = this.text[this.pos++];
      if (c === undefined || c === '\n') this.fail('unterminated string');
      if (c === quote) return out;
      if (c === '\\') {
        const next = this.text[this.pos++];
        if (next === undefined) this.fail('unterminated string');
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      } else {
        out += c;
      }
    }
  }

  private integer(): PyLiteral {
    const match = /^[-+]?\d+L?/.exec(this.text.slice(this.pos, this.pos + 40));
    if (!match) this.fail('expected a number');
    const digits = match[0].replace('L', ''); // Python 2 NumPy wrote long ints as `3L`
    const value = Number(digits);
    if (!Number.isSafeInteger(value)) this.fail(`integer ${digits} is too large`);
    this.pos += match[0].length;
    if (/[.eEjJxX_\d]/.test(this.text[this.pos] ?? '')) this.fail('expected an integer');
    return { kind: 'int', value };
  }

  private keyword(): PyLiteral {
    const match = /^[A-Za-z_]\w*/.exec(this.text.slice(this.pos, this.pos + 16));
    const word = match?.[0];
    if (word === 'True' || word === 'False') {
      this.pos += word.length;
      return { kind: 'bool', value: word === 'True' };
    }
    if (word === 'None') {
      this.pos += 4;
      return { kind: 'none' };
    }
    return this.fail('expected a Python literal');
  }
}
