/**
 * What the split-circuit tool answers: the subcircuits (OpenQASM 3, with their cut inputs and
 * outputs and which original clbits they produce) and the recombination recipe.
 */
import type { Circuit } from '../ir/circuit.js';
import { emitQasm3 } from '../emitters/qasm.emitter.js';
import { BASES, PREPARATION_TERMS, fragmentCircuit, planWireCuts, type CutPlan } from './wire-cut.js';

export interface SubcircuitDescription {
  index: number;
  qubitCount: number;
  /** Local qubit i carries original qubit `qubits[i].qubit` (its `segment`-th piece between cuts). */
  qubits: { qubit: number; segment: number }[];
  /** OpenQASM 3 of the subcircuit: its gates, then `out` (original results) and `cut` (cut outputs, measured in Z; rotate for X/Y). */
  openqasm3: string;
  cutInputs: { cut: number; qubit: number }[];
  cutOutputs: { cut: number; qubit: number }[];
  results: { clbit: number; qubit: number }[];
}

export interface SplitResult {
  originalQubitCount: number;
  maxSubcircuitQubits: number;
  cuts: { cut: number; qubit: number; afterOperation: number }[];
  subcircuits: SubcircuitDescription[];
  recombination: {
    method: string;
    numCuts: number;
    /** For each cut: measure basis upstream, and the downstream preparations with their coefficients. */
    terms: { basis: string; preparations: { state: string; coefficient: number }[] }[];
    normalisation: string;
    basisChange: Record<string, string>;
    preparationCircuits: Record<string, string>;
    subcircuitRuns: number;
  };
}

export function splitCircuit(circuit: Circuit, maxSubcircuitQubits: number): { plan: CutPlan; result: SplitResult } {
  const plan = planWireCuts(circuit, maxSubcircuitQubits);
  const subcircuits = plan.fragments.map((f, index) => ({
    index,
    qubitCount: f.qubits.length,
    qubits: f.qubits.map((qubit, i) => ({ qubit, segment: f.segments[i] })),
    openqasm3: emitQasm3(fragmentCircuit(f, new Map(), new Map())),
    cutInputs: [...f.inputs].map(([cut, qubit]) => ({ cut, qubit })),
    cutOutputs: [...f.outputs].map(([cut, qubit]) => ({ cut, qubit })),
    results: [...f.results].map(([clbit, qubit]) => ({ clbit, qubit })),
  }));
  const runs = plan.fragments.reduce((sum, f) => sum + 4 ** f.inputs.size * (f.outputs.size ? 3 ** f.outputs.size : 1), 0);
  return {
    plan,
    result: {
      originalQubitCount: circuit.numQubits,
      maxSubcircuitQubits,
      cuts: plan.cuts.map((c, cut) => ({ cut, qubit: c.qubit, afterOperation: c.afterOp })),
      subcircuits,
      recombination: {
        method: 'wire cutting by the Pauli identity channel decomposition (Peng et al., PRL 125, 150504, 2020)',
        numCuts: plan.cuts.length,
        terms: BASES.map((basis) => ({ basis, preparations: PREPARATION_TERMS[basis].map(([coefficient, state]) => ({ state, coefficient })) })),
        normalisation:
          'p(x) = 2^-K · Σ over (basis, preparation) per cut of Π coefficients · Π over subcircuits of T_f(x_f), T_f = Σ_m P_f(x_f, m) · Π(−1)^{m_k} over cut outputs measured in X, Y or Z (I counts +1)',
        basisChange: { I: 'measure in Z, weight +1', Z: 'measure in Z', X: 'h, then measure', Y: 'sdg; h, then measure' },
        preparationCircuits: { '0': '', '1': 'x', '+': 'h', '+i': 'h; s' },
        subcircuitRuns: runs,
      },
    },
  };
}
