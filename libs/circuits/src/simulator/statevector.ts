/**
 * Runs compiled programs on a state vector. Unitary instructions dispatch to the kernels;
 * measurement and reset sample an outcome and collapse the state (one trajectory).
 */
import { applyControlled1, applyDense1, applyDenseK, applyDiagonal1, applyDiagonalK, applyPhaseOnOnes, collapse, flip, probabilityOfOne } from './kernels.js';
import type { Instruction, Program } from './program.js';
import type { Rng } from './rng.js';
import type { Condition } from '../ir/circuit.js';

export const BYTES_PER_AMPLITUDE = 16;

export function zeroState(n: number): Float64Array {
  const s = new Float64Array(2 << n);
  s[0] = 1;
  return s;
}

export function conditionHolds(cond: Condition | undefined, clbits: Uint8Array): boolean {
  if (!cond) return true;
  let v = 0;
  for (let j = 0; j < cond.clbits.length; j++) v += clbits[cond.clbits[j]] * 2 ** j;
  return v === cond.value;
}

/** Applies instructions[from, to) to `s`; measurement results go to `clbits`. */
export function runInstructions(s: Float64Array, program: Program, from: number, to: number, clbits: Uint8Array, rng?: Rng): void {
  const n = program.numQubits;
  let scratch = new Float64Array(32);
  for (let k = from; k < to; k++) {
    const ins: Instruction = program.instructions[k];
    if (ins.cond && !conditionHolds(ins.cond, clbits)) continue;
    switch (ins.t) {
      case 'dense1':
        applyDense1(s, n, ins.q, ins.m);
        break;
      case 'diag1':
        applyDiagonal1(s, n, ins.q, ins.d);
        break;
      case 'phase':
        applyPhaseOnOnes(s, n, ins.qubits, ins.re, ins.im);
        break;
      case 'ctrl1':
        applyControlled1(s, n, ins.controls, ins.q, ins.m);
        break;
      case 'diagk':
        applyDiagonalK(s, n, ins.controls, ins.qubits, ins.d);
        break;
      case 'densek':
        if (scratch.length < 2 << ins.qubits.length) scratch = new Float64Array(2 << ins.qubits.length);
        applyDenseK(s, n, ins.controls, ins.qubits, ins.m, scratch);
        break;
      case 'measure':
      case 'reset': {
        if (!rng) throw new Error('measurement needs a random source');
        const p1 = probabilityOfOne(s, n, ins.q);
        const outcome: 0 | 1 = rng.next() < p1 ? 1 : 0;
        collapse(s, n, ins.q, outcome, outcome ? p1 : 1 - p1);
        if (ins.t === 'measure') clbits[ins.c] = outcome;
        else if (outcome === 1) flip(s, n, ins.q);
        break;
      }
    }
  }
}
