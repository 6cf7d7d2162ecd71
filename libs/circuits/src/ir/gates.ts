/**
 * The standard gate catalogue: every gate of OpenQASM 2's qelib1.inc, OpenQASM 3's stdgates.inc
 * and the Qiskit/Cirq subsets, with its arity, parameter count and unitary (little-endian in
 * argument order, Qiskit's conventions, e.g. u(θ,φ,λ) = [[cos θ/2, −e^{iλ} sin θ/2], [e^{iφ} sin θ/2, e^{i(φ+λ)} cos θ/2]]).
 * Controlled gates are described as `controls` + a base gate so the simulator can use its
 * controlled kernel instead of a dense matrix.
 */
import { cis, controlled, matrix, multiply, scale, type Matrix } from './complex-matrix.js';

export interface StandardGate {
  name: string;
  /** Total number of qubit arguments (controls first). */
  qubits: number;
  params: number;
  /** Leading control qubits, for the controlled kernel. */
  controls: number;
  /** Unitary on the target qubits (after the controls). */
  base: (p: readonly number[]) => Matrix;
  /** True when the base matrix is diagonal for every parameter value. */
  diagonal?: boolean;
  /** For controlled gates: the gate the controls act on (`cx` → `x`). */
  baseName?: string;
}

const S2 = Math.SQRT1_2;

const u = (t: number, f: number, l: number): Matrix => {
  const c = Math.cos(t / 2);
  const s = Math.sin(t / 2);
  const [lr, li] = cis(l);
  const [fr, fi] = cis(f);
  const [flr, fli] = cis(f + l);
  return matrix([
    [c, [-lr * s, -li * s]],
    [
      [fr * s, fi * s],
      [flr * c, fli * c],
    ],
  ]);
};
const rx = (t: number): Matrix =>
  matrix([
    [Math.cos(t / 2), [0, -Math.sin(t / 2)]],
    [[0, -Math.sin(t / 2)], Math.cos(t / 2)],
  ]);
const ry = (t: number): Matrix =>
  matrix([
    [Math.cos(t / 2), -Math.sin(t / 2)],
    [Math.sin(t / 2), Math.cos(t / 2)],
  ]);
const rz = (t: number): Matrix =>
  matrix([
    [cis(-t / 2), 0],
    [0, cis(t / 2)],
  ]);
const p = (l: number): Matrix =>
  matrix([
    [1, 0],
    [0, cis(l)],
  ]);

const X = matrix([
  [0, 1],
  [1, 0],
]);
const Y = matrix([
  [0, [0, -1]],
  [[0, 1], 0],
]);
const Z = matrix([
  [1, 0],
  [0, -1],
]);
const H = matrix([
  [S2, S2],
  [S2, -S2],
]);
const I2 = matrix([
  [1, 0],
  [0, 1],
]);
const SX = matrix([
  [
    [0.5, 0.5],
    [0.5, -0.5],
  ],
  [
    [0.5, -0.5],
    [0.5, 0.5],
  ],
]);
const SXDG = matrix([
  [
    [0.5, -0.5],
    [0.5, 0.5],
  ],
  [
    [0.5, 0.5],
    [0.5, -0.5],
  ],
]);
const SWAP = matrix([
  [1, 0, 0, 0],
  [0, 0, 1, 0],
  [0, 1, 0, 0],
  [0, 0, 0, 1],
]);
const ISWAP = matrix([
  [1, 0, 0, 0],
  [0, 0, [0, 1], 0],
  [0, [0, 1], 0, 0],
  [0, 0, 0, 1],
]);
const ECR = scale(
  matrix([
    [0, 1, 0, [0, 1]],
    [1, 0, [0, -1], 0],
    [0, [0, 1], 0, 1],
    [[0, -1], 0, 1, 0],
  ]),
  [S2, 0],
);

function pauliRotation(t: number, pp: Matrix): Matrix {
  // exp(-i t/2 P⊗P) = cos(t/2) I − i sin(t/2) P⊗P
  const pp2 = kron(pp, pp);
  const c = Math.cos(t / 2);
  const s = Math.sin(t / 2);
  const out = new Float64Array(32);
  for (let i = 0; i < 16; i++) {
    out[2 * i] = (i % 5 === 0 ? c : 0) + s * pp2[2 * i + 1];
    out[2 * i + 1] = -s * pp2[2 * i];
  }
  return out;
}

/** b ⊗ a with `a` on the low bit (first argument). */
function kron(a: Matrix, b: Matrix): Matrix {
  const out = new Float64Array(32);
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) {
      const ar = a[2 * ((r & 1) * 2 + (c & 1))];
      const ai = a[2 * ((r & 1) * 2 + (c & 1)) + 1];
      const br = b[2 * ((r >> 1) * 2 + (c >> 1))];
      const bi = b[2 * ((r >> 1) * 2 + (c >> 1)) + 1];
      out[2 * (r * 4 + c)] = ar * br - ai * bi;
      out[2 * (r * 4 + c) + 1] = ar * bi + ai * br;
    }
  return out;
}

