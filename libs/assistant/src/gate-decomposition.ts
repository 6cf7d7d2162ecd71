/**
 * Decomposition requests: "decompose a CZ into H and CX", "Toffoli from H, T, Tdg and CX",
 * "U(θ=π/2, φ=π/4, λ=π/3) into rz and ry", "the unitary 1/√2 [[1, 1j], [1j, 1]]". The target is a
 * named gate (controls first: qubit 0 controls qubit 1; Toffoli's controls are 0 and 1), a rotation
 * or U gate with its angles, exp(−iθ·P⊗P), or a literal matrix; the basis is the gate names listed
 * after "into / using / from / with / out of / as". Textbook identities are used where the basis
 * asks for them (Nielsen & Chuang Fig. 4.9 for the Toffoli; CZ = H·CX·H; SWAP = 3 CX; CH = RY(−π/4)·CX·RY(π/4));
 * otherwise libs/circuits' exact synthesis (KAK / QSD) and, for a one-qubit basis the compiler
 * knows, its device compilation. The result is checked as a unitary against the target computed
 * from the gate's definition (libs/circuits' gate matrices), not from the circuit built.
 */
import { addQreg, circuitUnitary, compileToDevice, emptyCircuit, expandCircuit, num, synthesizeUnitary, type Circuit, type GateOp } from '#qdc/circuits';

export interface DecompositionTask {
  kind: 'decomposition';
  /** The gate as libs/circuits names it, with its parameters, on qubits 0..k−1. */
  gate: { name: string; params: number[]; qubits: number } | { matrix: [number, number][][] };
  label: string;
  /** Allowed gate names (lowercase libs/circuits names), '1q' standing for any one-qubit gate; undefined = any. */
  basis?: string[];
}

const GATE_WORDS: [RegExp, string][] = [
  [/^(?:hadamards?|h)$/i, 'h'],
  [/^(?:cnots?|cx|cxs|controlled[\s-]*nots?)$/i, 'cx'],
  [/^(?:czs?|controlled[\s-]*z)$/i, 'cz'],
  [/^(?:tdg|t†|tdag|t-dagger)$/i, 'tdg'],
  [/^t$/i, 't'],
  [/^(?:sdg|s†)$/i, 'sdg'],
  [/^s$/i, 's'],
  [/^(?:x|paulis?[\s-]*x)$/i, 'x'],
  [/^y$/i, 'y'],
  [/^z$/i, 'z'],
  [/^rx$/i, 'rx'],
  [/^ry$/i, 'ry'],
  [/^rz$/i, 'rz'],
  [/^(?:p|phase)$/i, 'p'],
  [/^(?:u|u3)$/i, 'u'],
  [/^sx$/i, 'sx'],
  [/^single[\s-]*qubit(?:\s+(?:phase|rotation))?$/i, '1q'],
];

/** The basis after "into / using (only) / from / with / out of / as": gate names joined by commas, and, or. */
function basisIn(text: string): string[] | undefined {
  const re =
    /\b(?:into|using(?:\s+only)?|only\s+(?:from|with|using)|built\s+(?:only\s+)?from|from|with|out of|as|in terms of)\s+((?:(?:only|the|a|an|three|two|one|\d|individual)\s+)*[A-Za-z†-]+(?:\s*(?:,|and|or|\+)\s*(?:(?:only|the|a|an)\s+)?[A-Za-z†-]+(?:[\s-]qubit)?)*(?:\s+(?:phase\s+)?(?:gates?|rotations?))?)/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const basis = basisWords(m[1]);
    if (basis) return basis;
  }
  return undefined;
}

function basisWords(list: string): string[] | undefined {
  const words = list
    .replace(/\b(only|the|a|an|three|two|one|individual|gates?|rotations?|\d)\b/gi, ' ')
    .split(/\s*(?:,|\band\b|\bor\b|\+)\s*/i)
    .map((w) => w.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const w of words) {
    const hit = GATE_WORDS.find(([re]) => re.test(w));
    if (!hit) return undefined;
    out.push(hit[1]);
  }
  return out.length ? [...new Set(out)] : undefined;
}

function angle(text: string): number | undefined {
  const t = text.trim().replace(/\s+/g, '').replace('−', '-');
  const m = /^(-)?(\d*\.?\d*)\*?(pi|π)?(?:\/(\d+(?:\.\d+)?))?$/i.exec(t);
  if (!m || (!m[2] && !m[3])) return undefined;
  const v = ((m[2] ? Number(m[2]) : 1) * (m[3] ? Math.PI : 1)) / (m[4] ? Number(m[4]) : 1);
  return m[1] ? -v : v;
}

