/**
 * The AST of the statement and expression forms that circuit-building Python uses (imports, assignments, calls,
 * for loops, with blocks, comprehensions): what python-parser.ts builds and the Qiskit and Cirq front ends
 * interpret over their own restricted values (python-eval.ts); nothing is ever executed by Python.
 */
export type PySlice = { t: 'slice'; lo?: PyExpr; hi?: PyExpr; step?: PyExpr; line: number };
export interface PyParam {
  name: string;
  /** `normal` (positional or keyword), `kwonly` (after `*`), `varargs` (`*args`), `varkw` (`**kwargs`). */
  kind: 'normal' | 'kwonly' | 'varargs' | 'varkw';
  default?: PyExpr;
}
export interface PyGenerator {
  target: PyExpr;
  iter: PyExpr;
  ifs: PyExpr[];
}
export type PyFPart = string | { expr: PyExpr; conv?: string; spec?: PyExpr };

export type PyExpr =
  | { t: 'num'; v: number; line: number; imag?: true }
  | { t: 'str'; v: string; line: number }
  | { t: 'fstr'; parts: PyFPart[]; line: number }
  | { t: 'const'; v: boolean | null; line: number }
  | { t: 'name'; id: string; line: number }
  | { t: 'attr'; obj: PyExpr; name: string; line: number }
  | { t: 'call'; fn: PyExpr; args: PyArg[]; kwargs: { name: string; value: PyExpr }[]; line: number }
  | { t: 'index'; obj: PyExpr; index: PyIndex; line: number }
  | { t: 'bin'; op: string; a: PyExpr; b: PyExpr; line: number }
  | { t: 'unary'; op: string; a: PyExpr; line: number }
  | { t: 'list'; items: PyArg[]; line: number }
  | { t: 'tuple'; items: PyArg[]; line: number }
  | { t: 'dict'; entries: { key?: PyExpr; value: PyExpr }[]; line: number }
  | { t: 'set'; items: PyArg[]; line: number }
  | { t: 'comp'; kind: 'list' | 'gen' | 'dict' | 'set'; elt: PyExpr; value?: PyExpr; generators: PyGenerator[]; line: number }
  | { t: 'compare'; ops: string[]; operands: PyExpr[]; line: number }
  | { t: 'boolop'; op: 'and' | 'or'; values: PyExpr[]; line: number }
  | { t: 'ifexp'; test: PyExpr; body: PyExpr; orelse: PyExpr; line: number }
  | { t: 'lambda'; params: PyParam[]; body: PyExpr; line: number };

export type PyArg = PyExpr | { t: 'star'; value: PyExpr; line: number };
/** A subscript: one index or slice, or several (`a[i, j]`, `a[:, 0]`) for numpy arrays. */
export type PyIndex = PyExpr | PySlice | { t: 'multi'; items: (PyExpr | PySlice)[]; line: number };

export type PyStmt =
  | { t: 'import'; module: string; alias?: string; line: number }
  | { t: 'from'; module: string; names: { name: string; alias?: string }[]; line: number }
  | { t: 'assign'; targets: PyExpr[]; value: PyExpr; line: number }
  | { t: 'augassign'; target: PyExpr; op: string; value: PyExpr; line: number }
  | { t: 'expr'; value: PyExpr; line: number }
  | { t: 'for'; target: PyExpr; iter: PyExpr; body: PyStmt[]; orelse: PyStmt[]; line: number }
  | { t: 'while'; test: PyExpr; body: PyStmt[]; orelse: PyStmt[]; line: number }
  | { t: 'if'; test: PyExpr; body: PyStmt[]; orelse: PyStmt[]; line: number }
  | { t: 'with'; item: PyExpr; alias?: string; body: PyStmt[]; line: number }
  | { t: 'def'; name: string; params: PyParam[]; returns?: PyExpr; body: PyStmt[]; line: number }
  | { t: 'return'; value?: PyExpr; line: number }
  | { t: 'break'; line: number }
  | { t: 'continue'; line: number }
  | { t: 'global' | 'nonlocal'; names: string[]; line: number }
  | { t: 'assert'; test: PyExpr; msg?: PyExpr; line: number }
  | { t: 'del'; targets: PyExpr[]; line: number }
  | { t: 'raise'; exc?: PyExpr; line: number }
  | { t: 'yield'; value?: PyExpr; from: boolean; line: number }
  | { t: 'pass'; line: number };
