import { CircuitError } from '../errors.js';
import { circuitUnitary, equalUnitaries, equivalentUpToGlobalPhase } from '../simulator/unitary.js';
import { finalState, simulate } from '../simulator/simulate.js';
import { emitQasm2, emitQasm3 } from '../emitters/qasm.emitter.js';
import { emitCirq, emitQiskit } from '../emitters/python.emitter.js';
import { parseQasm } from './qasm.parser.js';
import { parseQiskit } from './qiskit.parser.js';
import { parseCirq } from './cirq.parser.js';
import { compileToDevice } from '../compile/compile-to-device.js';
import { lineCouplingMap } from '../compile/coupling-maps.js';

function errorOf(fn: () => unknown): CircuitError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CircuitError) return error;
    throw error;
  }
  throw new Error('expected a CircuitError');
}

/** Column k of a unitary as [re, im] pairs. */
const column = (u: Float64Array[], k: number): [number, number][] => Array.from({ length: u[k].length / 2 }, (_, i) => [u[k][2 * i], u[k][2 * i + 1]]);
const close = (a: [number, number][], b: [number, number][], tol = 1e-9): boolean =>
  a.length === b.length && a.every(([re, im], i) => Math.abs(re - b[i][0]) <= tol && Math.abs(im - b[i][1]) <= tol);
const probabilities = (s: Float64Array): number[] => Array.from({ length: s.length / 2 }, (_, i) => s[2 * i] ** 2 + s[2 * i + 1] ** 2);

/** A Haar-ish random unitary (Gram–Schmidt of a seeded random complex matrix), rows of [re, im]. */
function randomUnitary(n: number, seed: number): [number, number][][] {
  let x = seed;
  const rnd = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648 - 0.5;
  };
  const cols: [number, number][][] = [];
  for (let c = 0; c < n; c++) {
    let v: [number, number][] = Array.from({ length: n }, () => [rnd(), rnd()]);
    for (const u of cols) {
      // v -= <u, v> u
      let re = 0;
      let im = 0;
      for (let i = 0; i < n; i++) {
        re += u[i][0] * v[i][0] + u[i][1] * v[i][1];
        im += u[i][0] * v[i][1] - u[i][1] * v[i][0];
      }
      v = v.map(([a, b], i) => [a - (re * u[i][0] - im * u[i][1]), b - (re * u[i][1] + im * u[i][0])]);
    }
    const norm = Math.sqrt(v.reduce((s, [a, b]) => s + a * a + b * b, 0));
    cols.push(v.map(([a, b]) => [a / norm, b / norm]));
  }
  return Array.from({ length: n }, (_, r) => cols.map((col) => col[r]));
}
const pyMatrix = (m: [number, number][][]): string =>
  `np.array([${m.map((row) => `[${row.map(([re, im]) => `complex(${re}, ${im})`).join(', ')}]`).join(', ')}])`;

