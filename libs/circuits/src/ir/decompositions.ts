/**
 * Exact decompositions of standard gates into simpler standard gates (global phase included as
 * `gphase`, so they stay exact under extra controls). Emitters use them to reach a target's
 * native gate set; `inv @` uses them for gates without a named inverse. Each is checked against
 * the gate's matrix in decompositions.spec.ts.
 */
import { num, type Expr } from './expr.js';
import type { GateOp } from './circuit.js';

type Step = [name: string, qubits: number[], params?: Expr[]];

const half = (e: Expr): Expr => (e.k === 'num' ? num(e.v / 2) : { k: 'bin', op: '/', a: e, b: num(2) });
const neg = (e: Expr): Expr => (e.k === 'num' ? num(-e.v) : e.k === 'neg' ? e.a : { k: 'neg', a: e });
const add = (a: Expr, b: Expr): Expr => (a.k === 'num' && b.k === 'num' ? num(a.v + b.v) : { k: 'bin', op: '+', a, b });
const sub = (a: Expr, b: Expr): Expr => (a.k === 'num' && b.k === 'num' ? num(a.v - b.v) : { k: 'bin', op: '-', a, b });
const PI = Math.PI;

const rzx = (theta: Expr, a: number, b: number): Step[] => [
  ['h', [b]],
  ['cx', [a, b]],
  ['rz', [b], [theta]],
  ['cx', [a, b]],
  ['h', [b]],
];

const CU = ([t, f, l, g]: Expr[]): Step[] => [
  ['p', [0], [g]],
  ['p', [0], [half(add(l, f))]],
  ['p', [1], [half(sub(l, f))]],
  ['cx', [0, 1]],
  ['u', [1], [neg(half(t)), num(0), neg(half(add(f, l)))]],
  ['cx', [0, 1]],
  ['u', [1], [half(t), f, num(0)]],
];

