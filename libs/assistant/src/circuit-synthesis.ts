/**
 * Deterministic circuit synthesis for the offline engine. Each builder returns the circuit (IR of
 * libs/circuits), the ideal measurement distribution computed analytically from the algorithm's
 * textbook analysis (not by simulating the circuit), and a short explanation. References:
 * Nielsen & Chuang (2010) §1.3.7 (teleportation), §2.3 (superdense coding), §5.1–5.2 (QFT, phase
 * estimation: eq. 5.26), §6.1 (Grover: success sin²((2k+1)θ), eq. 6.13), §10.1 (repetition code);
 * Deutsch & Jozsa (1992); Bernstein & Vazirani (1997); Cuccaro et al. (2004) ripple-carry adder
 * (MAJ/UMA); Buhrman et al. (2001) swap test; Dür, Vidal & Cirac (2000) W states; Kandala et al.
 * (2017) hardware-efficient ansatz.
 */
import { addCreg, addQreg, emptyCircuit, num, synthesizeStatePreparation, type Circuit, type GateOp } from '#qdc/circuits';
import type { CircuitTask, SingleQubitState } from './circuit-task.js';
import { decompose } from './gate-decomposition.js';
import { qaoaDistribution, qaoaOps, trotterCircuit } from './hamiltonian-evolution.js';
import { UnsupportedRequest } from './request-parser.js';
import type { Distribution } from './hellinger.js';

export interface SynthesizedCircuit {
  circuit: Circuit;
  /** Ideal distribution of the measured classical bits (keys little-endian, as Qiskit prints them). */
  ideal: Distribution;
  /** Ideal state of all qubits before measurement (interleaved re/im), where phases matter. */
  idealState?: Float64Array;
  title: string;
  /** A file-name stem (`ghz_5`). */
  stem: string;
  explanation: string;
}

const key = (value: number, width: number): string => value.toString(2).padStart(width, '0');
const bitsValue = (bits: string): number => parseInt(bits, 2);

class Builder {
  readonly c: Circuit = emptyCircuit();
  constructor(qubits: number, clbits: number) {
    addQreg(this.c, 'q', qubits);
    if (clbits > 0) addCreg(this.c, 'c', clbits);
  }
  gate(name: string, qubits: number[], params: number[] = [], controls = 0): this {
    const op: GateOp = { kind: 'gate', name, qubits, params: params.map(num) };
    if (controls) op.controls = controls;
    this.c.ops.push(op);
    return this;
  }
  h(...qs: number[]) {
    for (const q of qs) this.gate('h', [q]);
    return this;
  }
  x(...qs: number[]) {
    for (const q of qs) this.gate('x', [q]);
    return this;
  }
  cx(a: number, b: number) {
    return this.gate('cx', [a, b]);
  }
  /** Z on the last qubit controlled by all others (cz, ccz, or a multi-controlled z). */
  mcz(qs: number[]) {
    if (qs.length === 1) return this.gate('z', qs);
    if (qs.length === 2) return this.gate('cz', qs);
    if (qs.length === 3) return this.gate('ccz', qs);
    return this.gate('z', qs, [], qs.length - 1);
  }
  /** X on the last qubit controlled by all others. */
  mcx(qs: number[]) {
    if (qs.length === 1) return this.gate('x', qs);
    if (qs.length === 2) return this.gate('cx', qs);
    if (qs.length === 3) return this.gate('ccx', qs);
    return this.gate('x', qs, [], qs.length - 1);
  }
  barrier() {
    this.c.ops.push({ kind: 'barrier', qubits: Array.from({ length: this.c.numQubits }, (_, i) => i) });
    return this;
  }
  measure(qubit: number, clbit: number) {
    this.c.ops.push({ kind: 'measure', qubit, clbit });
    return this;
  }
  measureAll() {
    for (let q = 0; q < this.c.numQubits; q++) this.measure(q, q);
    return this;
  }
}

/** Interleaved state vector from a list of (basis index, amplitude re, im). */
function stateOf(n: number, amplitudes: [number, number, number][]): Float64Array {
  const s = new Float64Array(2 << n);
  for (const [i, re, im] of amplitudes) {
    s[2 * i] = re;
    s[2 * i + 1] = im;
  }
  return s;
}

function prepare(b: Builder, q: number, state: SingleQubitState): void {
  if (state === '1') b.x(q);
  else if (state === '+') b.h(q);
  else if (state === '-') b.x(q).h(q);
}

const STATE_VECTOR: Record<SingleQubitState, [number, number]> = {
  '0': [1, 0],
  '1': [0, 1],
  '+': [Math.SQRT1_2, Math.SQRT1_2],
  '-': [Math.SQRT1_2, -Math.SQRT1_2],
};