/** A literal matrix [[a, b], [c, d]] with an optional scalar factor before it (1/√2, 0.5). */
function literalMatrix(text: string): [number, number][][] | undefined {
  const m = /((?:1\s*\/\s*(?:√|sqrt\s*\(?)\s*2\s*\)?|\d*\.?\d+)\s*\*?\s*)?\[\s*(\[[^\]]*\](?:\s*,\s*\[[^\]]*\])+)\s*\]/i.exec(text);
  if (!m) return undefined;
  const factor = m[1] ? (/√|sqrt/i.test(m[1]) ? Math.SQRT1_2 : Number(m[1])) : 1;
  const rows = [...m[2].matchAll(/\[([^\]]*)\]/g)].map((r) =>
    r[1].split(',').map((v): [number, number] | undefined => {
      const s = v.trim().replace('−', '-');
      const imag = /^(-)?(\d*\.?\d*)\s*\*?\s*(?:1j|j|i)$/i.exec(s);
      if (imag) return [0, (imag[1] ? -1 : 1) * (imag[2] ? Number(imag[2]) : 1) * factor];
      return /^-?\d*\.?\d+$/.test(s) ? [Number(s) * factor, 0] : undefined;
    }),
  );
  const n = rows.length;
  if (![2, 4, 8].includes(n) || rows.some((r) => r.length !== n || r.some((v) => !v))) return undefined;
  return rows as [number, number][][];
}

/** The decomposition a request asks for, or undefined when it is not one this module reads. */
export function decompositionIn(request: string): DecompositionTask | undefined {
  // Python imports and the scaffold's def line are code, not words about the gate ("from qiskit import …").
  const text = request.replace(/^\s*(?:from\s+\S+\s+import|import|def)\b.*$/gm, '');
  if (
    !/\bdecompos|\bimplements?\b|\busing only\b|\bonly\s+(?:from|with)\b|\bfrom\b.*\bgates\b|\bout of\b|\bas (?:three|3) cnots\b|\bexpress\b|\bwith cnots?\b/i.test(
      text,
    )
  )
    return undefined;
  const basis = basisIn(text);
  const before = text.split(/\b(?:into|using|from|out of|as three|as 3|in terms of|built only|built from|with cnots?)\b/i)[0];
  const u = /\bU3?\s*\(\s*(?:θ|theta)?\s*=?\s*([^,]+),\s*(?:φ|phi)?\s*=?\s*([^,]+),\s*(?:λ|lambda|lam)?\s*=?\s*([^)]+)\)/i.exec(text);
  if (u) {
    const [t, p, l] = [angle(u[1]), angle(u[2]), angle(u[3])];
    if (t !== undefined && p !== undefined && l !== undefined)
      return { kind: 'decomposition', gate: { name: 'u', params: [t, p, l], qubits: 1 }, label: `U(${u[1].trim()}, ${u[2].trim()}, ${u[3].trim()})`, basis };
  }
  const rot = /\b(R[xyz])\s*\(\s*([^)]+)\)/i.exec(before);
  if (rot && angle(rot[2]) !== undefined)
    return { kind: 'decomposition', gate: { name: rot[1].toLowerCase(), params: [angle(rot[2])!], qubits: 1 }, label: `${rot[1]}(${rot[2].trim()})`, basis };
  const zz = /\bexp\s*\(\s*[-−]\s*i\s*[·*]?\s*([^·*]+?)\s*[·*]\s*([XYZ])\s*(?:⊗|x|\*)?\s*([XYZ])\s*\)/i.exec(text);
  if (zz && zz[2].toUpperCase() === zz[3].toUpperCase() && angle(zz[1]) !== undefined) {
    const name = `r${zz[2].toLowerCase()}${zz[2].toLowerCase()}`;
    return { kind: 'decomposition', gate: { name, params: [2 * angle(zz[1])!], qubits: 2 }, label: `exp(−i·${zz[1].trim()}·${zz[2]}⊗${zz[3]})`, basis };
  }
  const literal = literalMatrix(text);
  if (literal) return { kind: 'decomposition', gate: { matrix: literal }, label: 'the given matrix', basis };
  const named: [RegExp, string, number, string][] = [
    [/\btoffoli\b|\bccx\b|\bccnot\b/i, 'ccx', 3, 'Toffoli (controls 0, 1; target 2)'],
    [/\biswap\b/i, 'iswap', 2, 'iSWAP'],
    [/\bswap\b/i, 'swap', 2, 'SWAP'],
    [/\bcontrolled[\s-]*hadamard\b|\bch\b/i, 'ch', 2, 'controlled-H (control 0, target 1)'],
    [/\bcontrolled[\s-]*s\b|\bcs\b/i, 'cs', 2, 'controlled-S (control 0, target 1)'],
    [/\bcontrolled[\s-]*z\b|\bcz\b/i, 'cz', 2, 'CZ'],
    [/\bcnot\b|\bcx\b|\bcontrolled[\s-]*not\b/i, 'cx', 2, 'CNOT (control 0, target 1)'],
  ];
  for (const [re, name, qubits, label] of named) {
    if (re.test(before)) return { kind: 'decomposition', gate: { name, params: [], qubits }, label, basis };
  }
  return undefined;
}

