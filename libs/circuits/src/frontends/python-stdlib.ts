/**
 * The standard-library modules every Python front end understands besides numpy (python-numeric.ts): `math`'s
 * constants and functions (also numpy's and cmath's real ones), `typing` and `__future__` (names for annotations,
 * ignored), and the parts of `itertools` circuit code uses.
 */
import { unsupported } from '../errors.js';
import { checkListLength } from '../limits.js';
import { ignored, iterate, toInt, type PyBuiltin, type PyModule, type PyValue } from './python-objects.js';
import { PyTuple } from './python-values.js';

export const MATH_CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI, inf: Infinity };
export const MATH_FUNCTIONS: Record<string, (...x: number[]) => number> = {
  sqrt: Math.sqrt,
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  arcsin: Math.asin,
  arccos: Math.acos,
  arctan: Math.atan,
  atan2: Math.atan2,
  arctan2: Math.atan2,
  exp: Math.exp,
  log: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  floor: Math.floor,
  ceil: Math.ceil,
  abs: Math.abs,
  radians: (d) => (d * Math.PI) / 180,
  degrees: (r) => (r * 180) / Math.PI,
  deg2rad: (d) => (d * Math.PI) / 180,
  power: Math.pow,
  pow: Math.pow,
};

/** typing, __future__ and itertools: names for annotations, and the itertools that circuit code uses. */
export function languageModule(module: string): PyValue | undefined {
  if (module === 'typing' || module === '__future__' || module === 'itertools') return { kind: 'module', path: module } as PyModule;
  return undefined;
}

export function languageModuleName(module: string, name: string, line: number): PyValue | undefined {
  if (module === 'typing' || module === '__future__') return ignored(`${module}.${name}`);
  if (module !== 'itertools') return undefined;
  const b = (call: PyBuiltin['call']): PyBuiltin => ({ kind: 'builtin', name: `itertools.${name}`, call });
  switch (name) {
    case 'product':
      return b((args, kwargs, l) => {
        const repeat = kwargs.has('repeat') ? toInt(kwargs.get('repeat')!, l, 'repeat') : 1;
        const pools = Array.from({ length: repeat }, () => args.map((a) => iterate(a, l, 'product()'))).flat();
        checkListLength(
          pools.reduce((n, p) => n * p.length, 1),
          l,
        );
        let out: PyValue[][] = [[]];
        for (const pool of pools) out = out.flatMap((prefix) => pool.map((x) => [...prefix, x]));
        return out.map((t) => new PyTuple(t));
      });
    case 'combinations':
    case 'permutations':
      return b((args, _k, l) => {
        const pool = iterate(args[0] ?? null, l, `${name}()`);
        const r = args[1] === undefined || args[1] === null ? pool.length : toInt(args[1], l, 'r');
        const out: PyValue[] = [];
        const walk = (start: number, chosen: number[]) => {
          if (chosen.length === r) {
            out.push(new PyTuple(chosen.map((i) => pool[i])));
            checkListLength(out.length, l);
            return;
          }
          for (let i = name === 'combinations' ? start : 0; i < pool.length; i++) if (!chosen.includes(i)) walk(i + 1, [...chosen, i]);
        };
        walk(0, []);
        return out;
      });
    case 'chain':
      return b((args, _k, l) => {
        const out = args.flatMap((a) => iterate(a, l, 'chain()'));
        checkListLength(out.length, l);
        return out;
      });
  }
  throw unsupported(line, `itertools.${name}`, 'itertools offers product, combinations, permutations and chain here');
}