export function synthesize(task: CircuitTask): SynthesizedCircuit {
  switch (task.kind) {
    case 'bell': {
      const b = new Builder(2, 2);
      if (task.variant === 'psi+' || task.variant === 'psi-') b.x(1);
      if (task.variant === 'phi-' || task.variant === 'psi-') b.x(0);
      b.h(0).cx(0, 1).barrier().measureAll();
      const r = Math.SQRT1_2;
      const sign = task.variant.endsWith('-') ? -1 : 1;
      const [lo, hi] = task.variant.startsWith('phi') ? [0, 3] : [2, 1];
      const names: Record<string, string> = {
        'phi+': '|Φ+⟩ = (|00⟩ + |11⟩)/√2',
        'phi-': '|Φ−⟩ = (|00⟩ − |11⟩)/√2',
        'psi+': '|Ψ+⟩ = (|01⟩ + |10⟩)/√2',
        'psi-': '|Ψ−⟩ = (|01⟩ − |10⟩)/√2',
      };
      // psi: |q1=1,q0=0⟩ (index 2) and |q1=0,q0=1⟩ (index 1); the circuit gives (|10⟩ ± |01⟩)/√2 with the sign on index 1 for psi−.
      const amps: [number, number, number][] = task.variant.startsWith('phi')
        ? [
            [lo, r, 0],
            [hi, sign * r, 0],
          ]
        : [
            [lo, r, 0],
            [hi, sign * r, 0],
          ];
      return {
        circuit: b.c,
        ideal: task.variant.startsWith('phi') ? { '00': 0.5, '11': 0.5 } : { '01': 0.5, '10': 0.5 },
        idealState: stateOf(2, amps),
        title: `Bell state ${names[task.variant]}`,
        stem: `bell_${task.variant.replace('+', '_plus').replace('-', '_minus')}`,
        explanation: `A Hadamard on qubit 0 followed by a CNOT entangles the pair; X gates before them select ${names[task.variant]}. Measuring gives ${task.variant.startsWith('phi') ? '00 or 11' : '01 or 10'} with probability 1/2 each (the relative sign only shows in another basis).`,
      };
    }
    case 'ghz': {
      const n = task.n;
      const b = new Builder(n, n).h(0);
      for (let q = 0; q < n - 1; q++) b.cx(q, q + 1);
      b.barrier().measureAll();
      const all = (1 << n) - 1;
      return {
        circuit: b.c,
        ideal: { [key(0, n)]: 0.5, [key(all, n)]: 0.5 },
        idealState: stateOf(n, [
          [0, Math.SQRT1_2, 0],
          [all, Math.SQRT1_2, 0],
        ]),
        title: `${n}-qubit GHZ state`,
        stem: `ghz_${n}`,
        explanation: `H on qubit 0 and a chain of CNOTs give (|${'0'.repeat(n)}⟩ + |${'1'.repeat(n)}⟩)/√2: every measurement gives all zeros or all ones, each with probability 1/2.`,
      };
    }
    case 'w': {
      const n = task.n;
      const b = new Builder(n, n).x(0);
      for (let i = 0; i < n - 1; i++) {
        b.gate('cry', [i, i + 1], [2 * Math.acos(Math.sqrt(1 / (n - i)))]);
        b.cx(i + 1, i);
      }
      b.barrier().measureAll();
      const ideal: Distribution = {};
      const amps: [number, number, number][] = [];
      for (let q = 0; q < n; q++) {
        ideal[key(1 << q, n)] = 1 / n;
        amps.push([1 << q, 1 / Math.sqrt(n), 0]);
      }
      return {
        circuit: b.c,
        ideal,
        idealState: stateOf(n, amps),
        title: `${n}-qubit W state`,
        stem: `w_${n}`,
        explanation: `Starting from |0…01⟩, each controlled-RY(2·arccos√(1/(n−i))) moves the excitation one qubit on with the right weight and the CNOT clears the previous one, giving the equal superposition of the ${n} states with exactly one 1 (probability 1/${n} each).`,
      };
    }
    case 'uniform': {
      const n = task.n;
      const b = new Builder(n, n);
      for (let q = 0; q < n; q++) b.h(q);
      b.barrier().measureAll();
      const N = 1 << n;
      const ideal: Distribution = {};
      for (let i = 0; i < N; i++) ideal[key(i, n)] = 1 / N;
      return {
        circuit: b.c,
        ideal,
        idealState: stateOf(
          n,
          Array.from({ length: N }, (_, i) => [i, 1 / Math.sqrt(N), 0] as [number, number, number]),
        ),
        title: `uniform superposition of ${n} qubits`,
        stem: `uniform_${n}`,
        explanation: `A Hadamard on each of the ${n} qubits gives every one of the ${N} bitstrings with probability 1/${N}.`,
      };
    }
    case 'basis': {
      const n = task.bits.length;
      const b = new Builder(n, n);
      for (let q = 0; q < n; q++) if (task.bits[n - 1 - q] === '1') b.x(q);
      b.barrier().measureAll();
      return {
        circuit: b.c,
        ideal: { [task.bits]: 1 },
        idealState: stateOf(n, [[bitsValue(task.bits), 1, 0]]),
        title: `basis state |${task.bits}⟩`,
        stem: `basis_${task.bits}`,
        explanation: `X gates on the qubits whose bit is 1 (qubit 0 is the rightmost character, as in Qiskit's counts) prepare |${task.bits}⟩; it is measured as ${task.bits} every time.`,
      };
    }
    case 'qft': {
      const { n, inverse, input } = task;
      const N = 1 << n;
      if (task.bare) {
        // The transform alone (a unitary, no input state, no measurement): checked as a matrix.
        const b = new Builder(n, 0);
        qft(b, n, inverse);
        return {
          circuit: b.c,
          ideal: {},
          title: `${n}-qubit ${inverse ? 'inverse ' : ''}quantum Fourier transform`,
          stem: `${inverse ? 'inverse_' : ''}qft_${n}`,
          explanation: `Hadamards and controlled phases π/2^m, then swaps to restore the qubit order (Qiskit's convention, qubit 0 least significant): ${inverse ? 'the inverse, |k⟩ ↦ (1/√N) Σ_x e^{−2πi·xk/N}|x⟩' : '|x⟩ ↦ (1/√N) Σ_k e^{2πi·xk/N}|k⟩'} with N = ${N}.`,
        };
      }
      const b = new Builder(n, n);
      if (!inverse) {
        for (let q = 0; q < n; q++) if ((input >> q) & 1) b.x(q);
        b.barrier();
        qft(b, n, false);
        b.barrier().measureAll();
        const amps = Array.from({ length: N }, (_, k) => {
          const angle = (2 * Math.PI * input * k) / N;
          return [k, Math.cos(angle) / Math.sqrt(N), Math.sin(angle) / Math.sqrt(N)] as [number, number, number];
        });
        const ideal: Distribution = {};
        for (let k = 0; k < N; k++) ideal[key(k, n)] = 1 / N;
        return {
          circuit: b.c,
          ideal,
          idealState: stateOf(n, amps),
          title: `${n}-qubit quantum Fourier transform of |${key(input, n)}⟩`,
          stem: `qft_${n}`,
          explanation: `The QFT maps |x⟩ to (1/√${N}) Σ_k e^{2πi·x·k/${N}} |k⟩ (Hadamards, controlled phases π/2^m, then swaps to restore the qubit order). Measured in the computational basis every outcome has probability 1/${N}; the information is in the phases.`,
        };
      }
      // Inverse QFT of the Fourier state of `input`: prepare it with H and phases, then undo it.
      for (let q = 0; q < n; q++) {
        b.h(q);
        const angle = (2 * Math.PI * input * (1 << q)) / N;
        if (Math.abs(Math.sin(angle)) > 1e-12 || Math.cos(angle) < 0) b.gate('p', [q], [normaliseAngle(angle)]);
      }
      b.barrier();
      qft(b, n, true);
      b.barrier().measureAll();
      return {
        circuit: b.c,
        ideal: { [key(input, n)]: 1 },
        idealState: stateOf(n, [[input, 1, 0]]),
        title: `${n}-qubit inverse quantum Fourier transform`,
        stem: `inverse_qft_${n}`,
        explanation: `The first layer prepares the Fourier state (1/√${N}) Σ_k e^{2πi·${input}·k/${N}} |k⟩ (a product state: H and a phase on each qubit); the inverse QFT maps it back to |${key(input, n)}⟩, measured with certainty.`,
      };
    }
    case 'grover': {
      const { n, marked } = task;
      const N = 1 << n;
      const m = marked.length;
      const theta = Math.asin(Math.sqrt(m / N));
      const iterations = task.iterations ?? Math.max(1, Math.floor(Math.PI / (4 * theta)));
      const b = new Builder(n, n);
      const all = Array.from({ length: n }, (_, i) => i);
      b.h(...all);
      for (let it = 0; it < iterations; it++) {
        b.barrier();
        for (const target of marked) {
          const zeros = all.filter((q) => target[n - 1 - q] === '0');
          b.x(...zeros)
            .mcz(all)
            .x(...zeros);
        }
        b.barrier();
        b.h(...all)
          .x(...all)
          .mcz(all)
          .x(...all)
          .h(...all);
      }
      b.barrier().measureAll();
      const success = Math.sin((2 * iterations + 1) * theta) ** 2;
      const ideal: Distribution = {};
      for (let i = 0; i < N; i++) {
        const k = key(i, n);
        ideal[k] = marked.includes(k) ? success / m : (1 - success) / (N - m);
      }
      return {
        circuit: b.c,
        ideal,
        title: `Grover search over ${n} qubits for ${marked.join(', ')}`,
        stem: `grover_${marked.join('_')}`,
        explanation: `${iterations} Grover iteration${iterations > 1 ? 's' : ''} (oracle: a phase flip on ${m > 1 ? 'each marked state' : 'the marked state'} via X gates around a multi-controlled Z; diffuser: H·X·(multi-controlled Z)·X·H) rotate the uniform superposition towards the marked ${m > 1 ? 'states' : 'state'}: ideal success probability sin²((2k+1)θ) = ${success.toFixed(4)} with θ = arcsin√(${m}/${N}), k = ${iterations}.`,
      };
    }
    case 'deutsch-jozsa':
    case 'bernstein-vazirani': {
      const isBv = task.kind === 'bernstein-vazirani';
      const mask = isBv ? task.secret : task.mask;
      const n = mask.length;
      const oracle = isBv ? 'balanced' : task.oracle;
      const b = new Builder(n + 1, n);
      const inputs = Array.from({ length: n }, (_, i) => i);
      b.x(n)
        .h(n)
        .h(...inputs)
        .barrier();
      if (oracle === 'constant-1') b.x(n);
      else if (oracle === 'balanced') for (let q = 0; q < n; q++) if (mask[n - 1 - q] === '1') b.cx(q, n);
      b.barrier().h(...inputs);
      for (let q = 0; q < n; q++) b.measure(q, q);
      const result = oracle === 'balanced' ? mask : '0'.repeat(n);
      const what = isBv
        ? `the oracle f(x) = s·x mod 2 for the secret s = ${mask}`
        : oracle === 'balanced'
          ? `a balanced oracle f(x) = s·x mod 2 with s = ${mask} (CNOTs from the qubits where s has a 1)`
          : `the constant oracle f(x) = ${oracle === 'constant-1' ? 1 : 0}`;
      return {
        circuit: b.c,
        ideal: { [result]: 1 },
        title: isBv ? `Bernstein–Vazirani for the secret ${mask}` : `Deutsch–Jozsa on ${n} input qubits (${oracle.replace('-', ' ')} oracle)`,
        stem: isBv ? `bernstein_vazirani_${mask}` : `deutsch_jozsa_${oracle.replace('-', '_')}_${n}`,
        explanation: `The ancilla (qubit ${n}) is prepared in |−⟩ so the oracle acts as a phase kickback; with ${what}, the final Hadamards give ${result} with certainty${isBv ? ': the secret in one query' : oracle === 'balanced' ? ' (any non-zero outcome means balanced)' : ' (all zeros means constant)'}.`,
      };
    }
    case 'phase-estimation': {
      const t = task.precision;
      const phi = task.phase;
      const b = new Builder(t + 1, t);
      const counting = Array.from({ length: t }, (_, i) => i);
      // The eigenstate: |1⟩ for phase gates, |−⟩ (φ = 1/2) or |+⟩ (φ = 0) for Pauli X.
      if (task.gate === 'x') {
        if (phi === 0.5) b.x(t);
        b.h(t);
      } else b.x(t);
      b.h(...counting).barrier();
      // X² = I: only the first counting qubit applies a controlled X.
      if (task.gate === 'x') b.cx(0, t);
      else for (let j = 0; j < t; j++) b.gate('cp', [j, t], [normaliseAngle(2 * Math.PI * phi * 2 ** j)]);
      b.barrier();
      qft(b, t, true);
      b.barrier();
      for (let j = 0; j < t; j++) b.measure(j, j);
      const T = 1 << t;
      const ideal: Distribution = {};
      for (let k = 0; k < T; k++) {
        // |(1/T) Σ_j e^{2πi j (φ − k/T)}|² (Nielsen & Chuang eq. 5.26).
        const d = phi - k / T;
        let re = 0;
        let im = 0;
        for (let j = 0; j < T; j++) {
          re += Math.cos(2 * Math.PI * j * d);
          im += Math.sin(2 * Math.PI * j * d);
        }
        const p = (re * re + im * im) / (T * T);
        if (p > 1e-12) ideal[key(k, t)] = p;
      }
      const best = Object.entries(ideal).sort((a, z) => z[1] - a[1])[0][0];
      return {
        circuit: b.c,
        ideal,
        title: `phase estimation of ${task.gate ? `the ${task.gate.toUpperCase()} gate (φ = ${trimNumber(phi)})` : `φ = ${trimNumber(phi)}`} with ${t} counting qubits`,
        stem: `phase_estimation_${t}`,
        explanation: `${task.gate === 'x' ? `X has eigenstate |${phi === 0.5 ? '−' : '+'}⟩ (qubit ${t}) with eigenvalue e^{2πiφ} = ${phi === 0.5 ? '−1' : '1'}; X² = I, so only counting qubit 0 applies a controlled X.` : `U = ${task.gate ? `${task.gate.toUpperCase()} = ` : ''}P(2π·${trimNumber(phi)}) has eigenstate |1⟩ (qubit ${t}) with eigenvalue e^{2πiφ}.`} Counting qubit j applies controlled-U^(2^j), then the inverse QFT reads φ out as a ${t}-bit fraction: the most likely outcome ${best} = ${bitsValue(best)}/${T} = ${trimNumber(bitsValue(best) / T)}${Math.abs(phi * T - Math.round(phi * T)) < 1e-9 ? ' exactly' : ` (φ is not a ${t}-bit fraction, so nearby outcomes also appear)`}.`,
      };
    }
    case 'teleportation': {
      const b = new Builder(3, 3);
      let p1: number;
      let label: string;
      if (typeof task.state === 'number') {
        b.gate('ry', [0], [task.state]);
        p1 = Math.sin(task.state / 2) ** 2;
        label = `RY(${trimNumber(task.state)})|0⟩`;
      } else {
        prepare(b, 0, task.state);
        const [, a1] = STATE_VECTOR[task.state];
        p1 = a1 * a1;
        label = `|${task.state}⟩`;
      }
      b.barrier().h(1).cx(1, 2).barrier().cx(0, 1).h(0).barrier();
      // Deferred measurement (N&C §4.4): the classically controlled X and Z become CX and CZ.
      b.cx(1, 2).gate('cz', [0, 2]).barrier();
      b.measure(0, 0).measure(1, 1).measure(2, 2);
      const ideal: Distribution = {};
      for (let m = 0; m < 4; m++) {
        if (1 - p1 > 1e-12) ideal[key(m, 3)] = (1 - p1) / 4;
        if (p1 > 1e-12) ideal[key(4 + m, 3)] = p1 / 4;
      }
      return {
        circuit: b.c,
        ideal,
        title: `quantum teleportation of ${label}`,
        stem: 'teleportation',
        explanation: `Qubit 0 holds ${label}; qubits 1 and 2 share a Bell pair. Alice's CNOT and H followed by the corrections (written with the deferred-measurement principle as CX from qubit 1 and CZ from qubit 0, which is equivalent to measuring and applying X/Z classically) leave qubit 2 in ${label}: c2 reads 1 with probability ${trimNumber(p1)}, while c0 and c1 (Alice's outcomes) are uniformly random.`,
      };
    }
    case 'superdense': {
      const msg = task.message;
      const b = new Builder(2, 2).h(0).cx(0, 1).barrier();
      if (msg[0] === '1') b.x(0);
      if (msg[1] === '1') b.gate('z', [0]);
      b.barrier().cx(0, 1).h(0).barrier().measureAll();
      return {
        circuit: b.c,
        ideal: { [msg]: 1 },
        title: `superdense coding of the message ${msg}`,
        stem: `superdense_${msg}`,
        explanation: `Alice and Bob share |Φ+⟩; Alice encodes two bits on her qubit (X for the left bit, Z for the right bit) and sends it; Bob's CNOT and H decode them, reading ${msg} with certainty (c1 c0, as Qiskit prints).`,
      };
    }
    case 'adder': {
      const { n, a, b: bv } = task;
      // Layout: q0 carry-in, q(1+i) = b_i, q(1+n+i) = a_i, q(2n+1) = carry-out.
      const B = (i: number) => 1 + i;
      const A = (i: number) => 1 + n + i;
      const z = 2 * n + 1;
      const b = new Builder(2 * n + 2, n + 1);
      for (let i = 0; i < n; i++) {
        if ((a >> i) & 1) b.x(A(i));
        if ((bv >> i) & 1) b.x(B(i));
      }
      b.barrier();
      const maj = (x: number, y: number, w: number) => b.cx(w, y).cx(w, x).gate('ccx', [x, y, w]);
      const uma = (x: number, y: number, w: number) => b.gate('ccx', [x, y, w]).cx(w, x).cx(x, y);
      maj(0, B(0), A(0));
      for (let i = 1; i < n; i++) maj(A(i - 1), B(i), A(i));
      b.cx(A(n - 1), z);
      for (let i = n - 1; i >= 1; i--) uma(A(i - 1), B(i), A(i));
      uma(0, B(0), A(0));
      b.barrier();
      for (let i = 0; i < n; i++) b.measure(B(i), i);
      b.measure(z, n);
      return {
        circuit: b.c,
        ideal: { [key(a + bv, n + 1)]: 1 },
        title: `${n}-bit ripple-carry adder computing ${a} + ${bv}`,
        stem: `adder_${n}bit`,
        explanation: `Cuccaro's ripple-carry adder (MAJ and UMA blocks of CNOTs and Toffolis, one ancilla for the carry-in) writes a + b into the b register in place and the carry into the last qubit; a is restored. Measuring b and the carry gives ${key(a + bv, n + 1)} = ${a + bv}.`,
      };
    }
    case 'swap-test': {
      const b = new Builder(3, 1);
      prepare(b, 1, task.left);
      prepare(b, 2, task.right);
      b.barrier().h(0).gate('cswap', [0, 1, 2]).h(0).barrier().measure(0, 0);
      const [l0, l1] = STATE_VECTOR[task.left];
      const [r0, r1] = STATE_VECTOR[task.right];
      const overlap = (l0 * r0 + l1 * r1) ** 2;
      const p0 = 0.5 + 0.5 * overlap;
      const ideal: Distribution = {};
      if (p0 > 1e-12) ideal['0'] = p0;
      if (1 - p0 > 1e-12) ideal['1'] = 1 - p0;
      return {
        circuit: b.c,
        ideal,
        title: `swap test of |${task.left}⟩ and |${task.right}⟩`,
        stem: 'swap_test',
        explanation: `The ancilla (qubit 0) controls a SWAP between the two states, between Hadamards: P(0) = 1/2 + |⟨ψ|φ⟩|²/2 = ${trimNumber(p0)} here (|⟨${task.left}|${task.right}⟩|² = ${trimNumber(overlap)}), so repeated runs estimate the overlap.`,
      };
    }
    case 'repetition': {
      const { distance: d, flavor, errorQubit } = task;
      const logical = task.logical ?? 1;
      const s = d - 1;
      const b = new Builder(d + s, d + s);
      const data = Array.from({ length: d }, (_, i) => i);
      // Logical |1⟩ for bit flips (so a flip shows), logical |+⟩ decoded to |1⟩... keep |1⟩ in both flavors for a clear readout.
      if (logical) b.x(0);
      for (let q = 1; q < d; q++) b.cx(0, q);
      if (flavor === 'phase-flip') b.h(...data);
      b.barrier();
      if (errorQubit !== null) b.gate(flavor === 'bit-flip' ? 'x' : 'z', [errorQubit]);
      b.barrier();
      if (flavor === 'phase-flip') b.h(...data);
      for (let i = 0; i < s; i++) b.cx(i, d + i).cx(i + 1, d + i);
      b.barrier();
      // Correction without mid-circuit measurement: a multi-controlled X per data qubit, fired by its syndrome pattern.
      const syndromeOf = (j: number) => Array.from({ length: s }, (_, i) => (i === j - 1 || i === j ? 1 : 0));
      for (let j = 0; j < d; j++) {
        const pattern = syndromeOf(j);
        const zeros = pattern.map((v, i) => (v ? -1 : d + i)).filter((q) => q >= 0);
        b.x(...zeros)
          .mcx([...Array.from({ length: s }, (_, i) => d + i), j])
          .x(...zeros);
      }
      b.barrier();
      for (let q = 0; q < d + s; q++) b.measure(q, q);
      let value = logical ? (1 << d) - 1 : 0;
      if (errorQubit !== null)
        syndromeOf(errorQubit).forEach((v, i) => {
          value |= v << (d + i);
        });
      return {
        circuit: b.c,
        ideal: { [key(value, d + s)]: 1 },
        title: `distance-${d} ${flavor} repetition code${errorQubit !== null ? ` with ${flavor === 'bit-flip' ? 'an X' : 'a Z'} error on qubit ${errorQubit}` : ''}`,
        stem: `${flavor.replace('-', '_')}_code_d${d}`,
        explanation: `Logical |${logical}⟩ is encoded in ${d} data qubits (${flavor === 'phase-flip' ? 'in the X basis, so a Z error acts like a bit flip between the Hadamard layers' : 'CNOT fan-out'}); ${s} ancillas (qubits ${d}–${d + s - 1}) measure the parities of neighbouring data qubits. ${errorQubit !== null ? `The injected error on qubit ${errorQubit} gives syndrome ${key(value >> d, s)} (c${d + s - 1}…c${d})` : 'With no error the syndrome is all zeros'}, and a multi-controlled X on the matching data qubit corrects it (deferred measurement instead of classical feedback), so the data qubits read ${String(logical).repeat(d)}.`,
      };
    }
    case 'state': {
      const N = task.amplitudes.length;
      const n = Math.log2(N);
      const norm = Math.sqrt(task.amplitudes.reduce((t, [re, im]) => t + re * re + im * im, 0));
      const amplitudes = task.amplitudes.map(([re, im]) => [re / norm, im / norm] as [number, number]);
      const b = new Builder(n, n);
      const prepared = synthesizeStatePreparation(amplitudes);
      b.c.ops.push(...prepared.ops);
      b.c.globalPhase = prepared.globalPhase;
      b.barrier().measureAll();
      const ideal: Distribution = {};
      amplitudes.forEach(([re, im], i) => {
        if (re * re + im * im > 1e-12) ideal[key(i, n)] = re * re + im * im;
      });
      return {
        circuit: b.c,
        ideal,
        idealState: stateOf(
          n,
          amplitudes.map(([re, im], i) => [i, re, im]),
        ),
        title: `${n}-qubit state ${task.label}`,
        stem: `state_${n}q`,
        explanation: `The state is prepared exactly by uniformly controlled RY rotations for the magnitudes and RZ rotations for the phases (Möttönen et al. 2005, through QDC's state synthesis): amplitudes ${amplitudes.map(([re, im]) => fmtAmp(re, im)).join(', ')} on |${'0'.repeat(n)}⟩ … |${'1'.repeat(n)}⟩ (index little-endian, qubit 0 the least-significant bit).`,
      };
    }
    case 'decomposition': {
      const result = decompose(task);
      if ('error' in result) throw new UnsupportedRequest(result.error);
      return {
        circuit: result.circuit,
        ideal: {},
        title: `decomposition of ${task.label}${task.basis ? ` into ${task.basis.map((g) => (g === '1q' ? 'one-qubit gates' : g)).join(', ')}` : ''}`,
        stem: 'decomposition',
        explanation: `The circuit implements ${task.label} exactly (up to a global phase)${task.basis ? ` with only ${task.basis.map((g) => (g === '1q' ? 'one-qubit gates' : g)).join(', ')}` : ''}: a textbook identity where the basis calls for one, otherwise QDC's exact unitary synthesis (KAK for two qubits, ZYZ angles for one) compiled into the basis.`,
      };
    }
    case 'evolution': {
      const { ops, steps, chosen } = trotterCircuit(task);
      const b = new Builder(task.n, 0);
      b.c.ops.push(...ops);
      return {
        circuit: b.c,
        ideal: {},
        title: `time evolution exp(−iHt) with ${task.label} (${steps} Trotter step${steps > 1 ? 's' : ''}${chosen && steps === 1 ? ': the terms commute, so one step is exact' : ''})`,
        stem: 'time_evolution',
        explanation: `First-order Trotterization: each of the ${steps} steps applies exp(−i·c·Δt·P) for every term c·P of H (Δt = t/${steps}), as a basis change (H for X, RX(π/2) for Y), a CX ladder, one RZ(2cΔt) and the ladder undone (RXX/RZZ-type gates for two equal Paulis).`,
      };
    }
    case 'qaoa': {
      const b = new Builder(task.n, task.n);
      b.c.ops.push(...qaoaOps(task));
      b.barrier().measureAll();
      return {
        circuit: b.c,
        ideal: qaoaDistribution(task),
        title: `QAOA for MaxCut, p = ${task.gammas.length}, on edges ${task.edges.map(([u, v]) => `(${u}, ${v})`).join(', ')} with γ = [${task.gammas.map(trimNumber).join(', ')}], β = [${task.betas.map(trimNumber).join(', ')}]`,
        stem: 'qaoa_maxcut',
        explanation: `From |+…+⟩, each layer applies the cost unitary exp(−iγ·Σ Z_uZ_v) (RZZ(2γ) per edge) and the mixer exp(−iβ·Σ X) (RX(2β) per qubit); measuring gives cuts, the large ones more often as the angles are tuned.`,
      };
    }
    case 'simon': {
      // Simon (1997): f(x) = f(x ⊕ s), built as a copy x → y then y ⊕= x_j·s for the lowest j with s_j = 1.
      const s = task.secret;
      const n = s.length;
      const b = new Builder(2 * n, n);
      const inputs = Array.from({ length: n }, (_, i) => i);
      b.h(...inputs).barrier();
      for (let i = 0; i < n; i++) b.cx(i, n + i);
      const j = inputs.find((i) => s[n - 1 - i] === '1')!;
      for (let i = 0; i < n; i++) if (s[n - 1 - i] === '1') b.cx(j, n + i);
      b.barrier().h(...inputs);
      for (let i = 0; i < n; i++) b.measure(i, i);
      const sv = bitsValue(s);
      const support = Array.from({ length: 1 << n }, (_, y) => y).filter((y) => popcount(y & sv) % 2 === 0);
      return {
        circuit: b.c,
        ideal: Object.fromEntries(support.map((y) => [key(y, n), 1 / support.length])),
        title: `Simon's algorithm for the secret s = ${s}`,
        stem: `simon_${s}`,
        explanation: `The oracle copies x into the second register and XORs s into it when x_${j} = 1, so f(x) = f(x ⊕ s). After the final Hadamards every outcome y satisfies y·s = 0 (mod 2), uniformly over those ${support.length} strings; n − 1 independent ones determine s.`,
      };
    }
    case 'hadamard-test': {
      const { gate, input, part } = task;
      const b = new Builder(2, 1);
      prepare(b, 1, input);
      b.barrier().h(0);
      if (part === 'imaginary') b.gate('sdg', [0]);
      const controlled: Record<typeof gate, () => void> = {
        x: () => b.cx(0, 1),
        y: () => b.gate('cy', [0, 1]),
        z: () => b.gate('cz', [0, 1]),
        h: () => b.gate('ch', [0, 1]),
        s: () => b.gate('cp', [0, 1], [Math.PI / 2]),
        t: () => b.gate('cp', [0, 1], [Math.PI / 4]),
      };
      controlled[gate]();
      b.h(0).barrier().measure(0, 0);
      const [re, im] = expectation(gate, STATE_VECTOR_C[input]);
      const p0 = part === 'real' ? (1 + re) / 2 : (1 + im) / 2;
      const ideal: Distribution = {};
      if (p0 > 1e-12) ideal['0'] = p0;
      if (1 - p0 > 1e-12) ideal['1'] = 1 - p0;
      return {
        circuit: b.c,
        ideal,
        title: `Hadamard test (${part} part) of ${gate.toUpperCase()} on |${input}⟩`,
        stem: `hadamard_test_${gate}`,
        explanation: `The ancilla (qubit 0) between Hadamards${part === 'imaginary' ? ', with S† after the first,' : ''} controls ${gate.toUpperCase()} on |${input}⟩ (qubit 1): P(0) = (1 + ${part === 'real' ? 'Re' : 'Im'}⟨ψ|U|ψ⟩)/2 = ${trimNumber(p0)}, with ⟨ψ|U|ψ⟩ = ${trimNumber(re)}${im ? ` ${im < 0 ? '−' : '+'} ${trimNumber(Math.abs(im))}i` : ''}.`,
      };
    }
    case 'chsh': {
      const { a, b: bAngle } = task;
      const b = new Builder(2, 2).h(0).cx(0, 1).barrier();
      if (a) b.gate('ry', [0], [-a]);
      if (bAngle) b.gate('ry', [1], [-bAngle]);
      b.barrier().measureAll();
      const same = Math.cos((a - bAngle) / 2) ** 2 / 2;
      const diff = Math.sin((a - bAngle) / 2) ** 2 / 2;
      const ideal: Distribution = {};
      for (const [k, v] of [
        ['00', same],
        ['11', same],
        ['01', diff],
        ['10', diff],
      ] as const)
        if (v > 1e-12) ideal[k] = v;
      return {
        circuit: b.c,
        ideal,
        title: `CHSH measurement of |Φ+⟩ at angles ${trimNumber(a)} (qubit 0) and ${trimNumber(bAngle)} (qubit 1)`,
        stem: 'chsh',
        explanation: `|Φ+⟩ measured along directions at angles a and b in the X–Z plane (RY(−θ) then Z): outcomes agree with probability cos²((a − b)/2) = ${trimNumber(2 * same)}, so E(a, b) = cos(a − b) = ${trimNumber(Math.cos(a - bAngle))}; the CHSH combination of four such settings reaches 2√2.`,
      };
    }
    case 'ansatz': {
      const { n, layers } = task;
      const b = new Builder(n, n);
      const angles: number[] = [];
      const angle = (i: number) => Number((0.1 + ((i * 0.618034) % 1) * 2.9).toFixed(4));
      let index = 0;
      for (let l = 0; l < layers; l++) {
        for (let q = 0; q < n; q++) {
          const t1 = angle(index++);
          const t2 = angle(index++);
          angles.push(t1, t2);
          b.gate('ry', [q], [t1]).gate('rz', [q], [t2]);
        }
        for (let q = 0; q < n - 1; q++) b.cx(q, q + 1);
        b.barrier();
      }
      for (let q = 0; q < n; q++) b.gate('ry', [q], [angle(index++)]);
      b.barrier().measureAll();
      return {
        circuit: b.c,
        ideal: {},
        title: `hardware-efficient ansatz on ${n} qubits with ${layers} layer${layers > 1 ? 's' : ''}`,
        stem: `hea_${n}q_${layers}l`,
        explanation: `Each layer applies RY(θ)·RZ(θ) on every qubit and a linear chain of CNOTs (the hardware-efficient ansatz of Kandala et al. 2017), followed by a final RY layer: ${2 * n * layers + n} parameters, bound here to fixed example values so the circuit runs as is; replace them with your optimiser's values.`,
      };
    }
  }
}