/** σ(φ) = cos φ X + sin φ Y = [[0, e^{−iφ}], [e^{iφ}, 0]]: the axis of IonQ's GPI gates. */
const sigma = (phi: number): Matrix =>
  matrix([
    [0, cis(-phi)],
    [cis(phi), 0],
  ]);
/** exp(−i t/2 σ(φ)) = cos(t/2) I − i sin(t/2) σ(φ). */
const sigmaRotation = (phi: number, t: number): Matrix => {
  const c = Math.cos(t / 2);
  const s = Math.sin(t / 2);
  const [er, ei] = cis(-phi);
  const [fr, fi] = cis(phi);
  return matrix([
    [c, [s * ei, -s * er]],
    [[s * fi, -s * fr], c],
  ]);
};

/**
 * IonQ's Mølmer–Sørensen gate ms(φ0, φ1, θ) = exp(−i θ/2 σ(φ0) ⊗ σ(φ1)) with angles in radians
 * (IonQ's API uses turns; θ = π/2 is IonQ's fully entangling MS(φ0, φ1)).
 */
function molmerSorensen(phi0: number, phi1: number, t: number): Matrix {
  const pp = kron(sigma(phi0), sigma(phi1));
  const c = Math.cos(t / 2);
  const s = Math.sin(t / 2);
  const out = new Float64Array(32);
  for (let i = 0; i < 16; i++) {
    out[2 * i] = (i % 5 === 0 ? c : 0) + s * pp[2 * i + 1];
    out[2 * i + 1] = -s * pp[2 * i];
  }
  return out;
}

const fixed = (m: Matrix) => () => m;

const one = (name: string, params: number, base: (p: readonly number[]) => Matrix, diagonal = false): StandardGate => ({
  name,
  qubits: 1,
  params,
  controls: 0,
  base,
  diagonal,
});
const ctrl = (name: string, controls: number, of: StandardGate): StandardGate => ({
  name,
  qubits: controls + of.qubits,
  params: of.params,
  controls,
  base: of.base,
  diagonal: of.diagonal,
  baseName: of.name,
});

const G = {
  id: one('id', 0, fixed(I2), true),
  x: one('x', 0, fixed(X)),
  y: one('y', 0, fixed(Y)),
  z: one('z', 0, fixed(Z), true),
  h: one('h', 0, fixed(H)),
  s: one('s', 0, fixed(p(Math.PI / 2)), true),
  sdg: one('sdg', 0, fixed(p(-Math.PI / 2)), true),
  t: one('t', 0, fixed(p(Math.PI / 4)), true),
  tdg: one('tdg', 0, fixed(p(-Math.PI / 4)), true),
  sx: one('sx', 0, fixed(SX)),
  sxdg: one('sxdg', 0, fixed(SXDG)),
  rx: one('rx', 1, ([t]) => rx(t)),
  ry: one('ry', 1, ([t]) => ry(t)),
  rz: one('rz', 1, ([t]) => rz(t), true),
  p: one('p', 1, ([l]) => p(l), true),
  u1: one('u1', 1, ([l]) => p(l), true),
  u2: one('u2', 2, ([f, l]) => u(Math.PI / 2, f, l)),
  u3: one('u3', 3, ([t, f, l]) => u(t, f, l)),
  u: one('u', 3, ([t, f, l]) => u(t, f, l)),
  swap: { name: 'swap', qubits: 2, params: 0, controls: 0, base: fixed(SWAP) } as StandardGate,
  iswap: { name: 'iswap', qubits: 2, params: 0, controls: 0, base: fixed(ISWAP) } as StandardGate,
  ecr: { name: 'ecr', qubits: 2, params: 0, controls: 0, base: fixed(ECR) } as StandardGate,
  rxx: { name: 'rxx', qubits: 2, params: 1, controls: 0, base: ([t]) => pauliRotation(t, X) } as StandardGate,
  ryy: { name: 'ryy', qubits: 2, params: 1, controls: 0, base: ([t]) => pauliRotation(t, Y) } as StandardGate,
  rzz: { name: 'rzz', qubits: 2, params: 1, controls: 0, base: ([t]) => pauliRotation(t, Z), diagonal: true } as StandardGate,
  // Trapped-ion native gates (IonQ's definitions, angles in radians): gpi(φ) = σ(φ), gpi2(φ) = exp(−iπ/4 σ(φ)).
  gpi: one('gpi', 1, ([f]) => sigma(f)),
  gpi2: one('gpi2', 1, ([f]) => sigmaRotation(f, Math.PI / 2)),
  ms: { name: 'ms', qubits: 2, params: 3, controls: 0, base: ([f0, f1, t]) => molmerSorensen(f0, f1, t) } as StandardGate,
};

/** Global phase e^{iθ} (OpenQASM 3 `gphase`); under controls it is a phase on the controls. */
const GPHASE: StandardGate = { name: 'gphase', qubits: 0, params: 1, controls: 0, base: ([t]) => matrix([[cis(t)]]), diagonal: true };

const CU: StandardGate = { name: 'cu', qubits: 2, params: 4, controls: 1, baseName: 'u_phase', base: ([t, f, l, g]) => scale(u(t, f, l), cis(g)) };

