/**
 * Exact basis translation to device gate sets.
 *
 * One-qubit gates: the ZYZ Euler angles of the fused 2×2 unitary (u(θ,φ,λ) ∝ Rz(φ)Ry(θ)Rz(λ))
 * are rewritten for the device basis — {rz, sx, x}: Rz(φ)·SX·Rz(π−θ)·SX·Rz(λ−π) (the ZSX form of
 * Qiskit's OneQubitEulerDecomposer); {gpi, gpi2}: GPI2(φ)·GPI((φ−λ−θ)/2)·GPI2(−λ) (from
 * gpi(p) = Rz(p)·X·Rz(−p), gpi2(p) = Rz(p)·Rx(π/2)·Rz(−p)); {rx, ry}: the ZYZ angles of H·U·H;
 * shorter forms (Z-only, θ = π/2, θ = π) are tried first. Every candidate is checked against the
 * target matrix and the exact global phase is returned, so translation is exact, not approximate.
 *
 * Two-qubit gates: every CX becomes the device's entangler with one-qubit corrections —
 * cz: H_t·CZ·H_t; ecr: ECR after Rz(−π/2)·Ry(π) on the control and Rx(π/2) on the target (Qiskit's
 * equivalence-library rule); ms/rxx: CZ = e^{iπ/4}·Rz(π/2)⊗Rz(π/2)·Rzz(−π/2) with
 * Rzz = (H⊗H)·Rxx·(H⊗H) and Rxx(−π/2) = Z·Rxx(π/2)·Z = Z·MS(0,0)·Z (Maslov 2017, New J. Phys. 19
 * 023035). Each template's exactness and global phase are computed from its matrix on first use.
 */
import { CircuitError } from '../errors.js';
import { kron2, multiply, type Matrix } from '../ir/complex-matrix.js';
import { LruCache } from '#qdc/collections';
import { eulerAngles, STANDARD_GATES } from '../ir/gates.js';

export type OneQubitBasis = 'zsx' | 'gpi' | 'rxry' | 'rzry' | 'u';
export type TwoQubitNative = 'cx' | 'cz' | 'ecr' | 'ms' | 'rxx';

export interface NativeGate {
  name: string;
  params: number[];
}

const TAU = 2 * Math.PI;
/** Angle wrapped into (−π, π]. */
export const wrapAngle = (a: number): number => {
  let x = a % TAU;
  if (x <= -Math.PI) x += TAU;
  if (x > Math.PI) x -= TAU;
  return x;
};

export function gate1(name: string, params: number[] = []): Matrix {
  const g = STANDARD_GATES.get(name);
  if (g?.qubits !== 1) throw new Error(`not a one-qubit gate: ${name}`);
  return g.base(params);
}

export const H = gate1('h');
const Z = gate1('z');
const I2 = gate1('id');

/**
 * Phase δ with a = e^{iδ}·b (entries within tol), or undefined when a and b differ by more
 * than a global phase. Works for any square size.
 */
export function phaseBetween(a: Matrix, b: Matrix, tol = 1e-9): number | undefined {
  let best = -1;
  let k = 0;
  for (let i = 0; i < b.length; i += 2) {
    const m = b[i] ** 2 + b[i + 1] ** 2;
    if (m > best) {
      best = m;
      k = i;
    }
  }
  // ratio a_k / b_k
  const br = b[k],
    bi = b[k + 1];
  const rr = (a[k] * br + a[k + 1] * bi) / best;
  const ri = (a[k + 1] * br - a[k] * bi) / best;
  const mag = Math.hypot(rr, ri);
  if (Math.abs(mag - 1) > 1e-7) return undefined;
  const pr = rr / mag,
    pi = ri / mag;
  for (let i = 0; i < a.length; i += 2) {
    const xr = b[i] * pr - b[i + 1] * pi;
    const xi = b[i] * pi + b[i + 1] * pr;
    if (Math.abs(xr - a[i]) > tol || Math.abs(xi - a[i + 1]) > tol) return undefined;
  }
  return Math.atan2(pi, pr);
}