/** QFT (or its inverse) on qubits 0…n−1, qubit n−1 the most significant, with the final swaps. */
function qft(b: Builder, n: number, inverse: boolean): void {
  const steps: (() => void)[] = [];
  for (let j = n - 1; j >= 0; j--) {
    steps.push(() => b.h(j));
    for (let k = j - 1; k >= 0; k--) {
      const angle = Math.PI / 2 ** (j - k);
      steps.push(() => b.gate('cp', [k, j], [inverse ? -angle : angle]));
    }
  }
  for (let i = 0; i < Math.floor(n / 2); i++) steps.push(() => b.gate('swap', [i, n - 1 - i]));
  if (inverse) steps.reverse();
  for (const step of steps) step();
}

/** An angle in (−π, π]. */
function normaliseAngle(a: number): number {
  let x = a % (2 * Math.PI);
  if (x > Math.PI) x -= 2 * Math.PI;
  if (x <= -Math.PI) x += 2 * Math.PI;
  return x;
}

const popcount = (v: number): number => {
  let c = 0;
  for (let x = v; x; x >>= 1) c += x & 1;
  return c;
};

type C2 = [number, number];
const STATE_VECTOR_C: Record<SingleQubitState, [C2, C2]> = {
  '0': [
    [1, 0],
    [0, 0],
  ],
  '1': [
    [0, 0],
    [1, 0],
  ],
  '+': [
    [Math.SQRT1_2, 0],
    [Math.SQRT1_2, 0],
  ],
  '-': [
    [Math.SQRT1_2, 0],
    [-Math.SQRT1_2, 0],
  ],
};