/** Every standard gate by its canonical (lower-case, qelib1/Qiskit) name. */
export const STANDARD_GATES: ReadonlyMap<string, StandardGate> = new Map(
  [
    ...Object.values(G),
    ctrl('cx', 1, G.x),
    ctrl('cy', 1, G.y),
    ctrl('cz', 1, G.z),
    ctrl('ch', 1, G.h),
    ctrl('cp', 1, G.p),
    ctrl('cu1', 1, G.p),
    ctrl('crx', 1, G.rx),
    ctrl('cry', 1, G.ry),
    ctrl('crz', 1, G.rz),
    ctrl('cu3', 1, G.u3),
    ctrl('csx', 1, G.sx),
    CU,
    GPHASE,
    ctrl('ccx', 2, G.x),
    ctrl('ccz', 2, G.z),
    ctrl('cswap', 1, G.swap),
    ctrl('c3x', 3, G.x),
    ctrl('c3sqrtx', 3, G.sx),
    ctrl('c4x', 4, G.x),
  ].map((g) => [g.name, g]),
);

/** Other spellings accepted by the front ends, mapped to the canonical name. */
export const GATE_ALIASES: ReadonlyMap<string, string> = new Map([
  ['U', 'u'],
  ['CX', 'cx'],
  ['phase', 'p'],
  ['cphase', 'cp'],
  ['u0', 'id'],
  ['toffoli', 'ccx'],
  ['fredkin', 'cswap'],
  ['cnot', 'cx'],
  ['i', 'id'],
]);

export const standardGate = (name: string): StandardGate | undefined => STANDARD_GATES.get(name);

/** Full unitary of a standard gate with evaluated parameters, including its controls. */
export function gateMatrix(gate: StandardGate, params: readonly number[]): Matrix {
  return controlled(gate.base(params), gate.controls);
}

/**
 * Named inverse of a standard gate, when one exists in the catalogue. Generic over the parameter
 * type so symbolic parameters (inside gate definitions) invert too.
 */
export function namedInverse<T>(name: string, params: readonly T[], neg: (t: T) => T, constant: (v: number) => T): { name: string; params: T[] } | undefined {
  const self = ['id', 'x', 'y', 'z', 'h', 'cx', 'cy', 'cz', 'ch', 'swap', 'ccx', 'ccz', 'cswap', 'c3x', 'c4x', 'ecr'];
  if (self.includes(name)) return { name, params: [] };
  const pairs: Record<string, string> = { s: 'sdg', sdg: 's', t: 'tdg', tdg: 't', sx: 'sxdg', sxdg: 'sx' };
  if (pairs[name]) return { name: pairs[name], params: [] };
  if (['rx', 'ry', 'rz', 'p', 'u1', 'crx', 'cry', 'crz', 'cp', 'cu1', 'rxx', 'ryy', 'rzz', 'gphase'].includes(name)) return { name, params: params.map(neg) };
  if (name === 'gpi') return { name, params: [...params] };
  if (name === 'ms') return { name, params: [params[0], params[1], neg(params[2])] };
  if (name === 'u' || name === 'u3' || name === 'cu3') return { name, params: [neg(params[0]), neg(params[2]), neg(params[1])] };
  if (name === 'u2') return { name: 'u', params: [constant(-Math.PI / 2), neg(params[1]), neg(params[0])] };
  if (name === 'cu') return { name, params: [neg(params[0]), neg(params[2]), neg(params[1]), neg(params[3])] };
  return undefined;
}

/** ZYZ Euler angles of a 2×2 unitary: m = e^{iγ} u(θ, φ, λ). */
export function eulerAngles(m: Matrix): { theta: number; phi: number; lambda: number; gamma: number } {
  const a = [m[0], m[1]];
  const b = [m[2], m[3]];
  const c = [m[4], m[5]];
  const d = [m[6], m[7]];
  const absA = Math.hypot(a[0], a[1]);
  const absC = Math.hypot(c[0], c[1]);
  const theta = 2 * Math.atan2(absC, absA);
  const argA = Math.atan2(a[1], a[0]);
  const argC = Math.atan2(c[1], c[0]);
  const argB = Math.atan2(b[1], b[0]);
  const argD = Math.atan2(d[1], d[0]);
  let gamma: number;
  let phi: number;
  let lambda: number;
  if (absA < 1e-12) {
    // θ = π: m = e^{iγ}[[0, −e^{iλ}], [e^{iφ}, 0]]; choose λ = 0.
    gamma = argB - Math.PI;
    lambda = 0;
    phi = argC - gamma;
  } else if (absC < 1e-12) {
    // θ = 0: m = e^{iγ} diag(1, e^{i(φ+λ)}); choose φ = 0.
    gamma = argA;
    phi = 0;
    lambda = argD - gamma;
  } else {
    gamma = argA;
    phi = argC - gamma;
    lambda = argB - Math.PI - gamma;
  }
  return { theta, phi, lambda, gamma };
}

export { multiply as multiplyMatrices };