const DECOMPOSITIONS: Record<string, (p: Expr[]) => Step[]> = {
  swap: () => [
    ['cx', [0, 1]],
    ['cx', [1, 0]],
    ['cx', [0, 1]],
  ],
  iswap: () => [
    ['s', [0]],
    ['s', [1]],
    ['h', [0]],
    ['cx', [0, 1]],
    ['cx', [1, 0]],
    ['h', [1]],
  ],
  ecr: () => [...rzx(num(PI / 4), 0, 1), ['x', [0]], ...rzx(num(-PI / 4), 0, 1)],
  rxx: ([t]) => [
    ['h', [0]],
    ['h', [1]],
    ['cx', [0, 1]],
    ['rz', [1], [t]],
    ['cx', [0, 1]],
    ['h', [0]],
    ['h', [1]],
  ],
  ryy: ([t]) => [
    ['rx', [0], [num(PI / 2)]],
    ['rx', [1], [num(PI / 2)]],
    ['cx', [0, 1]],
    ['rz', [1], [t]],
    ['cx', [0, 1]],
    ['rx', [0], [num(-PI / 2)]],
    ['rx', [1], [num(-PI / 2)]],
  ],
  rzz: ([t]) => [
    ['cx', [0, 1]],
    ['rz', [1], [t]],
    ['cx', [0, 1]],
  ],
  cy: () => [
    ['sdg', [1]],
    ['cx', [0, 1]],
    ['s', [1]],
  ],
  cz: () => [
    ['h', [1]],
    ['cx', [0, 1]],
    ['h', [1]],
  ],
  ch: () => [
    ['s', [1]],
    ['h', [1]],
    ['t', [1]],
    ['cx', [0, 1]],
    ['tdg', [1]],
    ['h', [1]],
    ['sdg', [1]],
  ],
  cp: ([l]) => [
    ['p', [0], [half(l)]],
    ['cx', [0, 1]],
    ['p', [1], [neg(half(l))]],
    ['cx', [0, 1]],
    ['p', [1], [half(l)]],
  ],
  crz: ([t]) => [
    ['rz', [1], [half(t)]],
    ['cx', [0, 1]],
    ['rz', [1], [neg(half(t))]],
    ['cx', [0, 1]],
  ],
  cry: ([t]) => [
    ['ry', [1], [half(t)]],
    ['cx', [0, 1]],
    ['ry', [1], [neg(half(t))]],
    ['cx', [0, 1]],
  ],
  crx: ([t]) => [
    ['h', [1]],
    ['rz', [1], [half(t)]],
    ['cx', [0, 1]],
    ['rz', [1], [neg(half(t))]],
    ['cx', [0, 1]],
    ['h', [1]],
  ],
  cu: CU,
  cu3: ([t, f, l]) => CU([t, f, l, num(0)]),
  csx: () => [
    ['p', [0], [num(PI / 4)]],
    ['crx', [0, 1], [num(PI / 2)]],
  ],
  ccx: () => [
    ['h', [2]],
    ['cx', [1, 2]],
    ['tdg', [2]],
    ['cx', [0, 2]],
    ['t', [2]],
    ['cx', [1, 2]],
    ['tdg', [2]],
    ['cx', [0, 2]],
    ['t', [1]],
    ['t', [2]],
    ['h', [2]],
    ['cx', [0, 1]],
    ['t', [0]],
    ['tdg', [1]],
    ['cx', [0, 1]],
  ],
  ccz: () => [
    ['h', [2]],
    ['ccx', [0, 1, 2]],
    ['h', [2]],
  ],
  cswap: () => [
    ['cx', [2, 1]],
    ['ccx', [0, 1, 2]],
    ['cx', [2, 1]],
  ],
  u: ([t, f, l]) => [
    ['rz', [0], [l]],
    ['ry', [0], [t]],
    ['rz', [0], [f]],
    ['gphase', [], [half(add(f, l))]],
  ],
  u2: ([f, l]) => DECOMPOSITIONS.u([num(PI / 2), f, l]),
  p: ([l]) => [
    ['rz', [0], [l]],
    ['gphase', [], [half(l)]],
  ],
  sx: () => [
    ['rx', [0], [num(PI / 2)]],
    ['gphase', [], [num(PI / 4)]],
  ],
  sxdg: () => [
    ['rx', [0], [num(-PI / 2)]],
    ['gphase', [], [num(-PI / 4)]],
  ],
  s: () => [['p', [0], [num(PI / 2)]]],
  sdg: () => [['p', [0], [num(-PI / 2)]]],
  t: () => [['p', [0], [num(PI / 4)]]],
  tdg: () => [['p', [0], [num(-PI / 4)]]],
  z: () => [['p', [0], [num(PI)]]],
  y: () => [
    ['ry', [0], [num(PI)]],
    ['gphase', [], [num(PI / 2)]],
  ],
  x: () => [
    ['rx', [0], [num(PI)]],
    ['gphase', [], [num(PI / 2)]],
  ],
  h: () => [
    ['ry', [0], [num(PI / 2)]],
    ['x', [0]],
  ],
  id: () => [],
  // σ(φ) = rz(φ)·x·rz(−φ) exactly, so IonQ's gates are Z-frame rotations of x, rx(π/2) and rxx.
  gpi: ([f]) => [
    ['rz', [0], [neg(f)]],
    ['x', [0]],
    ['rz', [0], [f]],
  ],
  gpi2: ([f]) => [
    ['rz', [0], [neg(f)]],
    ['rx', [0], [num(PI / 2)]],
    ['rz', [0], [f]],
  ],
  ms: ([f0, f1, t]) => [
    ['rz', [0], [neg(f0)]],
    ['rz', [1], [neg(f1)]],
    ['rxx', [0, 1], [t]],
    ['rz', [0], [f0]],
    ['rz', [1], [f1]],
  ],
};
DECOMPOSITIONS.u3 = DECOMPOSITIONS.u;
DECOMPOSITIONS.u1 = DECOMPOSITIONS.p;
DECOMPOSITIONS.cu1 = DECOMPOSITIONS.cp;

export const hasDecomposition = (name: string): boolean => name in DECOMPOSITIONS;

/**
 * The decomposition of a standard gate applied to `op`'s qubits, carrying over its extra
 * controls and condition; undefined when the catalogue has none.
 */
export function decomposeGate(op: GateOp): GateOp[] | undefined {
  const make = DECOMPOSITIONS[op.name];
  if (!make) return undefined;
  const controls = op.controls ?? 0;
  const controlQubits = op.qubits.slice(0, controls);
  const args = op.qubits.slice(controls);
  return make(op.params).map(([name, qubits, params = []]) => {
    const step: GateOp = { kind: 'gate', name, qubits: [...controlQubits, ...qubits.map((q) => args[q])], params, line: op.line };
    if (controls) step.controls = controls;
    if (op.condition) step.condition = op.condition;
    return step;
  });
}