/** ⟨ψ|U|ψ⟩ for a named one-qubit gate, from its matrix. */
function expectation(gate: 'x' | 'y' | 'z' | 'h' | 's' | 't', [a, b]: [C2, C2]): C2 {
  const r = Math.SQRT1_2;
  const m: Record<typeof gate, [C2, C2, C2, C2]> = {
    x: [
      [0, 0],
      [1, 0],
      [1, 0],
      [0, 0],
    ],
    y: [
      [0, 0],
      [0, -1],
      [0, 1],
      [0, 0],
    ],
    z: [
      [1, 0],
      [0, 0],
      [0, 0],
      [-1, 0],
    ],
    h: [
      [r, 0],
      [r, 0],
      [r, 0],
      [-r, 0],
    ],
    s: [
      [1, 0],
      [0, 0],
      [0, 0],
      [0, 1],
    ],
    t: [
      [1, 0],
      [0, 0],
      [0, 0],
      [r, r],
    ],
  };
  const [m00, m01, m10, m11] = m[gate];
  const mul = (x: C2, y: C2): C2 => [x[0] * y[0] - x[1] * y[1], x[0] * y[1] + x[1] * y[0]];
  const conj = (x: C2): C2 => [x[0], -x[1]];
  const add = (x: C2, y: C2): C2 => [x[0] + y[0], x[1] + y[1]];
  const ua = add(mul(m00, a), mul(m01, b));
  const ub = add(mul(m10, a), mul(m11, b));
  return add(mul(conj(a), ua), mul(conj(b), ub));
}

function fmtAmp(re: number, im: number): string {
  const r = Number(re.toFixed(4));
  const i = Number(im.toFixed(4));
  if (!i) return String(r);
  if (!r) return `${i}i`;
  return `${r}${i < 0 ? '−' : '+'}${Math.abs(i)}i`;
}

function trimNumber(v: number): string {
  return Number(v.toFixed(6)).toString();
}