describe('complex numbers and numpy values', () => {
  const angle = (src: string): number => {
    const c = parseQiskit(`from qiskit import QuantumCircuit\nimport numpy as np\nimport cmath\n${src}\nqc = QuantumCircuit(1)\nqc.rz(theta, 0)`);
    const op = c.ops[0] as { params: { v: number }[] };
    return op.params[0].v;
  };

  it('evaluates complex literals, arithmetic, abs, conjugate, real/imag and cmath', () => {
    expect(angle('z = (1 + 2j) * (3 - 1j)\ntheta = z.real + 10 * z.imag')).toBeCloseTo(5 + 10 * 5, 12);
    expect(angle('theta = abs(3 + 4j)')).toBe(5);
    expect(angle('theta = (2j).conjugate().imag')).toBe(-2);
    expect(angle('theta = cmath.phase(cmath.exp(1j * np.pi / 3))')).toBeCloseTo(Math.PI / 3, 12);
    expect(angle('r, phi = cmath.polar(cmath.rect(2, 0.5))\ntheta = r * phi')).toBeCloseTo(1, 12);
    expect(angle('theta = cmath.sqrt(-4).imag')).toBeCloseTo(2, 12);
    expect(angle('theta = complex(1, 2).imag / (1j ** 2).real')).toBe(-2);
  });

  it('evaluates numpy arrays: kron, @, .conj().T, diag, outer, norm, indexing', () => {
    expect(angle('H = np.array([[1, 1], [1, -1]]) / np.sqrt(2)\nU = np.kron(H, np.eye(2))\ntheta = (U @ U.conj().T)[3, 3].real')).toBeCloseTo(1, 12);
    expect(angle('v = np.array([1, 1j]) / np.sqrt(2)\nrho = np.outer(v, v.conj())\ntheta = rho[0][1].imag')).toBeCloseTo(-0.5, 12);
    expect(angle('theta = np.linalg.norm(np.array([3, 4]))')).toBe(5);
    expect(angle('D = np.diag(np.exp(1j * np.array([0, np.pi / 2])))\ntheta = np.angle(D[1, 1])')).toBeCloseTo(Math.PI / 2, 12);
    expect(angle('M = np.zeros((2, 2), dtype=complex)\nM[0, 1] = 2j\ntheta = np.abs(M)[0, 1] + M[:, 1][0].imag')).toBe(4);
    expect(angle('theta = sum(abs(a) ** 2 for a in np.array([0.6, 0.8j]))')).toBeCloseTo(1, 12);
  });

  it('numpy.linalg on small matrices: eigh / eigvalsh (Hermitian, ascending), inv, det', () => {
    // A complex Hermitian 3×3 with a degenerate pair: H v = v diag(w) and v† v = I.
    const h = 'H = np.array([[2, 1j, 0], [-1j, 2, 0], [0, 0, 3]])\nw, v = np.linalg.eigh(H)';
    expect(angle(`${h}\ntheta = np.linalg.norm(H @ v - v @ np.diag(w))`)).toBeLessThan(1e-12);
    expect(angle(`${h}\ntheta = np.linalg.norm(v.conj().T @ v - np.eye(3))`)).toBeLessThan(1e-12);
    expect([0, 1, 2].map((k) => angle(`${h}\ntheta = w[${k}]`))).toEqual([1, 3, 3].map((x) => expect.closeTo(x, 12)));
    expect(angle('theta = np.linalg.eigvalsh(np.array([[0, 1], [1, 0]]))[0]')).toBeCloseTo(-1, 12);
    // HHL-style: the rotation angle from an eigenvalue of A = [[1, -1/3], [-1/3, 1]] (eigenvalues 2/3 and 4/3).
    expect(angle('A = np.array([[1, -1/3], [-1/3, 1]])\nlam = np.linalg.eigvalsh(A)\ntheta = 2 * np.arcsin(lam[0] / lam[1])')).toBeCloseTo(
      2 * Math.asin(0.5),
      12,
    );
    expect(angle('A = np.array([[4, 7], [2, 6]])\ntheta = np.linalg.norm(A @ np.linalg.inv(A) - np.eye(2))')).toBeLessThan(1e-12);
    expect(angle('theta = np.linalg.inv(np.array([[0, 1j], [1, 0]]))[0, 1].real')).toBeCloseTo(1, 12);
    expect(angle('theta = np.linalg.det(np.array([[1, 2], [3, 4]]))')).toBeCloseTo(-2, 12);
    expect(angle('theta = np.linalg.det(np.array([[1, 2], [2, 4]]))')).toBe(0);
    expect(errorOf(() => angle('theta = np.linalg.inv(np.array([[1, 2], [2, 4]]))[0, 0]')).message).toBe('line 4: np.linalg.inv: the matrix is singular');
    expect(errorOf(() => angle('theta = np.linalg.eigh(np.array([1, 2]))[0][0]')).message).toBe('line 4: np.linalg.eigh takes a square matrix; got shape (2)');
  });

  it('refuses arrays above the element limit and mismatched shapes with a 422 naming the limit', () => {
    const big = errorOf(() => parseQiskit('import numpy as np\nM = np.zeros((2048, 1024))'));
    expect(big.kind).toBe('limit');
    expect(big.message).toMatch(/line 2: a numpy array may have at most 1048576 elements; this one would have 2097152/);
    const k = errorOf(() => parseQiskit('import numpy as np\nA = np.eye(1024)\nB = np.kron(A, A)'));
    expect(k.kind).toBe('limit');
    const mm = errorOf(() => parseQiskit('import numpy as np\nA = np.eye(2) @ np.eye(3)'));
    expect(mm.message).toMatch(/line 2: matmul: shapes \(2, 2\) and \(3, 3\) are not aligned/);
  });
});