const ROTATIONS = new Set(['rz', 'rx', 'ry']);

/** Product (in circuit order) of a one-qubit gate sequence. */
function product(seq: NativeGate[]): Matrix {
  let m = I2;
  for (const g of seq) m = multiply(gate1(g.name, g.params), m);
  return m;
}

function candidates(m: Matrix, basis: OneQubitBasis, allowX: boolean): NativeGate[][] {
  const { theta: t, phi: f, lambda: l } = eulerAngles(m);
  const g = (name: string, ...params: number[]): NativeGate => ({ name, params: params.map(wrapAngle) });
  switch (basis) {
    case 'zsx': {
      const out: NativeGate[][] = [[], [g('rz', f + l)], [g('rz', l - Math.PI / 2), g('sx'), g('rz', f + Math.PI / 2)]];
      if (allowX) out.push([g('rz', l + Math.PI), g('x'), g('rz', f)]);
      out.push([g('rz', l - Math.PI), g('sx'), g('rz', Math.PI - t), g('sx'), g('rz', f)]);
      return out;
    }
    case 'gpi':
      return [
        [],
        [g('gpi', (f - l) / 2 + Math.PI / 2)],
        [g('gpi2', f + Math.PI / 2)],
        [g('gpi', 0), g('gpi', (f + l) / 2)],
        [g('gpi2', -l), g('gpi', (f - l - t) / 2), g('gpi2', f)],
      ];
    case 'rxry': {
      const x = eulerAngles(multiply(H, multiply(m, H)));
      return [[], [g('rx', x.phi + x.lambda)], [g('ry', -x.theta)], [g('rx', x.lambda), g('ry', -x.theta), g('rx', x.phi)]];
    }
    case 'rzry':
      return [[], [g('rz', f + l)], [g('ry', t)], [g('rz', l), g('ry', t), g('rz', f)]];
    case 'u':
      return [[], [g('u', t, f, l)]];
  }
}

const isZeroRotation = (gate: NativeGate): boolean => ROTATIONS.has(gate.name) && Math.abs(gate.params[0]) < 1e-12;

/**
 * Gates of `basis` whose product equals `m` times e^{i·phase}: the shortest candidate that
 * matches exactly (zero rotations dropped).
 */
export function synthesizeOneQubit(m: Matrix, basis: OneQubitBasis, allowX = true): { gates: NativeGate[]; phase: number } {
  for (const candidate of candidates(m, basis, allowX)) {
    const seq = candidate.filter((gate) => !isZeroRotation(gate));
    const phase = phaseBetween(m, product(seq));
    if (phase !== undefined) return { gates: seq, phase };
  }
  // Unreachable for unitary input: the general form always matches.
  throw new CircuitError('unsupported', `one-qubit synthesis in the ${basis} basis failed for a non-unitary matrix`);
}

/** An operation of a two-qubit translation template: a one-qubit matrix or the native entangler. */
export type TemplateStep = { k: 'u'; q: 0 | 1; m: Matrix } | { k: 'g2'; name: TwoQubitNative; a: 0 | 1; b: 0 | 1; params: number[] };

const u = (q: 0 | 1, m: Matrix): TemplateStep => ({ k: 'u', q, m });

/** ECR-based CX (control 0, target 1): Qiskit's equivalence rule, global phase checked at load time. */
const CX_VIA_ECR: TemplateStep[] = [
  u(0, gate1('rz', [-Math.PI / 2])),
  u(0, gate1('ry', [Math.PI])),
  u(1, gate1('rx', [Math.PI / 2])),
  { k: 'g2', name: 'ecr', a: 0, b: 1, params: [] },
];

