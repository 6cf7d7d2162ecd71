/**
 * Density-matrix kernels. ρ of k qubits is stored as a 2k-qubit interleaved vector with the row
 * index in bits 0..k−1 and the column index in bits k..2k−1. Channels follow Nielsen & Chuang §8.3
 * (depolarizing, amplitude and phase damping) and Aer's thermal_relaxation_error (T2 ≤ 2T1):
 * populations relax towards |0⟩ with 1 − e^{−t/T1}, coherences decay with e^{−t/T2}.
 */
export function zeroDensity(k: number): Float64Array {
  const rho = new Float64Array(2 << (2 * k));
  rho[0] = 1;
  return rho;
}

/** Diagonal of ρ (the computational-basis probabilities). */
export function densityDiagonal(rho: Float64Array, k: number): Float64Array {
  const size = 1 << k;
  const p = new Float64Array(size);
  for (let i = 0; i < size; i++) p[i] = Math.max(0, rho[2 * (i | (i << k))]);
  return p;
}

/**
 * Superoperators on 1 or 2 qubits, as (d²×d²) complex matrices acting on the block vector
 * e = r | (c << m) (r, c: the row and column sub-indices over the m qubits, little-endian in the
 * qubits' order). Every noisy one-qubit run and every two-qubit gate with its noise is composed
 * into one superoperator and applied in one pass over ρ.
 */
export function unitarySuperop(u: Float64Array, m: number): Float64Array {
  const d = 1 << m;
  const D = d * d;
  const s = new Float64Array(2 * D * D);
  for (let r = 0; r < d; r++)
    for (let c = 0; c < d; c++)
      for (let r2 = 0; r2 < d; r2++)
        for (let c2 = 0; c2 < d; c2++) {
          const ur = u[2 * (r * d + r2)],
            ui = u[2 * (r * d + r2) + 1];
          const vr = u[2 * (c * d + c2)],
            vi = -u[2 * (c * d + c2) + 1];
          const row = r | (c << m),
            col = r2 | (c2 << m);
          s[2 * (row * D + col)] = ur * vr - ui * vi;
          s[2 * (row * D + col) + 1] = ur * vi + ui * vr;
        }
  return s;
}

export function depolarizingSuperop(m: number, p: number): Float64Array {
  const d = 1 << m;
  const D = d * d;
  const lambda = (D * p) / (D - 1);
  const s = new Float64Array(2 * D * D);
  for (let e = 0; e < D; e++) s[2 * (e * D + e)] = 1 - lambda;
  for (let r = 0; r < d; r++) for (let r2 = 0; r2 < d; r2++) s[2 * ((r | (r << m)) * D + (r2 | (r2 << m)))] += lambda / d;
  return s;
}

/** Thermal relaxation of one qubit (block e = r | c << 1). */
export function relaxationSuperop(gamma: number, f: number): Float64Array {
  const s = new Float64Array(32);
  s[0] = 1; // ρ00 ← ρ00
  s[2 * 3] = gamma; // ρ00 += γ ρ11
  s[2 * 5] = f; // ρ10
  s[2 * 10] = f; // ρ01
  s[2 * 15] = 1 - gamma; // ρ11
  return s;
}

export const IDENTITY_SUPEROP_1 = relaxationSuperop(0, 1);

/** Two one-qubit superoperators as one on (a = bit 0, b = bit 1) in the 2-qubit block layout. */
export function kronSuperop(a: Float64Array, b: Float64Array): Float64Array {
  const s = new Float64Array(2 * 256);
  for (let e = 0; e < 16; e++)
    for (let f = 0; f < 16; f++) {
      // e = r0 | r1<<1 | c0<<2 | c1<<3; one-qubit index = r | c<<1
      const ea = (e & 1) | (((e >> 2) & 1) << 1),
        eb = ((e >> 1) & 1) | (((e >> 3) & 1) << 1);
      const fa = (f & 1) | (((f >> 2) & 1) << 1),
        fb = ((f >> 1) & 1) | (((f >> 3) & 1) << 1);
      const xr = a[2 * (ea * 4 + fa)],
        xi = a[2 * (ea * 4 + fa) + 1];
      const yr = b[2 * (eb * 4 + fb)],
        yi = b[2 * (eb * 4 + fb) + 1];
      s[2 * (e * 16 + f)] = xr * yr - xi * yi;
      s[2 * (e * 16 + f) + 1] = xr * yi + xi * yr;
    }
  return s;
}