describe('Qiskit library gates and sub-circuits', () => {
  it('QFT(3) on |5⟩ gives the analytic DFT amplitudes e^{2πi·5y/8}/√8', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFT
qc = QuantumCircuit(3)
qc.x(0)
qc.x(2)
qc.append(QFT(3), [0, 1, 2])
`);
    const s = finalState(c);
    for (let y = 0; y < 8; y++) {
      expect(s[2 * y]).toBeCloseTo(Math.cos((2 * Math.PI * 5 * y) / 8) / Math.sqrt(8), 12);
      expect(s[2 * y + 1]).toBeCloseTo(Math.sin((2 * Math.PI * 5 * y) / 8) / Math.sqrt(8), 12);
    }
  });

  it('QFT inverse/do_swaps/approximation_degree and QFTGate behave as Qiskit defines them', () => {
    const identity = parseQiskit(`
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFT, QFTGate
qc = QuantumCircuit(4)
qc.compose(QFT(4), inplace=True)
qc.compose(QFT(4, inverse=True), inplace=True)
qc.append(QFTGate(4), range(4))
qc.append(QFT(4).inverse(), range(4))
`);
    expect(equalUnitaries(circuitUnitary(identity), circuitUnitary(parseQiskit('from qiskit import QuantumCircuit\nqc = QuantumCircuit(4)')))).toBe(true);
    const noSwaps = parseQiskit('from qiskit.circuit.library import QFT\nqc = QFT(3, do_swaps=False)\nqc.swap(0, 2)');
    const full = parseQiskit('from qiskit.circuit.library import QFT\nqc = QFT(3)\nqc.h(0)\nqc.h(0)');
    expect(equalUnitaries(circuitUnitary(noSwaps), circuitUnitary(full))).toBe(true);
    const approx = parseQiskit('from qiskit.circuit.library import QFT\nqc = QFT(4, approximation_degree=2)\nqc.id(0)');
    expect(approx.ops.filter((o) => o.kind === 'gate' && o.name === 'cp')).toHaveLength(3);
  });

  it('ZGate().control(2) is CCZ; ctrl_state opens controls; MCMT and MCXGate agree', () => {
    const ccz = circuitUnitary(
      parseQiskit(
        'from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import ZGate\nqc = QuantumCircuit(3)\nqc.append(ZGate().control(2), [0, 1, 2])',
      ),
    );
    const diag = Array.from({ length: 8 }, (_, k) => (k === 7 ? -1 : 1));
    for (let k = 0; k < 8; k++)
      expect(
        close(
          column(ccz, k),
          Array.from({ length: 8 }, (_, i): [number, number] => [i === k ? diag[k] : 0, 0]),
          1e-12,
        ),
      ).toBe(true);
    const mcmt = circuitUnitary(
      parseQiskit(
        "from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import MCMT\nqc = QuantumCircuit(3)\nqc.compose(MCMT('z', 2, 1), [0, 1, 2], inplace=True)",
      ),
    );
    expect(equalUnitaries(mcmt, ccz)).toBe(true);
    // ctrl_state='01': control 0 must be 1 and control 1 must be 0 (bit i = control i).
    const open = parseQiskit(
      "from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import XGate\nqc = QuantumCircuit(3)\nqc.x(0)\nqc.append(XGate().control(2, ctrl_state='01'), [0, 1, 2])",
    );
    expect(probabilities(finalState(open))[0b101]).toBeCloseTo(1, 12);
    const mcx = parseQiskit(
      'from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import MCXGate\nqc = QuantumCircuit(4)\nqc.x([1, 2])\nqc.append(MCXGate(3, ctrl_state=6), [0, 1, 2, 3])',
    );
    expect(probabilities(finalState(mcx))[0b1110]).toBeCloseTo(1, 12);
    const phase = parseQiskit(
      'from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import PhaseGate, UGate, RZZGate\nqc = QuantumCircuit(3)\nqc.append(PhaseGate(0.3).control(1), [0, 1])\nqc.append(UGate(0.1, 0.2, 0.3), [2])\nqc.append(RZZGate(0.4), [1, 2])',
    );
    const same = parseQiskit('from qiskit import QuantumCircuit\nqc = QuantumCircuit(3)\nqc.cp(0.3, 0, 1)\nqc.u(0.1, 0.2, 0.3, 2)\nqc.rzz(0.4, 1, 2)');
    expect(equalUnitaries(circuitUnitary(phase), circuitUnitary(same))).toBe(true);
  });

  it('qc.to_gate().control(1), .inverse(), .power(k) and circuit.control() simulate as the sub-circuit', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit
bell = QuantumCircuit(2, name='bell')
bell.h(0)
bell.cx(0, 1)
g = bell.to_gate()
qc = QuantumCircuit(3)
qc.x(0)
qc.append(g.control(1), [0, 1, 2])
`);
    const p = probabilities(finalState(c));
    expect(p[0b001]).toBeCloseTo(0.5, 12);
    expect(p[0b111]).toBeCloseTo(0.5, 12);
    expect(c.definitions.size).toBe(1);
    const off = parseQiskit(
      'from qiskit import QuantumCircuit\nb = QuantumCircuit(2)\nb.h(0)\nqc = QuantumCircuit(3)\nqc.append(b.to_gate().control(1), [0, 1, 2])',
    );
    expect(probabilities(finalState(off))[0]).toBeCloseTo(1, 12);
    const powers = parseQiskit(
      'from qiskit import QuantumCircuit\ns = QuantumCircuit(1)\ns.s(0)\nqc = QuantumCircuit(2)\nqc.append(s.to_gate().power(2), [0])\nqc.append(s.to_gate().inverse(), [1])\nqc.append(s.to_gate(), [1])\nqc.compose(s.power(2).inverse(), [0], inplace=True)',
    );
    expect(equalUnitaries(circuitUnitary(powers), circuitUnitary(parseQiskit('from qiskit import QuantumCircuit\nqc = QuantumCircuit(2)')))).toBe(true);
    const ctl = parseQiskit('from qiskit import QuantumCircuit\nsub = QuantumCircuit(1)\nsub.x(0)\nsub.global_phase = 0.5\nqc = sub.control(1)');
    // control(1) of e^{0.5i}·X: a phase 0.5 on the control and a CX (the phase is not global any more).
    const u = circuitUnitary(ctl);
    expect(column(u, 1)).toEqual(expect.arrayContaining([[expect.closeTo(0, 12), expect.closeTo(0, 12)]]));
    expect(u[1][2 * 3]).toBeCloseTo(Math.cos(0.5), 12);
    expect(u[1][2 * 3 + 1]).toBeCloseTo(Math.sin(0.5), 12);
    expect(u[0][0]).toBeCloseTo(1, 12);
  });

  it('UnitaryGate(random unitary) applied to |k⟩ gives the matrix column k (1, 2 and 3 qubits)', () => {
    for (const [n, seed] of [
      [2, 7],
      [4, 11],
      [8, 3],
    ]) {
      const m = randomUnitary(n, seed);
      const k = Math.log2(n);
      const c = parseQiskit(
        `import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.circuit.library import UnitaryGate\nU = ${pyMatrix(m)}\nqc = QuantumCircuit(${k})\nqc.append(UnitaryGate(U, label='u'), list(range(${k})))`,
      );
      const u = circuitUnitary(c);
      for (let col = 0; col < n; col++)
        expect(
          close(
            column(u, col),
            m.map((row) => row[col]),
            1e-8,
          ),
        ).toBe(true);
      // Emitters keep it as a gate (QASM 3) and read back to the same unitary.
      const back = circuitUnitary(parseQasm(emitQasm3(c)).circuit);
      expect(equivalentUpToGlobalPhase(u, back, 1e-8)).toBe(true);
      expect(equivalentUpToGlobalPhase(u, circuitUnitary(parseQasm(emitQasm2(c)).circuit), 1e-8)).toBe(true);
    }
  });

  it('qc.unitary, Diagonal, StatePreparation, initialize and prepare_state', () => {
    const d = parseQiskit(
      'from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import Diagonal\nqc = QuantumCircuit(2)\nqc.compose(Diagonal([1, 1j, -1, -1j]), inplace=True)',
    );
    const du = circuitUnitary(d);
    const want: [number, number][] = [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
    ];
    for (let k = 0; k < 4; k++)
      expect(
        close(
          column(du, k),
          want.map((w, i) => (i === k ? w : [0, 0])),
          1e-9,
        ),
      ).toBe(true);
    const init = parseQiskit(
      'import numpy as np\nfrom qiskit import QuantumCircuit\nqc = QuantumCircuit(2, 2)\nqc.initialize([1 / np.sqrt(2), 0, 0, 1j / np.sqrt(2)], [0, 1])\nqc.measure([0, 1], [0, 1])',
    );
    const counts = simulate(init, { shots: 2000, seed: 5 }).counts;
    expect(Object.keys(counts).sort()).toEqual(['00', '11']);
    const prep = parseQiskit(
      'import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.circuit.library import StatePreparation\nv = np.array([0.5, 0.5j, -0.5, 0.5])\nqc = QuantumCircuit(2)\nqc.append(StatePreparation(v), [0, 1])',
    );
    const u = circuitUnitary(prep);
    expect(
      close(
        column(u, 0),
        [
          [0.5, 0],
          [0, 0.5],
          [-0.5, 0],
          [0.5, 0],
        ],
        1e-9,
      ),
    ).toBe(true);
    const label = parseQiskit("from qiskit import QuantumCircuit\nqc = QuantumCircuit(3)\nqc.prepare_state('1-0', [0, 1, 2])");
    const s = finalState(label);
    // '1-0': qubit 2 = |1⟩, qubit 1 = |−⟩, qubit 0 = |0⟩ (rightmost character = qubit 0).
    expect(s[2 * 0b100]).toBeCloseTo(Math.SQRT1_2, 12);
    expect(s[2 * 0b110]).toBeCloseTo(-Math.SQRT1_2, 12);
    const notNormal = errorOf(() => parseQiskit('from qiskit import QuantumCircuit\nqc = QuantumCircuit(1)\nqc.initialize([1, 1], 0)'));
    expect(notNormal.message).toMatch(/line 3: StatePreparation: the amplitudes are not normalised \(sum of \|a\|² = 2\.000000000\)/);
  });

  it('GroverOperator(oracle) finds the marked state of two qubits in one iteration', () => {
    const c = parseQiskit(`
from qiskit import QuantumCircuit
from qiskit.circuit.library import GroverOperator
oracle = QuantumCircuit(2)
oracle.cz(0, 1)
grover = GroverOperator(oracle)
qc = QuantumCircuit(2)
qc.h([0, 1])
qc.compose(grover, inplace=True)
`);
    expect(probabilities(finalState(c))[3]).toBeCloseTo(1, 12);
    // Q = −A·S₀·A†·S_f: the global phase π is kept.
    expect(
      parseQiskit(
        'from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import GroverOperator\no = QuantumCircuit(1)\no.z(0)\nqc = GroverOperator(o)\nqc.id(0)',
      ).globalPhase,
    ).toBeCloseTo(Math.PI, 12);
  });

  it('reads `from qiskit import *` and `from qiskit.circuit.library import *`', () => {
    const c = parseQiskit(
      'from qiskit import *\nfrom qiskit.circuit.library import *\nqc = QuantumCircuit(2)\nqc.append(HGate(), [0])\nqc.append(CXGate(), [0, 1])\nqc.compose(QFT(2).inverse().inverse().inverse(), inplace=True)',
    );
    const d = parseQiskit(
      'from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import QFT\nqc = QuantumCircuit(2)\nqc.h(0)\nqc.cx(0, 1)\nqc.compose(QFT(2, inverse=True), inplace=True)',
    );
    expect(equalUnitaries(circuitUnitary(c), circuitUnitary(d))).toBe(true);
  });

  it('Parameter / ParameterVector bound in code with assign_parameters (dict, list in Qiskit order, inplace)', () => {
    const names = (src: string) =>
      parseQiskit(src).ops.map((o) => (o.kind === 'gate' ? `${o.name}(${o.params.map((e) => (e.k === 'num' ? +e.v.toFixed(6) : '?')).join(',')})` : o.kind));
    const head =
      'from qiskit import QuantumCircuit\nfrom qiskit.circuit import Parameter, ParameterVector\ng = Parameter("gamma")\nb = Parameter("beta")\nqc = QuantumCircuit(1)\nqc.rz(2 * g - 1, 0)\nqc.rx(-b / 2, 0)\n';
    expect(names(`${head}bound = qc.assign_parameters({g: 0.7, b: 0.4})`)).toEqual(['rz(0.4)', 'rx(-0.2)']);
    // A list binds in qc.parameters order: sorted by name (beta before gamma).
    expect(names(`${head}qc.assign_parameters([0.4, 0.7], inplace=True)`)).toEqual(['rz(0.4)', 'rx(-0.2)']);
    expect(errorOf(() => parseQiskit(head)).message).toBe(
      "the circuit has unbound parameters (beta, gamma); bind them with assign_parameters(...) in the code, or give the entry point's arguments with entry_point_args",
    );
    const v =
      'from qiskit import QuantumCircuit\nfrom qiskit.circuit import ParameterVector\nt = ParameterVector("t", 11)\nqc = QuantumCircuit(1)\nfor p in t:\n    qc.ry(p, 0)\n';
    expect(names(`${v}qc = qc.assign_parameters({t: [k / 10 for k in range(11)]})`)).toEqual(Array.from({ length: 11 }, (_, k) => `ry(${k / 10})`));
    // Vector elements are ordered by index (t[2] before t[10]), not as strings.
    expect(names(`${v}qc = qc.assign_parameters([k / 10 for k in range(11)])`)).toEqual(Array.from({ length: 11 }, (_, k) => `ry(${k / 10})`));
    const ra = names('from qiskit.circuit.library import RealAmplitudes\nqc = RealAmplitudes(3, reps=1)\nqc = qc.assign_parameters(range(6))');
    expect(ra).toEqual(['ry(0)', 'ry(1)', 'ry(2)', 'cx()', 'cx()', 'ry(3)', 'ry(4)', 'ry(5)']);
    const cx = parseQiskit('from qiskit.circuit.library import RealAmplitudes\nqc = RealAmplitudes(3, reps=1)\nqc = qc.assign_parameters(range(6))').ops.filter(
      (o) => o.kind === 'gate' && o.name === 'cx',
    );
    expect(cx.map((o) => (o.kind === 'gate' ? o.qubits : []))).toEqual([
      [1, 2],
      [0, 1],
    ]);
  });

  it('compose(front=True), mcx/mcp with ctrl_state, mcrx', () => {
    const c = parseQiskit(
      'from qiskit import QuantumCircuit\na = QuantumCircuit(2)\na.x(0)\nb = QuantumCircuit(1)\nb.h(0)\nqc = a.compose(b, qubits=[1], front=True)',
    );
    expect(c.ops.map((o) => (o.kind === 'gate' ? `${o.name} ${o.qubits}` : o.kind))).toEqual(['h 1', 'x 0']);
    const m = parseQiskit("from qiskit import QuantumCircuit\nqc = QuantumCircuit(3)\nqc.mcx([0, 1], 2, ctrl_state='00')\nqc.mcrx(3.141592653589793, [0], 1)");
    const p = probabilities(finalState(m));
    expect(p[0b100]).toBeCloseTo(1, 12);
  });

  it('refuses non-unitary matrices with a 422 naming the deviation, and to_gate() of a measured circuit', () => {
    const e = errorOf(() =>
      parseQiskit(
        'from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import UnitaryGate\nqc = QuantumCircuit(1)\nqc.append(UnitaryGate([[1, 1], [0, 1]]), [0])',
      ),
    );
    expect(e.kind).toBe('semantic');
    expect(e.message).toMatch(/^line 4: UnitaryGate \(2×2\) is not unitary: max \|U†U − I\| = 1\.[0-9]+e\+0 exceeds the tolerance/);
    const m = errorOf(() => parseQiskit('from qiskit import QuantumCircuit\nqc = QuantumCircuit(1, 1)\nqc.measure(0, 0)\ng = qc.to_gate()'));
    expect(m.message).toMatch(/line 4: to_gate: a circuit with measurements cannot become a gate/);
  });
});