function cxTemplate(native: TwoQubitNative): TemplateStep[] {
  switch (native) {
    case 'cx':
      return [{ k: 'g2', name: 'cx', a: 0, b: 1, params: [] }];
    case 'cz':
      return [u(1, H), { k: 'g2', name: 'cz', a: 0, b: 1, params: [] }, u(1, H)];
    case 'ecr':
      return CX_VIA_ECR;
    case 'ms':
    case 'rxx': {
      const entangler: TemplateStep =
        native === 'ms' ? { k: 'g2', name: 'ms', a: 0, b: 1, params: [0, 0, Math.PI / 2] } : { k: 'g2', name: 'rxx', a: 0, b: 1, params: [Math.PI / 2] };
      return [
        u(1, H),
        u(0, H),
        u(1, H),
        u(0, Z),
        entangler,
        u(0, Z),
        u(0, H),
        u(1, H),
        u(0, gate1('rz', [Math.PI / 2])),
        u(1, gate1('rz', [Math.PI / 2])),
        u(1, H),
      ];
    }
  }
}

/** 4×4 matrix of a template (qubit 0 = bit 0). */
export function templateMatrix(steps: TemplateStep[]): Matrix {
  let m = kron2(I2, I2);
  for (const s of steps) {
    const step = s.k === 'u' ? (s.q === 0 ? kron2(s.m, I2) : kron2(I2, s.m)) : twoQubitMatrix(s.name, s.params, s.a === 1);
    m = multiply(step, m);
  }
  return m;
}

/** The gate's 4×4 matrix on (0, 1), or on (1, 0) when `reversed`. */
function twoQubitMatrix(name: string, params: number[], reversed: boolean): Matrix {
  const g = STANDARD_GATES.get(name)!;
  const full = g.controls ? controlledFull(g.base(params)) : g.base(params);
  if (!reversed) return full;
  const out = new Float64Array(32);
  const sw = (i: number) => ((i & 1) << 1) | (i >> 1);
  for (let r = 0; r < 4; r++)
    for (let c = 0; c < 4; c++) {
      out[2 * (sw(r) * 4 + sw(c))] = full[2 * (r * 4 + c)];
      out[2 * (sw(r) * 4 + sw(c)) + 1] = full[2 * (r * 4 + c) + 1];
    }
  return out;
}

function controlledFull(base: Matrix): Matrix {
  // control on bit 0, target on bit 1 (base 2×2)
  const out = kron2(I2, I2);
  for (let r = 0; r < 2; r++)
    for (let c = 0; c < 2; c++) {
      const R = (r << 1) | 1,
        C = (c << 1) | 1;
      out[2 * (R * 4 + C)] = base[2 * (r * 2 + c)];
      out[2 * (R * 4 + C) + 1] = base[2 * (r * 2 + c) + 1];
    }
  return out;
}

const CX = controlledFull(gate1('x'));

export interface CxTranslation {
  steps: TemplateStep[];
  /** CX = e^{i·phase} × product of steps. */
  phase: number;
}

/**
 * cxTranslation's results: a pure function of (native, reversedOnly), shared read-only by every compile. The key
 * space is five natives × two directions, so the bound holds every translation and nothing is ever evicted.
 */
const CX_TRANSLATIONS = new LruCache<string, CxTranslation>(10);

/**
 * CX(control 0, target 1) in the native entangler. With `reversedOnly` (a directional gate whose
 * edge only exists as (1, 0)), CX is conjugated by H⊗H so the entangler runs as (1, 0).
 */
export function cxTranslation(native: TwoQubitNative, reversedOnly: boolean): CxTranslation {
  return CX_TRANSLATIONS.getOrCreate(`${native}:${reversedOnly}`, () => {
    let steps = cxTemplate(native);
    if (reversedOnly) {
      // CX(0→1) = (H⊗H)·CX(1→0)·(H⊗H)
      const flipped = steps.map((s): TemplateStep => (s.k === 'u' ? { ...s, q: (1 - s.q) as 0 | 1 } : { ...s, a: s.b, b: s.a }));
      steps = [u(0, H), u(1, H), ...flipped, u(0, H), u(1, H)];
    }
    const phase = phaseBetween(CX, templateMatrix(steps));
    if (phase === undefined) throw new Error(`internal: the CX template for ${native} is not exact`);
    return { steps, phase };
  });
}
