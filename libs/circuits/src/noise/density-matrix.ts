/**
 * Density-matrix kernels. ρ of k qubits is stored as a 2k-qubit interleaved vector with the row
 * index in bits 0..k−1 and the column index in bits k..2k−1, so ρ → UρU† is U on qubit q and
 * conj(U) on qubit q + k with the state-vector kernels. Channels follow Nielsen & Chuang §8.3
 * (depolarizing, amplitude and phase damping) and Aer's thermal_relaxation_error (T2 ≤ 2T1):
 * populations relax towards |0⟩ with 1 − e^{−t/T1}, coherences decay with e^{−t/T2}.
 */
import type { Instruction } from '../simulator/program.js';

export function zeroDensity(k: number): Float64Array {
  const rho = new Float64Array(2 << (2 * k));
  rho[0] = 1;
  return rho;
}

const conj = (m: Float64Array): Float64Array => m.map((v, i) => (i % 2 ? -v : v));

/** The instruction acting on the column index: conjugated matrix on qubits shifted by k. */
export function columnInstruction(ins: Instruction, k: number): Instruction {
  const s = (q: number) => q + k;
  switch (ins.t) {
    case 'dense1':
      return { t: 'dense1', q: s(ins.q), m: conj(ins.m) };
    case 'diag1':
      return { t: 'diag1', q: s(ins.q), d: conj(ins.d) };
    case 'phase':
      return { t: 'phase', qubits: ins.qubits.map(s), re: ins.re, im: -ins.im };
    case 'ctrl1':
      return { t: 'ctrl1', controls: ins.controls.map(s), q: s(ins.q), m: conj(ins.m) };
    case 'diagk':
      return { t: 'diagk', controls: ins.controls.map(s), qubits: ins.qubits.map(s), d: conj(ins.d) };
    case 'densek':
      return { t: 'densek', controls: ins.controls.map(s), qubits: ins.qubits.map(s), m: conj(ins.m) };
    default:
      throw new Error(`internal: ${ins.t} is not a unitary instruction`);
  }
}

/**
 * Thermal relaxation of qubit q for a time with population decay γ = 1 − e^{−t/T1} and coherence
 * factor f = e^{−t/T2}: ρ00 += γρ11, ρ11 *= 1 − γ, ρ01, ρ10 *= f (exact channel).
 */
export function relaxDensity(rho: Float64Array, k: number, q: number, gamma: number, f: number): void {
  const rb = 1 << q, cb = 1 << (q + k);
  const total = 1 << (2 * k);
  const keep = 1 - gamma;
  for (let i = 0; i < total; i++) {
    if (i & (rb | cb)) continue;
    const i00 = 2 * i, i11 = 2 * (i | rb | cb), i10 = 2 * (i | rb), i01 = 2 * (i | cb);
    rho[i00] += gamma * rho[i11];
    rho[i00 + 1] += gamma * rho[i11 + 1];
    rho[i11] *= keep;
    rho[i11 + 1] *= keep;
    rho[i10] *= f;
    rho[i10 + 1] *= f;
    rho[i01] *= f;
    rho[i01 + 1] *= f;
  }
}

/**
 * Depolarizing channel on `qubits` (1 or 2) with Pauli probability p:
 * (1 − p)ρ + p/(4^n − 1) Σ_{P≠I} PρP = (1 − λ)ρ + λ·(I/2^n ⊗ Tr_qubits ρ), λ = 4^n p/(4^n − 1).
 */
export function depolarizeDensity(rho: Float64Array, k: number, qubits: readonly number[], p: number): void {
  if (p === 0) return;
  const n = qubits.length;
  const d = 1 << n;
  const lambda = (d * d * p) / (d * d - 1);
  const keep = 1 - lambda;
  // offsets of the d×d block elements (row sub-index r, column sub-index c)
  const rowOff = new Int32Array(d), colOff = new Int32Array(d);
  for (let s = 0; s < d; s++)
    for (let j = 0; j < n; j++)
      if (s & (1 << j)) {
        rowOff[s] |= 1 << qubits[j];
        colOff[s] |= 1 << (qubits[j] + k);
      }
  let mask = 0;
  for (let s = 0; s < d; s++) mask |= rowOff[s] | colOff[s];
  const total = 1 << (2 * k);
  for (let base = 0; base < total; base++) {
    if (base & mask) continue;
    let mr = 0, mi = 0;
    for (let s = 0; s < d; s++) {
      const i = 2 * (base | rowOff[s] | colOff[s]);
      mr += rho[i];
      mi += rho[i + 1];
    }
    mr = (lambda * mr) / d;
    mi = (lambda * mi) / d;
    for (let r = 0; r < d; r++)
      for (let c = 0; c < d; c++) {
        const i = 2 * (base | rowOff[r] | colOff[c]);
        rho[i] *= keep;
        rho[i + 1] *= keep;
        if (r === c) {
          rho[i] += mr;
          rho[i + 1] += mi;
        }
      }
  }
}

/** Diagonal of ρ (the computational-basis probabilities). */
export function densityDiagonal(rho: Float64Array, k: number): Float64Array {
  const size = 1 << k;
  const p = new Float64Array(size);
  for (let i = 0; i < size; i++) p[i] = Math.max(0, rho[2 * (i | (i << k))]);
  return p;
}