describe('bad values and gates answer a CircuitError naming the line, never a crash', () => {
  const Q = 'import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.circuit.library import *\nqc = QuantumCircuit(2)\n';
  const C = 'import cirq\nimport numpy as np\na, b = cirq.LineQubit.range(2)\n';
  it.each([
    ['np.array([[1, 2], [3]])', /line 5: np.array: rows have different lengths \(2, 1\)/],
    ['np.array([[[1]]])', /line 5: unsupported construct `np.array`: arrays of more than two dimensions/],
    ['np.zeros(-1)', /line 5: expected an array size \(a non-negative integer\)/],
    ['x = 1j // 2', /line 5: can't take floor of a complex number/],
    ['x = np.eye(2)[5]', /line 5: index 5 is out of bounds for axis 0 with size 2/],
    ['x = np.eye(2)[0, 0, 0]', /line 5: too many indices for an array of dimension 2/],
    ['x = np.eye(2) @ 3', /line 5: matmul: input operand does not have enough dimensions/],
    ["x = complex('x')", /line 5: expected the real part of complex\(\); got str/],
    ['x = np.array([1, 2]) + np.array([1, 2, 3])', /line 5: operands could not be broadcast together with shapes \(2\) \(3\)/],
    ['x = np.array([1, 2]).reshape(3)', /line 5: cannot reshape an array of size 2 into shape \(3\)/],
    ['x = np.eye(2)\nx[0] = 5', /line 6: unsupported construct `array item assignment`/],
    ['qc.rz(1j, 0)', /line 5: expected a parameter of rz; got the complex number 1j/],
    ['qc.append(QFT(0), [])', /line 5: QFT needs at least one qubit; got 0/],
    ['g = GroverOperator(5)', /line 5: GroverOperator takes a QuantumCircuit; got int/],
    ['c = MCMT(XGate(), 0, 1)', /line 5: MCMT needs at least one control and one target; got 0 and 1/],
    ["qc.initialize('012', [0, 1, 2])", /line 5: qubit index 2 is out of range/],
    ["qc.initialize('02', [0, 1])", /line 5: a state label uses the characters 0 1 \+ - r l; got '2'/],
    ['qc.append(StatePreparation([1, 0, 0]), [0, 1])', /line 5: StatePreparation: a state vector needs a power-of-two length ≥ 2; got 3/],
    ['qc.append(UnitaryGate([[1, 0], [0, 1], [0, 0]]), [0])', /line 5: UnitaryGate must be a square matrix; got shape \(3, 2\)/],
    ['qc.append(UnitaryGate(np.eye(2)), [0, 1])', /line 5: QuantumCircuit.append takes 1 qubit argument\(s\); got 2/],
    ["qc.append(ZGate().control(1, ctrl_state='2'), [0, 1])", /line 5: ctrl_state '2' must be 1 character\(s\) of 0 and 1/],
    ['g = XGate().control(0)', /line 5: control\(\) needs at least one control qubit; got 0/],
    ['g = XGate().power(0.5)', /line 5: unsupported construct `power\(0.5\)`: non-integer powers are supported for rotation and phase gates/],
    ['qc.append(Diagonal([1, 2]), [0])', /line 5: Diagonal: every diagonal entry must have modulus 1; entry 1 has \|d\| = 2.00000/],
  ])('Qiskit: %s', (line, message) => {
    expect(errorOf(() => parseQiskit(Q + line)).message).toMatch(message);
  });
  it.each([
    ['g = cirq.ControlledGate(cirq.X, control_values=[2])', /line 4: unsupported construct `control_values`: control values are 0 or 1 per control/],
    ['g = cirq.X.controlled(2, control_values=[1])', /line 4: control_values has 1 entries for 2 control\(s\)/],
    ['circuit = cirq.Circuit(cirq.MatrixGate(np.eye(4)).on(a))', /line 4: MatrixGate acts on 2 qubit\(s\); got 1/],
    [
      'circuit = cirq.Circuit((cirq.MatrixGate(np.eye(2)) ** 0.5).on(a))',
      /line 4: unsupported construct `MatrixGate\*\*0.5`: matrix gates take integer powers only/,
    ],
    ["circuit = cirq.Circuit(cirq.inverse(cirq.measure(a, key='m')))", /line 4: a measurement has no inverse or power/],
    ['op = cirq.CircuitOperation(cirq.H(a))', /line 4: CircuitOperation takes a \(frozen\) cirq circuit; got cop/],
  ])('Cirq: %s', (line, message) => {
    expect(errorOf(() => parseCirq(C + line)).message).toMatch(message);
  });
});

describe('limits and the QPU compiler', () => {
  it('bounds powers, QFT sizes and matrix sizes with a 422 naming the limit', () => {
    const p = errorOf(() =>
      parseQiskit('from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import XGate\nqc = QuantumCircuit(1)\nqc.append(XGate().power(10**9), [0])'),
    );
    expect([p.kind, p.message]).toEqual([
      'limit',
      expect.stringMatching(/^line 4: QuantumCircuit.append: power 1000000000 would add 1000000000 operations; a circuit may have at most 2000000/),
    ]);
    const q = errorOf(() => parseQiskit('from qiskit.circuit.library import QFT\nqc = QFT(5000)'));
    expect([q.kind, q.message]).toEqual(['limit', expect.stringMatching(/^line 2: QFT\(5000\) would have about 12507500 operations/)]);
    const u = errorOf(() => parseQiskit('import numpy as np\nfrom qiskit.circuit.library import UnitaryGate\ng = UnitaryGate(np.eye(128))'));
    expect([u.kind, u.message]).toEqual([
      'limit',
      expect.stringMatching(/^line 3: UnitaryGate: matrices are synthesized up to 6 qubits \(64×64\); this one is 128×128/),
    ]);
    const c = errorOf(() => parseCirq('import cirq\nq = cirq.LineQubit(0)\ncircuit = cirq.Circuit(cirq.H(q)) ** 10**7'));
    expect(c.kind).toBe('limit');
  });

  it('compiles a controlled UnitaryGate circuit for a device and keeps its distribution', () => {
    const m = randomUnitary(4, 13);
    const source = parseQiskit(
      `import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.circuit.library import UnitaryGate\nqc = QuantumCircuit(3)\nqc.h(0)\nqc.append(UnitaryGate(${pyMatrix(m)}).control(1), [0, 1, 2])\nqc.measure_all()`,
    );
    const compiled = compileToDevice(source, { numQubits: 3, nativeGates: ['rz', 'sx', 'x', 'cx'], couplingMap: lineCouplingMap(3) }, { seed: 1 });
    expect(compiled.circuit.ops.every((o) => o.kind !== 'gate' || ['rz', 'sx', 'x', 'cx'].includes(o.name))).toBe(true);
    const shots = 20000;
    const a = simulate(source, { shots, seed: 1 }).counts;
    const b = simulate(compiled.circuit, { shots, seed: 2 }).counts;
    let fidelity = 0;
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) fidelity += Math.sqrt(((a[k] ?? 0) / shots) * ((b[k] ?? 0) / shots));
    expect(fidelity ** 2).toBeGreaterThan(0.99);
  });
});

