/**
 * Qiskit's library circuits and gates (QFT, GroverOperator, MCMT, UnitaryGate, Operator, Diagonal,
 * StatePreparation, Initialize, RealAmplitudes/EfficientSU2, MCPhaseGate), built with the circuit builder from
 * their published definitions (gate-library.ts).
 */
import { semanticError, unsupported } from '../errors.js';
import { checkBitCount, checkListLength } from '../limits.js';
import { inverseGate, type Operation } from '../ir/circuit.js';
import { matrix as denseMatrix } from '../ir/complex-matrix.js';
import { matrixDefinition, qftOps, zeroReflectionOps } from './gate-library.js';
import { toArray, toVector } from './python-numeric.js';
import { ignored, isObject, iterate, toInt, toNumber, typeName, type PyValue } from './python-objects.js';
import type { CircuitValue, ParamValue, ParamVector } from './qiskit-objects.js';
import type { QiskitCircuitBuilder } from './qiskit-circuit-builder.js';

/** The library circuits and gates (see gate-library.ts for their definitions). */
export function qiskitLibrary(builder: QiskitCircuitBuilder, name: string): PyValue {
  const call = (fn: (args: PyValue[], kwargs: Map<string, PyValue>, line: number) => PyValue): PyValue => ({ kind: 'builtin', name, call: fn }) as PyValue;
  const arg = (args: PyValue[], kwargs: Map<string, PyValue>, i: number, key: string): PyValue | undefined => args[i] ?? kwargs.get(key);
  const flag = (v: PyValue | undefined, dflt: boolean): boolean => (v === undefined || v === null ? dflt : v === true || v === 1);
  // A library circuit is the program's circuit if nothing is built after it (`qc = QFT(3)`).
  const build = (make: () => CircuitValue): CircuitValue => builder.buildLibraryCircuit(make);
  switch (name) {
    case 'QFT':
    case 'QFTGate':
      return call((args, kwargs, line) => {
        const n = toInt(arg(args, kwargs, 0, 'num_qubits') ?? null, line, 'the number of qubits of QFT');
        if (n < 1) throw semanticError(line, `QFT needs at least one qubit; got ${n}`);
        checkBitCount('qubits', n, line);
        const approx = name === 'QFT' ? toInt(arg(args, kwargs, 1, 'approximation_degree') ?? 0, line, 'approximation_degree') : 0;
        const swaps = name === 'QFT' ? flag(arg(args, kwargs, 2, 'do_swaps'), true) : true;
        const inverse = name === 'QFT' && flag(arg(args, kwargs, 3, 'inverse'), false);
        const barriers = name === 'QFT' && flag(arg(args, kwargs, 4, 'insert_barriers'), false);
        const label = kwargs.get('name');
        const qc = build(() => {
          const c = builder.newCircuit(n, typeof label === 'string' ? label : inverse ? 'iqft' : 'qft');
          const ops = qftOps(n, approx, swaps, barriers, line);
          c.circuit.ops = inverse
            ? ops
                .slice()
                .reverse()
                .flatMap<Operation>((op) => (op.kind === 'gate' ? inverseGate(c.circuit, op) : [op]))
            : ops;
          return c;
        });
        return (name === 'QFTGate' ? builder.circuitGate(qc, 'qft', line) : qc) as unknown as PyValue;
      });
    case 'GroverOperator':
    case 'grover_operator':
      return call((args, kwargs, line) => {
        const oracle = builder.asCircuit(arg(args, kwargs, 0, 'oracle') ?? null, line, name);
        const prep = arg(args, kwargs, 1, 'state_preparation');
        const reflectionArg = kwargs.get('reflection_qubits') ?? args[3];
        const barriers = flag(kwargs.get('insert_barriers'), false);
        const n = oracle.circuit.numQubits;
        const reflection =
          reflectionArg === undefined || reflectionArg === null
            ? Array.from({ length: n }, (_, i) => i)
            : iterate(reflectionArg, line, 'reflection_qubits').map((q) => toInt(q, line, 'a reflection qubit'));
        if (reflection.some((q) => q < 0 || q >= n)) throw semanticError(line, `reflection_qubits must be qubits of the ${n}-qubit oracle`);
        const qc = build(() => {
          const c = builder.newCircuit(n, 'Q');
          let a: CircuitValue;
          if (prep === undefined || prep === null) {
            a = builder.newCircuit(n);
            for (const q of reflection) builder.push(a, { kind: 'gate', name: 'h', qubits: [q], params: [], line });
          } else a = builder.asCircuit(prep, line, `${name} state_preparation`);
          const all = (k: number) => Array.from({ length: k }, (_, i) => i as PyValue);
          const barrier = () => barriers && builder.push(c, { kind: 'barrier', qubits: all(n) as number[], line });
          builder.compose(c, oracle, all(n), undefined, true, line);
          barrier();
          builder.compose(c, builder.invertCircuit(a, line), all(a.circuit.numQubits), undefined, true, line);
          barrier();
          for (const g of zeroReflectionOps(reflection, line)) builder.push(c, g);
          barrier();
          builder.compose(c, a, all(a.circuit.numQubits), undefined, true, line);
          c.circuit.globalPhase += Math.PI;
          return c;
        });
        return qc as unknown as PyValue;
      });
    case 'MCMT':
    case 'MCMTGate':
      return call((args, kwargs, line) => {
        const gate = builder.asGate(arg(args, kwargs, 0, 'gate') ?? null, line, name);
        const nc = toInt(arg(args, kwargs, 1, 'num_ctrl_qubits') ?? null, line, 'num_ctrl_qubits');
        const nt = toInt(arg(args, kwargs, 2, 'num_target_qubits') ?? 1, line, 'num_target_qubits');
        if (nc < 1 || nt < 1) throw semanticError(line, `${name} needs at least one control and one target; got ${nc} and ${nt}`);
        if (gate.qubits !== 1) throw unsupported(line, name, `${name} applies a single-qubit gate to each target; got a ${gate.qubits}-qubit gate`);
        const qc = build(() => {
          const c = builder.newCircuit(nc + nt, 'mcmt');
          const controlled = builder.controlGate(gate, nc, undefined, line);
          const controls = Array.from({ length: nc }, (_, i) => i);
          for (let t = 0; t < nt; t++) builder.applyGate(c, controlled, [...controls, nc + t], line, name);
          return c;
        });
        return (name === 'MCMTGate' ? builder.circuitGate(qc, 'mcmt', line) : qc) as unknown as PyValue;
      });
    case 'UnitaryGate':
      return call((args, kwargs, line) => {
        const label = arg(args, kwargs, 1, 'label');
        const data = arg(args, kwargs, 0, 'data') ?? null;
        if (isObject(data, 'qc') || isObject(data, 'gate')) throw semanticError(line, 'UnitaryGate takes a matrix (numpy array or nested lists)');
        return builder.unitaryGate(data, typeof label === 'string' ? label : undefined, line) as unknown as PyValue;
      });
    case 'Operator':
      return call((args, _kwargs, line) => {
        const data = args[0] ?? null;
        if (isObject(data, 'qc') || isObject(data, 'gate')) return ignored('Operator');
        return toArray(data, line) as unknown as PyValue;
      });
    case 'Diagonal':
    case 'DiagonalGate':
      return call((args, kwargs, line) => {
        const entries = toVector(arg(args, kwargs, 0, 'diag') ?? null, line, name);
        const n = entries.length;
        const bad = entries.findIndex(([re, im]) => Math.abs(Math.hypot(re, im) - 1) > 1e-8);
        if (bad >= 0)
          throw semanticError(line, `${name}: every diagonal entry must have modulus 1; entry ${bad} has |d| = ${Math.hypot(...entries[bad]).toPrecision(6)}`);
        const m = denseMatrix(Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (r === c ? entries[r] : 0))));
        const gate = builder.customGate(matrixDefinition(builder.definitionName('diagonal'), m, name, line));
        return (name === 'Diagonal' ? build(() => builder.gateCircuit(gate, line, 'diagonal')) : gate) as unknown as PyValue;
      });
    case 'StatePreparation':
      return call((args, kwargs, line) => {
        const nq = arg(args, kwargs, 1, 'num_qubits');
        return builder.statePreparation(
          arg(args, kwargs, 0, 'params') ?? null,
          nq === undefined || nq === null ? undefined : toInt(nq, line, 'num_qubits'),
          flag(kwargs.get('normalize'), false),
          flag(arg(args, kwargs, 2, 'inverse'), false),
          line,
        ) as unknown as PyValue;
      });
    case 'Initialize':
      return call((args, kwargs, line) => {
        const nq = arg(args, kwargs, 1, 'num_qubits');
        const gate = builder.statePreparation(
          arg(args, kwargs, 0, 'params') ?? null,
          nq === undefined || nq === null ? undefined : toInt(nq, line, 'num_qubits'),
          flag(arg(args, kwargs, 2, 'normalize'), false),
          false,
          line,
        );
        // Initialize = reset, then the state preparation: an instruction, so a circuit to compose.
        return build(() => {
          const c = builder.newCircuit(gate.qubits, 'initialize');
          for (let q = 0; q < gate.qubits; q++) builder.push(c, { kind: 'reset', qubit: q, line });
          builder.applyGate(
            c,
            gate,
            Array.from({ length: gate.qubits }, (_, i) => i),
            line,
            'Initialize',
          );
          return c;
        }) as unknown as PyValue;
      });
    case 'RealAmplitudes':
    case 'real_amplitudes':
    case 'EfficientSU2':
    case 'efficient_su2':
      return call((args, kwargs, line) => {
        // Qiskit's TwoLocal ansatz: reps × (rotation layers, CX entanglement), then a final rotation layer;
        // parameters θ[k] in order layer by layer, rotation gate by gate, qubit by qubit.
        const n = toInt(arg(args, kwargs, 0, 'num_qubits') ?? null, line, 'the number of qubits');
        if (n < 1) throw semanticError(line, `${name} needs at least one qubit; got ${n}`);
        const entanglement = arg(args, kwargs, name.startsWith('R') || name.startsWith('r') ? 1 : 2, 'entanglement') ?? 'reverse_linear';
        const reps = toInt(kwargs.get('reps') ?? (name.startsWith('R') || name.startsWith('r') ? args[2] : args[3]) ?? 3, line, 'reps');
        const skipFinal = flag(kwargs.get('skip_final_rotation_layer'), false);
        const barriers = flag(kwargs.get('insert_barriers'), false);
        const prefix = kwargs.get('parameter_prefix') ?? 'θ';
        const rotations = name.toLowerCase().startsWith('real') ? ['ry'] : ['ry', 'rz'];
        let pairs: [number, number][];
        const linear = Array.from({ length: Math.max(0, n - 1) }, (_, i): [number, number] => [i, i + 1]);
        if (entanglement === 'linear') pairs = linear;
        else if (entanglement === 'reverse_linear') pairs = linear.slice().reverse();
        else if (entanglement === 'full')
          pairs = linear.length
            ? Array.from({ length: n }, (_, i) => Array.from({ length: n - i - 1 }, (_, j): [number, number] => [i, i + j + 1])).flat()
            : [];
        else if (entanglement === 'circular') pairs = n > 2 ? [[n - 1, 0], ...linear] : linear;
        else
          throw unsupported(
            line,
            `entanglement=${typeof entanglement === 'string' ? `'${entanglement}'` : typeName(entanglement)}`,
            "entanglement is 'linear', 'reverse_linear', 'full' or 'circular'",
          );
        const layers = reps + (skipFinal ? 0 : 1);
        checkListLength(layers * rotations.length * n + reps * pairs.length, line);
        const vector = builder.newParameter(
          'ParameterVector',
          [typeof prefix === 'string' ? prefix : 'θ', layers * rotations.length * n],
          new Map(),
          line,
        ) as unknown as ParamVector;
        return build(() => {
          const c = builder.newCircuit(n, name);
          let k = 0;
          const rotationLayer = () => {
            for (const r of rotations)
              for (let q = 0; q < n; q++)
                builder.push(c, { kind: 'gate', name: r, qubits: [q], params: [(vector.items[k++] as unknown as ParamValue).expr], line });
          };
          const all = Array.from({ length: n }, (_, i) => i);
          for (let r = 0; r < reps; r++) {
            rotationLayer();
            if (barriers) builder.push(c, { kind: 'barrier', qubits: all, line });
            for (const [a, b] of pairs) builder.push(c, { kind: 'gate', name: 'cx', qubits: [a, b], params: [], line });
            if (barriers) builder.push(c, { kind: 'barrier', qubits: all, line });
          }
          if (!skipFinal) rotationLayer();
          return c;
        }) as unknown as PyValue;
      });
    case 'MCPhaseGate':
      return call((args, kwargs, line) => {
        const lam = toNumber(arg(args, kwargs, 0, 'lam') ?? null, line, 'the phase');
        const n = toInt(arg(args, kwargs, 1, 'num_ctrl_qubits') ?? null, line, 'the number of controls');
        if (n < 1) throw semanticError(line, `MCPhaseGate needs at least one control; got ${n}`);
        return { kind: 'gate', name: 'p', params: [lam], qubits: n + 1, controls: n, inverse: false } as unknown as PyValue;
      });
  }

  throw unsupported(undefined, name, `${name} is not part of the supported Qiskit subset`);
}