/** A one-qubit superoperator (dense 4×4) on qubit q: nested strides over the bits q and q + k. */
function applySuperop1(rho: Float64Array, k: number, q: number, s: Float64Array): void {
  const lb = 1 << q,
    hb = 1 << (q + k);
  const total = 1 << (2 * k);
  const S = s;
  for (let hi = 0; hi < total; hi += 2 * hb)
    for (let mid = hi; mid < hi + hb; mid += 2 * lb)
      for (let i = mid; i < mid + lb; i++) {
        const a0 = 2 * i,
          a1 = 2 * (i | lb),
          a2 = 2 * (i | hb),
          a3 = 2 * (i | lb | hb);
        const x0r = rho[a0],
          x0i = rho[a0 + 1],
          x1r = rho[a1],
          x1i = rho[a1 + 1];
        const x2r = rho[a2],
          x2i = rho[a2 + 1],
          x3r = rho[a3],
          x3i = rho[a3 + 1];
        for (let e = 0; e < 4; e++) {
          const o = 8 * e;
          const re = S[o] * x0r - S[o + 1] * x0i + S[o + 2] * x1r - S[o + 3] * x1i + S[o + 4] * x2r - S[o + 5] * x2i + S[o + 6] * x3r - S[o + 7] * x3i;
          const im = S[o] * x0i + S[o + 1] * x0r + S[o + 2] * x1i + S[o + 3] * x1r + S[o + 4] * x2i + S[o + 5] * x2r + S[o + 6] * x3i + S[o + 7] * x3r;
          const a = e === 0 ? a0 : e === 1 ? a1 : e === 2 ? a2 : a3;
          rho[a] = re;
          rho[a + 1] = im;
        }
      }
}

/** Applies a superoperator on `qubits` (1 or 2) to ρ in one pass. */
export function applySuperop(rho: Float64Array, k: number, qubits: readonly number[], s: Float64Array): void {
  if (qubits.length === 1) return void applySuperop1(rho, k, qubits[0], s);
  const m = qubits.length;
  const D = 1 << (2 * m);
  const bits = [...qubits, ...qubits.map((q) => q + k)];
  const offsets = new Int32Array(D);
  for (let e = 0; e < D; e++) for (let j = 0; j < 2 * m; j++) if (e & (1 << j)) offsets[e] |= 1 << bits[j];
  const sorted = [...bits].sort((x, y) => x - y);
  const count = 1 << (2 * k - 2 * m);
  // Sparse rows: unitary, depolarizing and relaxation superoperators are mostly zeros.
  const rowStart = new Int32Array(D + 1);
  const cols: number[] = [],
    vr: number[] = [],
    vi: number[] = [];
  for (let e = 0; e < D; e++) {
    for (let f = 0; f < D; f++) {
      const re = s[2 * (e * D + f)],
        im = s[2 * (e * D + f) + 1];
      if (Math.abs(re) < 1e-300 && Math.abs(im) < 1e-300) continue;
      cols.push(f);
      vr.push(re);
      vi.push(im);
    }
    rowStart[e + 1] = cols.length;
  }
  const C = Int32Array.from(cols),
    VR = Float64Array.from(vr),
    VI = Float64Array.from(vi);
  const inR = new Float64Array(D),
    inI = new Float64Array(D);
  const idx = new Int32Array(D);
  for (let x = 0; x < count; x++) {
    let base = x;
    for (let j = 0; j < sorted.length; j++) {
      const p = sorted[j];
      base = ((base >> p) << (p + 1)) | (base & ((1 << p) - 1));
    }
    for (let e = 0; e < D; e++) {
      const i = 2 * (base | offsets[e]);
      idx[e] = i;
      inR[e] = rho[i];
      inI[e] = rho[i + 1];
    }
    for (let e = 0; e < D; e++) {
      let re = 0,
        im = 0;
      for (let j = rowStart[e]; j < rowStart[e + 1]; j++) {
        const f = C[j],
          sr = VR[j],
          si = VI[j];
        re += sr * inR[f] - si * inI[f];
        im += sr * inI[f] + si * inR[f];
      }
      rho[idx[e]] = re;
      rho[idx[e] + 1] = im;
    }
  }
}