describe('Cirq matrix, controlled and sub-circuit gates', () => {
  it('MatrixGate uses Cirq’s big-endian order and matches the Qiskit UnitaryGate of the same program', () => {
    const m = randomUnitary(4, 21);
    const cirq = parseCirq(
      `import cirq\nimport numpy as np\nU = ${pyMatrix(m)}\na, b = cirq.LineQubit.range(2)\ncircuit = cirq.Circuit(cirq.MatrixGate(U).on(a, b))`,
    );
    // Cirq: qubit a is the most significant bit of the matrix index; Qiskit: qubit 0 the least.
    const qiskit = parseQiskit(
      `import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.circuit.library import UnitaryGate\nU = ${pyMatrix(m)}\nqc = QuantumCircuit(2)\nqc.append(UnitaryGate(U), [1, 0])`,
    );
    expect(equivalentUpToGlobalPhase(circuitUnitary(cirq), circuitUnitary(qiskit), 1e-8)).toBe(true);
    const bad = errorOf(() => parseCirq('import cirq\nimport numpy as np\ng = cirq.MatrixGate(np.array([[1, 0], [0, 2]]))'));
    expect(bad.message).toMatch(/^line 3: MatrixGate \(2×2\) is not unitary: max \|U†U − I\| = 3\.00e\+0/);
  });

  it('ControlledGate, .controlled(control_values), controlled_by, inverse and ** powers', () => {
    const cirq = parseCirq(`
import cirq
q = cirq.LineQubit.range(3)
circuit = cirq.Circuit(
    cirq.X(q[0]),
    cirq.ControlledGate(cirq.X, num_controls=2, control_values=[1, 0]).on(q[0], q[1], q[2]),
    (cirq.H ** -1).on(q[1]),
    cirq.inverse(cirq.S).on(q[1]),
    cirq.S(q[1]),
    cirq.H(q[1]),
)`);
    expect(probabilities(finalState(cirq))[0b101]).toBeCloseTo(1, 12);
    const z = parseCirq('import cirq\na, b, c = cirq.LineQubit.range(3)\ncircuit = cirq.Circuit(cirq.Z(c).controlled_by(a, b))');
    const qiskit = parseQiskit('from qiskit import QuantumCircuit\nqc = QuantumCircuit(3)\nqc.ccz(0, 1, 2)');
    expect(equalUnitaries(circuitUnitary(z), circuitUnitary(qiskit))).toBe(true);
  });

  it('CircuitOperation / FrozenCircuit with repetitions, cirq.inverse of a circuit, generator arguments', () => {
    const c = parseCirq(`
import cirq
q = cirq.LineQubit.range(3)
sub = cirq.FrozenCircuit(cirq.H(q[0]), cirq.CNOT(q[0], q[1]))
op = cirq.CircuitOperation(sub, repetitions=2)
circuit = cirq.Circuit(cirq.H(x) for x in q)
circuit.append(cirq.inverse(cirq.Circuit(cirq.H(x) for x in q)))
circuit.append(op)
circuit.append(cirq.inverse(cirq.CircuitOperation(sub)))
circuit.append(cirq.CircuitOperation(sub.freeze()))
`);
    // (H, CNOT)² on |00⟩ is the uniform superposition of q0, q1 (once would give a Bell pair).
    const p = probabilities(finalState(c));
    for (const k of [0, 1, 2, 3]) expect(p[k]).toBeCloseTo(0.25, 12);
  });

  it('MatrixGate powers, controlled CircuitOperation and the numpy import forms', () => {
    const m = randomUnitary(4, 17);
    const id = parseCirq(
      `import cirq\nfrom numpy import array, pi\nimport numpy.linalg as la\nU = array(${pyMatrix(m).slice('np.array('.length, -1)})\ng = cirq.MatrixGate(U / la.norm(U[:, 0]))\na, b = cirq.LineQubit.range(2)\ncircuit = cirq.Circuit(g(a, b), (g ** -1).on(a, b), cirq.rz(pi).on(a), cirq.rz(-pi).on(a))`,
    );
    expect(
      equivalentUpToGlobalPhase(
        circuitUnitary(id),
        circuitUnitary(parseCirq('import cirq\na, b = cirq.LineQubit.range(2)\ncircuit = cirq.Circuit(cirq.I(a), cirq.I(b))')),
        1e-8,
      ),
    ).toBe(true);
    const ctl = parseCirq(`
import cirq
a, b, c = cirq.LineQubit.range(3)
sub = cirq.FrozenCircuit(cirq.X(b), cirq.X(c))
circuit = cirq.Circuit(cirq.X(a), cirq.CircuitOperation(sub).controlled_by(a), cirq.measure(a, b, c, key='m'))
`);
    // a, b, c all |1⟩; key m = (a, b, c) with a as bit 0.
    expect(simulate(ctl, { shots: 10, seed: 1 }).counts).toEqual({ '111': 10 });
    const key = parseCirq("import cirq\na, b, c = cirq.LineQubit.range(3)\ncircuit = cirq.Circuit(cirq.X(a), cirq.measure(a, b, c, key='m'))");
    const qiskit = parseQiskit('from qiskit import QuantumCircuit\nqc = QuantumCircuit(3, 3)\nqc.x(0)\nqc.measure([0, 1, 2], [0, 1, 2])');
    expect(simulate(key, { shots: 10, seed: 1 }).counts).toEqual({ '001': 10 });
    expect(simulate(qiskit, { shots: 10, seed: 1 }).counts).toEqual({ '001': 10 });
    const op = parseQiskit(
      'import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.quantum_info import Operator\nqc = QuantumCircuit(2)\nqc.unitary(Operator(np.kron(np.array([[0, 1], [1, 0]]), np.eye(2))), [0, 1], label="xi")',
    );
    // kron(X, I): X on the more significant qubit, i.e. qubit 1 in Qiskit's order.
    expect(probabilities(finalState(op))[0b10]).toBeCloseTo(1, 12);
  });

  it('cirq.qft, ZZPowGate, DiagonalGate and StatePreparationChannel (big-endian indices)', () => {
    const qft = parseCirq('import cirq\nq = cirq.LineQubit.range(3)\ncircuit = cirq.Circuit(cirq.qft(*q))');
    const ref = parseQiskit('from qiskit import QuantumCircuit\nfrom qiskit.circuit.library import QFT\nqc = QuantumCircuit(3)\nqc.append(QFT(3), [2, 1, 0])');
    expect(equalUnitaries(circuitUnitary(qft), circuitUnitary(ref))).toBe(true);
    const round = parseCirq(
      'import cirq\nq = cirq.LineQubit.range(4)\ncircuit = cirq.Circuit(cirq.qft(*q, without_reverse=True), cirq.inverse(cirq.qft(*q, without_reverse=True)))',
    );
    expect(
      equalUnitaries(circuitUnitary(round), circuitUnitary(parseCirq('import cirq\nq = cirq.LineQubit.range(4)\ncircuit = cirq.Circuit(cirq.I.on_each(*q))'))),
    ).toBe(true);
    const zz = circuitUnitary(parseCirq('import cirq\na, b = cirq.LineQubit.range(2)\ncircuit = cirq.Circuit(cirq.ZZPowGate(exponent=0.3).on(a, b))'));
    const e = (t: number): [number, number] => [Math.cos(t), Math.sin(t)];
    const zzDiag = [e(0), e(0.3 * Math.PI), e(0.3 * Math.PI), e(0)];
    for (let k = 0; k < 4; k++)
      expect(
        close(
          column(zz, k),
          zzDiag.map((v, i) => (i === k ? v : [0, 0])),
          1e-12,
        ),
      ).toBe(true);
    // Cirq index 2·q0 + q1; in Qiskit order |q0=1, q1=0⟩ is index 1 and gets Cirq's entry 2.
    const diag = circuitUnitary(
      parseCirq('import cirq\na, b = cirq.LineQubit.range(2)\ncircuit = cirq.Circuit(cirq.DiagonalGate([0, 0.1, 0.2, 0.3]).on(a, b))'),
    );
    expect(close(column(diag, 1), [[0, 0], e(0.2), [0, 0], [0, 0]], 1e-9)).toBe(true);
    const prep = parseCirq(
      'import cirq\na, b = cirq.LineQubit.range(2)\ncircuit = cirq.Circuit(cirq.X(a), cirq.StatePreparationChannel([3, 4j, 0, 0]).on(a, b))',
    );
    const s = finalState(prep);
    const phase = Math.atan2(s[1], s[0]);
    expect(Math.hypot(s[0], s[1])).toBeCloseTo(0.6, 9);
    expect(s[2 * 2] * Math.cos(-phase) - s[2 * 2 + 1] * Math.sin(-phase)).toBeCloseTo(0, 9);
    expect(s[2 * 2] * Math.sin(-phase) + s[2 * 2 + 1] * Math.cos(-phase)).toBeCloseTo(0.8, 9);
  });

  it('sympy symbols in rotations, resolved with cirq.resolve_parameters (names or Symbols, ParamResolver)', () => {
    const angles = (src: string) =>
      parseCirq(src).ops.map((o) => (o.kind === 'gate' ? `${o.name}(${o.params.map((e) => (e.k === 'num' ? +e.v.toFixed(6) : '?')).join(',')})` : o.kind));
    const head =
      'import cirq\nimport sympy\na, b = sympy.symbols("a b")\nt = sympy.symbols("t0:2")\nq = cirq.LineQubit(0)\nc = cirq.Circuit(cirq.rx(2 * a + 1).on(q), cirq.rz(-b / 2).on(q), cirq.ry(t[1] * sympy.pi).on(q))\n';
    expect(angles(`${head}circuit = cirq.resolve_parameters(c, {"a": 0.5, b: 0.4, "t1": 1})`)).toEqual(['rx(2)', 'rz(-0.2)', `ry(${+Math.PI.toFixed(6)})`]);
    expect(angles(`${head}circuit = cirq.resolve_parameters(c, cirq.ParamResolver({a: 0, b: 0, t[1]: 0}))`)).toEqual(['rx(1)', 'rz(0)', 'ry(0)']);
    expect(errorOf(() => parseCirq(`${head}circuit = cirq.resolve_parameters(c, {"a": 0.5})`)).message).toMatch(
      /^line 6: rz has the unresolved symbolic angle b; resolve it with cirq.resolve_parameters/,
    );
  });

  it('the Qiskit and Cirq versions of a controlled-unitary program give the same distribution', () => {
    const m = randomUnitary(2, 5);
    const q = parseQiskit(`
import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import UnitaryGate
U = ${pyMatrix(m)}
qc = QuantumCircuit(2, 2)
qc.h(0)
qc.append(UnitaryGate(U).control(1), [0, 1])
qc.measure([0, 1], [0, 1])
`);
    const c = parseCirq(`
import cirq
import numpy as np
U = ${pyMatrix(m)}
a, b = cirq.LineQubit.range(2)
circuit = cirq.Circuit(cirq.H(a), cirq.MatrixGate(U).controlled().on(a, b), cirq.measure(a, b, key='m'))
`);
    expect(
      equivalentUpToGlobalPhase(
        circuitUnitary({ ...q, ops: q.ops.filter((o) => o.kind !== 'measure') }),
        circuitUnitary({ ...c, ops: c.ops.filter((o) => o.kind !== 'measure') }),
        1e-8,
      ),
    ).toBe(true);
    const a = simulate(q, { shots: 1, seed: 1, method: 'statevector' });
    const b = simulate(c, { shots: 1, seed: 1, method: 'statevector' });
    expect(a.statevector).toBeDefined();
    // cirq.measure(a, b, key='m'): a is clbit 0 (rightmost), as qc.measure([0, 1], [0, 1]).
    expect(Object.keys(simulate(c, { shots: 500, seed: 2 }).counts).every((k) => /^[01]{2}$/.test(k))).toBe(true);
    const qp = probabilities(finalState(q));
    const cp = probabilities(finalState(c));
    for (let i = 0; i < qp.length; i++) expect(cp[i]).toBeCloseTo(qp[i], 9);
    expect(b.qubitCount).toBe(2);
  });

  it('round-trips matrix gates through the Qiskit and Cirq emitters', () => {
    const m = randomUnitary(4, 9);
    const c = parseQiskit(
      `import numpy as np\nfrom qiskit import QuantumCircuit\nfrom qiskit.circuit.library import UnitaryGate\nqc = QuantumCircuit(3)\nqc.append(UnitaryGate(${pyMatrix(m)}).control(1), [2, 0, 1])`,
    );
    const u = circuitUnitary(c);
    expect(equivalentUpToGlobalPhase(u, circuitUnitary(parseQiskit(emitQiskit(c))), 1e-8)).toBe(true);
    expect(equivalentUpToGlobalPhase(u, circuitUnitary(parseCirq(emitCirq(c))), 1e-8)).toBe(true);
  });
});
