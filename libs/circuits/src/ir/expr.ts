import { CircuitError } from '../errors.js';

/**
 * Symbolic parameter expressions: numbers, `pi`, gate-parameter names and arithmetic, kept
 * symbolic inside custom gate definitions so emitters can print `theta/2` rather than a float.
 */
export type Expr =
  | { k: 'num'; v: number }
  | { k: 'id'; name: string }
  | { k: 'neg'; a: Expr }
  | { k: 'bin'; op: '+' | '-' | '*' | '/' | '^'; a: Expr; b: Expr }
  | { k: 'fn'; name: ExprFunction; a: Expr };

export type ExprFunction = 'sin' | 'cos' | 'tan' | 'exp' | 'ln' | 'sqrt' | 'asin' | 'acos' | 'atan';
export const EXPR_FUNCTIONS: readonly ExprFunction[] = ['sin', 'cos', 'tan', 'exp', 'ln', 'sqrt', 'asin', 'acos', 'atan'];

const FN: Record<ExprFunction, (x: number) => number> = {
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  exp: Math.exp,
  ln: Math.log,
  sqrt: Math.sqrt,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
};

export const num = (v: number): Expr => ({ k: 'num', v });
export const PI_NAMES = new Set(['pi', 'π']);

/** Value of an expression; `env` binds gate-parameter names. */
export function evalExpr(e: Expr, env?: ReadonlyMap<string, number>): number {
  switch (e.k) {
    case 'num':
      return e.v;
    case 'id': {
      const bound = env?.get(e.name);
      if (bound !== undefined) return bound;
      if (PI_NAMES.has(e.name)) return Math.PI;
      if (e.name === 'tau' || e.name === 'τ') return 2 * Math.PI;
      if (e.name === 'euler' || e.name === 'ℇ') return Math.E;
      throw new CircuitError('semantic', `the parameter ${e.name} has no value here; this step needs numbers (bind it, or give the entry point's arguments)`);
    }
    case 'neg':
      return -evalExpr(e.a, env);
    case 'fn':
      return FN[e.name](evalExpr(e.a, env));
    case 'bin': {
      const a = evalExpr(e.a, env);
      const b = evalExpr(e.b, env);
      switch (e.op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          return a / b;
        case '^':
          return a ** b;
      }
    }
  }
}

/** Replaces parameter names by expressions (used when expanding a custom gate). */
export function substitute(e: Expr, bindings: ReadonlyMap<string, Expr>): Expr {
  switch (e.k) {
    case 'num':
      return e;
    case 'id':
      return bindings.get(e.name) ?? e;
    case 'neg':
      return { k: 'neg', a: substitute(e.a, bindings) };
    case 'fn':
      return { k: 'fn', name: e.name, a: substitute(e.a, bindings) };
    case 'bin':
      return { k: 'bin', op: e.op, a: substitute(e.a, bindings), b: substitute(e.b, bindings) };
  }
}

/** Names referenced by an expression, other than constants. */
export function freeNames(e: Expr, out = new Set<string>()): Set<string> {
  if (e.k === 'id' && !PI_NAMES.has(e.name) && e.name !== 'tau' && e.name !== 'euler') out.add(e.name);
  if (e.k === 'neg' || e.k === 'fn') freeNames(e.a, out);
  if (e.k === 'bin') {
    freeNames(e.a, out);
    freeNames(e.b, out);
  }
  return out;
}

export interface FormatStyle {
  /** How π is spelled: `pi` (QASM), `np.pi`, `math.pi`. */
  pi: string;
  /** Power operator: `^` (QASM 2), `**` (QASM 3, Python). */
  pow: '^' | '**';
  /** Function names, e.g. `np.sqrt` in Python. */
  fn?: (name: ExprFunction) => string;
}

export const QASM2_STYLE: FormatStyle = { pi: 'pi', pow: '^' };
export const QASM3_STYLE: FormatStyle = { pi: 'pi', pow: '**', fn: (n) => (n === 'asin' ? 'arcsin' : n === 'acos' ? 'arccos' : n === 'atan' ? 'arctan' : n) };
export const NUMPY_STYLE: FormatStyle = {
  pi: 'np.pi',
  pow: '**',
  fn: (n) => `np.${n === 'ln' ? 'log' : n === 'asin' ? 'arcsin' : n === 'acos' ? 'arccos' : n === 'atan' ? 'arctan' : n}`,
};

/** A number as source text: small rational multiples of π as `3*pi/4`, others in shortest round-trip form. */
export function formatNumber(v: number, style: FormatStyle): string {
  if (v === 0) return '0';
  // A literal beyond a double (1e999) parses to ±Infinity; it is the caller's input, not our fault.
  if (!Number.isFinite(v)) throw new CircuitError('semantic', `expected finite gate parameters; got ${v} (a literal beyond ±1.8e308?)`);
  const ratio = v / Math.PI;
  for (const d of [1, 2, 3, 4, 6, 8, 12, 16, 32, 64]) {
    const n = Math.round(ratio * d);
    if (n !== 0 && Math.abs(n) <= 16 * d && Math.abs(ratio * d - n) < 1e-12 && (n * Math.PI) / d === v) {
      const sign = n < 0 ? '-' : '';
      const an = Math.abs(n);
      const numerator = an === 1 ? style.pi : `${an}*${style.pi}`;
      return d === 1 ? `${sign}${numerator}` : `${sign}${numerator}/${d}`;
    }
  }
  const s = String(v);
  return s.includes('e') || s.includes('.') || s.includes('Infinity') ? s : `${s}.0`.replace(/\.0$/, '');
}

const PREC: Record<string, number> = { '+': 1, '-': 1, '*': 2, '/': 2, '^': 4 };

/** Source text of an expression in the given style, with the fewest parentheses. */
export function formatExpr(e: Expr, style: FormatStyle, env?: ReadonlyMap<string, number>): string {
  if (freeNames(e).size === 0 || env) {
    try {
      return formatNumber(evalExpr(e, env), style);
    } catch {
      // keep symbolic
    }
  }
  return fmt(e, style, 0);
}

function fmt(e: Expr, style: FormatStyle, parent: number): string {
  switch (e.k) {
    case 'num':
      return wrapIf(formatNumber(e.v, style), e.v < 0 && parent > 0);
    case 'id':
      return PI_NAMES.has(e.name) ? style.pi : e.name;
    case 'neg':
      return wrapIf(`-${fmt(e.a, style, 3)}`, parent > 1);
    case 'fn':
      return `${style.fn ? style.fn(e.name) : e.name}(${fmt(e.a, style, 0)})`;
    case 'bin': {
      const p = PREC[e.op];
      const op = e.op === '^' ? style.pow : e.op;
      const right = e.op === '-' || e.op === '/' || e.op === '^' ? p + 1 : p;
      const left = e.op === '^' ? p + 1 : p;
      return wrapIf(`${fmt(e.a, style, left)}${op === '+' || op === '-' ? ` ${op} ` : op}${fmt(e.b, style, right)}`, p < parent);
    }
  }
}

const wrapIf = (s: string, cond: boolean): string => (cond ? `(${s})` : s);
