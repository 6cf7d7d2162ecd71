// Constant-interaction (capacitance) model of a double quantum dot — W. G. van der Wiel et al., Rev. Mod. Phys.
// 75, 1 (2003), Sec. II.A, Eqs. (1)–(3); R. Hanson et al., Rev. Mod. Phys. 79, 1217 (2007), Sec. II.B.
//
// Electrostatic energy of the charge state N = (N1, N2) (Eq. 2 rewritten as a quadratic form):
//   U(N) = ½ (N − n)ᵀ E_C (N − n),   E_C = e² C⁻¹,   C = [[C1, −Cm], [−Cm, C2]],
// so E_C1 = e² C2 / (C1 C2 − Cm²), E_C2 = e² C1 / (C1 C2 − Cm²), E_Cm = e² Cm / (C1 C2 − Cm²), and
// n = (C_g V) / |e| are the gate-induced charges including cross-capacitances (here n = A·(x, y) + n0 with
// the lever-arm matrix A in electrons per pixel). The constant in Eq. 2 that does not depend on N drops out.
// Thermal occupations are Boltzmann averages over the charge states near the ground state (grand-canonical,
// reservoirs at zero chemical potential, which the gate charges n already reference).
//
// Energies are in units of E_C1 (so E_C1 = 1) and temperatures are kT / E_C1.

export interface DoubleDotElectrostatics {
  /** Charging energies in units of E_C1: E_C2 / E_C1 and E_Cm / E_C1 (interdot coupling). */
  ec2: number;
  ecm: number;
  /** Gate-induced charge n = A·(x, y) + n0, A = [[a11, a12], [a21, a22]] (electrons per pixel). */
  a11: number;
  a12: number;
  a21: number;
  a22: number;
  n01: number;
  n02: number;
  /** kT / E_C1. */
  kT: number;
  /** Single dot: only dot 1 exists (N2 ≡ 0, no dot-2 states). */
  singleDot: boolean;
}

/** Charging-energy ratios from the capacitance matrix (Eq. 3 of van der Wiel et al.), in units of E_C1. */
export function chargingEnergiesFromCapacitances(c1: number, c2: number, cm: number): { ec2: number; ecm: number } {
  // E_C1 ∝ C2, E_C2 ∝ C1, E_Cm ∝ Cm with the same prefactor e² / (C1 C2 − Cm²).
  return { ec2: c1 / c2, ecm: cm / c2 };
}

export function gateCharges(model: DoubleDotElectrostatics, x: number, y: number): [number, number] {
  return [model.a11 * x + model.a12 * y + model.n01, model.a21 * x + model.a22 * y + model.n02];
}

/** U(N) − ½ n ᵀ E_C n is enough to compare states; the full quadratic form is kept for readability. */
export function electrostaticEnergy(model: DoubleDotElectrostatics, n1: number, n2: number, N1: number, N2: number): number {
  const d1 = N1 - n1;
  const d2 = N2 - n2;
  return 0.5 * d1 * d1 + 0.5 * model.ec2 * d2 * d2 + model.ecm * d1 * d2;
}

export interface ChargeState {
  /** Ground-state occupations. */
  N1: number;
  N2: number;
  /** Thermal averages ⟨N1⟩, ⟨N2⟩ and variances of N1, N2 and N1 + N2. */
  mean1: number;
  mean2: number;
  var1: number;
  var2: number;
  varTotal: number;
}

/**
 * Ground state and thermal moments at gate charges (n1, n2). Candidate states: a 5×5 block around the rounded
 * gate charges (enough for E_Cm < E_C, where the ground state is within ±1 of round(n) — a margin of one
 * more), occupations never negative (the dot is empty below n = 0, like a real last-electron regime).
 */
export function chargeState(model: DoubleDotElectrostatics, n1: number, n2: number, out: ChargeState): ChargeState {
  const c1 = Math.round(n1);
  const c2 = Math.round(n2);
  let best = Infinity;
  let bestN1 = 0;
  let bestN2 = 0;
  const lo2 = model.singleDot ? 0 : Math.max(0, c2 - 2);
  const hi2 = model.singleDot ? 0 : Math.max(0, c2 + 2);
  const lo1 = Math.max(0, c1 - 2);
  const hi1 = Math.max(0, c1 + 2);
  for (let N1 = lo1; N1 <= hi1; N1++) {
    for (let N2 = lo2; N2 <= hi2; N2++) {
      const e = electrostaticEnergy(model, n1, model.singleDot ? 0 : n2, N1, N2);
      if (e < best) {
        best = e;
        bestN1 = N1;
        bestN2 = N2;
      }
    }
  }
  let z = 0;
  let s1 = 0;
  let s2 = 0;
  let q1 = 0;
  let q2 = 0;
  let qt = 0;
  const beta = 1 / Math.max(1e-6, model.kT);
  for (let N1 = lo1; N1 <= hi1; N1++) {
    for (let N2 = lo2; N2 <= hi2; N2++) {
      const e = electrostaticEnergy(model, n1, model.singleDot ? 0 : n2, N1, N2) - best;
      if (e * beta > 40) continue;
      const w = Math.exp(-e * beta);
      z += w;
      s1 += w * N1;
      s2 += w * N2;
      q1 += w * N1 * N1;
      q2 += w * N2 * N2;
      qt += w * (N1 + N2) * (N1 + N2);
    }
  }
  out.N1 = bestN1;
  out.N2 = bestN2;
  out.mean1 = s1 / z;
  out.mean2 = s2 / z;
  out.var1 = Math.max(0, q1 / z - out.mean1 * out.mean1);
  out.var2 = Math.max(0, q2 / z - out.mean2 * out.mean2);
  const meanT = out.mean1 + out.mean2;
  out.varTotal = Math.max(0, qt / z - meanT * meanT);
  return out;
}

export const newChargeState = (): ChargeState => ({ N1: 0, N2: 0, mean1: 0, mean2: 0, var1: 0, var2: 0, varTotal: 0 });