/** The target's unitary (columns, interleaved), from libs/circuits' definition of the gate or the literal matrix. */
export function targetUnitary(task: DecompositionTask): Float64Array[] {
  if ('matrix' in task.gate) {
    const m = task.gate.matrix;
    return m.map((_, c) => {
      const col = new Float64Array(2 * m.length);
      m.forEach((row, r) => {
        col[2 * r] = row[c][0];
        col[2 * r + 1] = row[c][1];
      });
      return col;
    });
  }
  const c = emptyCircuit();
  addQreg(c, 'q', task.gate.qubits);
  const g = task.gate.name === 'cs' ? { name: 'cp', params: [Math.PI / 2] } : task.gate;
  c.ops.push({ kind: 'gate', name: g.name, qubits: Array.from({ length: task.gate.qubits }, (_, i) => i), params: g.params.map(num) });
  return circuitUnitary(c);
}

const gate = (name: string, qubits: number[], params: number[] = []): GateOp => ({ kind: 'gate', name, qubits, params: params.map(num) });

/** Textbook circuits for (target, basis) pairs people ask for. */
function textbook(name: string, basis: Set<string>): GateOp[] | undefined {
  const has = (...g: string[]) => g.every((x) => basis.has(x));
  if (name === 'cz' && has('h', 'cx')) return [gate('h', [1]), gate('cx', [0, 1]), gate('h', [1])];
  if (name === 'cx' && has('h', 'cz')) return [gate('h', [1]), gate('cz', [0, 1]), gate('h', [1])];
  if (name === 'swap' && has('cx')) return [gate('cx', [0, 1]), gate('cx', [1, 0]), gate('cx', [0, 1])];
  if (name === 'ch' && has('ry', 'cx')) return [gate('ry', [1], [Math.PI / 4]), gate('cx', [0, 1]), gate('ry', [1], [-Math.PI / 4])];
  if (name === 'ccx' && has('h', 't', 'tdg', 'cx'))
    return [
      gate('h', [2]),
      gate('cx', [1, 2]),
      gate('tdg', [2]),
      gate('cx', [0, 2]),
      gate('t', [2]),
      gate('cx', [1, 2]),
      gate('tdg', [2]),
      gate('cx', [0, 2]),
      gate('t', [1]),
      gate('t', [2]),
      gate('h', [2]),
      gate('cx', [0, 1]),
      gate('t', [0]),
      gate('tdg', [1]),
      gate('cx', [0, 1]),
    ];
  // Controlled phase P(θ) = P(θ/2)⊗P(θ/2) · CX · (I⊗P(−θ/2)) · CX.
  if (name === 'cs' && (has('cx', 'p') || has('cx', '1q')))
    return [gate('p', [0], [Math.PI / 4]), gate('cx', [0, 1]), gate('p', [1], [-Math.PI / 4]), gate('cx', [0, 1]), gate('p', [1], [Math.PI / 4])];
  // exp(−iθ/2·Z⊗Z) = CX · RZ(θ) on the target · CX.
  if (name === 'rzz' && has('cx', 'rz')) return undefined;
  return undefined;
}

/** The native set the compiler knows for a requested one-qubit basis, with its entangler. */
function nativeGates(basis: Set<string>): string[] | undefined {
  const two = basis.has('cz') ? 'cz' : 'cx';
  if (basis.has('rz') && basis.has('ry')) return ['rz', 'ry', two];
  if (basis.has('rx') && basis.has('ry')) return ['rx', 'ry', two];
  if (basis.has('rz') && basis.has('sx')) return ['rz', 'sx', two];
  if (basis.has('u')) return ['u', two];
  return undefined;
}

/** The decomposition's circuit (no measurements), or why it cannot be written in the basis asked. */
export function decompose(task: DecompositionTask): { circuit: Circuit } | { error: string } {
  const columns = targetUnitary(task);
  const n = Math.log2(columns.length);
  const circuit = emptyCircuit();
  addQreg(circuit, 'q', n);
  const basis = task.basis ? new Set(task.basis) : undefined;
  const name = 'name' in task.gate ? task.gate.name : '';
  const recipe = basis && name ? textbook(name, basis) : undefined;
  if (recipe) {
    circuit.ops.push(...recipe);
    return { circuit };
  }
  if (name === 'rzz' && basis?.has('cx') && basis.has('rz') && 'params' in task.gate) {
    circuit.ops.push(gate('cx', [0, 1]), gate('rz', [1], [task.gate.params[0]]), gate('cx', [0, 1]));
    return { circuit };
  }
  // Exact synthesis (u, ry, rz, cx), then the compiler for a one-qubit basis it knows.
  const m = new Float64Array(2 * columns.length * columns.length);
  columns.forEach((col, c) => {
    for (let r = 0; r < columns.length; r++) {
      m[2 * (r * columns.length + c)] = col[2 * r];
      m[2 * (r * columns.length + c) + 1] = col[2 * r + 1];
    }
  });
  const synth = synthesizeUnitary(m);
  circuit.ops.push(...synth.ops);
  circuit.globalPhase = synth.globalPhase;
  if (!basis || (basis.has('1q') && (basis.has('cx') || n === 1))) return { circuit };
  const natives = nativeGates(basis);
  if (natives) {
    const compiled = compileToDevice(
      circuit,
      { numQubits: n, nativeGates: natives, couplingMap: null },
      { initialLayout: Array.from({ length: n }, (_, i) => i) },
    );
    const out = { ...compiled.circuit, ops: compiled.circuit.ops.filter((op) => op.kind === 'gate'), cregs: [], numClbits: 0 };
    return { circuit: out };
  }
  // {rx, rz}: conjugate the ZYZ circuit's RY by RZ(±π/2) into RX (RY(θ) = RZ(π/2)·RX(θ)·RZ(−π/2)).
  if (basis.has('rx') && basis.has('rz') && n === 1) {
    const zyz = compileToDevice(circuit, { numQubits: 1, nativeGates: ['rz', 'ry', 'cx'], couplingMap: null }, { initialLayout: [0] }).circuit;
    const ops: GateOp[] = [];
    for (const op of expandCircuit(zyz).ops) {
      if (op.kind !== 'gate') continue;
      if (op.name === 'ry') ops.push(gate('rz', [0], [-Math.PI / 2]), { ...op, name: 'rx' }, gate('rz', [0], [Math.PI / 2]));
      else ops.push(op);
    }
    return { circuit: { ...zyz, ops, cregs: [], numClbits: 0 } };
  }
  return {
    error: `the basis ${task.basis!.join(', ')} is not one I can compile into offline (I know {rz, ry}, {rx, ry}, {rz, sx}, {u} with cx or cz, and textbook identities)`,
  };
}

/** |Tr(T†U)|/d of the circuit against the target, and the gates it uses outside the basis. */
export function decompositionFidelity(task: DecompositionTask, circuit: Circuit): { fidelity: number; outside: string[] } {
  const target = targetUnitary(task);
  const gates = expandCircuit(circuit).ops.filter((op) => op.kind === 'gate');
  const columns = circuitUnitary({ ...circuit, ops: expandCircuit(circuit).ops.filter((op) => op.kind === 'gate' || op.kind === 'barrier') });
  const d = target.length;
  let re = 0;
  let im = 0;
  for (let c = 0; c < d; c++)
    for (let r = 0; r < d; r++) {
      const [tr, ti] = [target[c][2 * r], target[c][2 * r + 1]];
      const [ur, ui] = [columns[c][2 * r], columns[c][2 * r + 1]];
      re += tr * ur + ti * ui;
      im += tr * ui - ti * ur;
    }
  const basis = task.basis ? new Set(task.basis) : undefined;
  const outside = basis
    ? [
        ...new Set(
          gates
            .map((op) => (op.kind === 'gate' ? (op.controls ? `c${op.name}` : op.name) : ''))
            .filter((g) => !basis.has(g) && !(basis.has('1q') && g !== 'cx' && g !== 'cz' && !g.startsWith('c') && g !== 'swap')),
        ),
      ]
    : [];
  return { fidelity: Math.hypot(re, im) / d, outside };
}
