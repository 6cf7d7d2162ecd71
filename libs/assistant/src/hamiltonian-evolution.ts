/**
 * Hamiltonian requests: time evolution exp(−iHt) of a Pauli sum written in the request
 * ("H = Z0 Z1 + 0.5 (X0 + X1)", "XX + YY + ZZ", "0.5 Z + 0.3 X"), Trotterized (first-order Lie–Trotter,
 * Nielsen & Chuang §4.7.2: each term exp(−i·c·Δt·P) as a basis change, a CX ladder and one RZ), and
 * QAOA for MaxCut (Farhi, Goldstone & Gutmann 2014) on an edge list with given angles (cost layer
 * RZZ(2γ) = exp(−iγ·ZZ) per edge, mixer RX(2β) = exp(−iβ·X) per qubit, from |+…+⟩). The checks use
 * dense matrices computed here from H itself (exp by scaling and squaring of the Taylor series) and
 * the QAOA state from its definition — never the circuit that was built.
 */
import { circuitUnitary, expandCircuit, type Circuit, type GateOp } from '#qdc/circuits';
import { num } from '#qdc/circuits';

export type Pauli = 'X' | 'Y' | 'Z';
export interface PauliTerm {
  coefficient: number;
  /** qubit → Pauli (little-endian qubit numbers). */
  ops: Map<number, Pauli>;
}

export interface EvolutionTask {
  kind: 'evolution';
  terms: PauliTerm[];
  n: number;
  time: number;
  /** Trotter steps; undefined when the request states none (chosen so the product formula is within 1e-3 of exact). */
  steps?: number;
  label: string;
}

export interface QaoaTask {
  kind: 'qaoa';
  n: number;
  edges: [number, number][];
  gammas: number[];
  betas: number[];
}

function angleValue(text: string): number | undefined {
  const t = text.trim().replace(/\s+/g, '').replace('−', '-');
  const m = /^(-)?(\d*\.?\d*)\*?(pi|π)?(?:\/(\d+(?:\.\d+)?))?$/i.exec(t);
  if (!m || (!m[2] && !m[3])) return undefined;
  const v = ((m[2] ? Number(m[2]) : 1) * (m[3] ? Math.PI : 1)) / (m[4] ? Number(m[4]) : 1);
  return Number.isFinite(v) ? (m[1] ? -v : v) : undefined;
}

/** One product of Paulis: "Z0 Z1", "Z0Z1", "X_2", "XX" (indices 0, 1, … when none are written), "Z⊗Z". */
function pauliProduct(text: string): Map<number, Pauli> | undefined {
  const t = text.replace(/[⊗*·\s]/g, '');
  if (!t) return undefined;
  const indexed = [...t.matchAll(/([XYZ])_?\{?(\d+)\}?/g)];
  if (indexed.length && indexed.map((m) => m[0]).join('') === t) {
    const ops = new Map<number, Pauli>();
    for (const m of indexed) {
      const q = Number(m[2]);
      if (ops.has(q)) return undefined;
      ops.set(q, m[1] as Pauli);
    }
    return ops;
  }
  if (/^[XYZ]+$/.test(t)) return new Map([...t].map((p, i) => [i, p as Pauli]));
  return undefined;
}

/** A Pauli sum: terms joined by + / −, each an optional coefficient times a product, and c·(sum) groups. */
export function pauliSum(text: string): PauliTerm[] | undefined {
  const expanded = text.replace(/(\d*\.?\d+)\s*\*?\s*\(([^()]+)\)/g, (_, c: string, inner: string) =>
    inner
      .split(/(?=[+−-])/)
      .map((part) => {
        const sign = /^\s*[−-]/.test(part) ? '-' : '+';
        return `${sign} ${c} ${part.replace(/^\s*[+−-]\s*/, '')}`;
      })
      .join(' '),
  );
  const parts = expanded
    .replace(/([+−-])\s*([+−-])/g, (_, x: string, y: string) => ((x === '+') === (y === '+') ? '+' : '-'))
    .replace(/^\s*/, '+ ')
    .split(/(?=[+−-]\s*(?:\d|[XYZ]))/)
    .map((p) => p.trim())
    .filter(Boolean);
  const terms: PauliTerm[] = [];
  for (const part of parts) {
    const m = /^([+−-])?\s*(\d*\.?\d+)?\s*\*?\s*(.+)$/.exec(part.replace(/^\+\s*\+/, '+'));
    if (!m) return undefined;
    const ops = pauliProduct(m[3]);
    if (!ops) return undefined;
    const c = (m[1] === '-' || m[1] === '−' ? -1 : 1) * (m[2] ? Number(m[2]) : 1);
    terms.push({ coefficient: c, ops });
  }
  return terms.length ? terms : undefined;
}

export function evolutionIn(text: string): EvolutionTask | undefined {
  if (!/\btrotter|\bhamiltonian\b|\btime[\s-]*evolution\b|\bevol(?:ve|ution)\b|\bexp\s*\(\s*[-−]\s*i\s*H/i.test(text)) return undefined;
  const h = /\bH\s*=\s*([^,;:\n]+?)(?=\s+(?:for|and|on|with|in|at)\b|\s*(?:,|;|\.\s|\.$|\(no|$))/i.exec(text);
  if (!h) return undefined;
  const terms = pauliSum(h[1]);
  if (!terms) return undefined;
  const time = /\b(?:t|time)\s*=\s*([-−]?[\d.]+\s*\*?\s*(?:pi|π)?(?:\s*\/\s*\d+)?)/i.exec(text);
  const t = time ? angleValue(time[1]) : undefined;
  if (t === undefined) return undefined;
  const stated = /\b(\d+)\s+(?:trotter\s+)?(?:steps?|slices?)\b/i.exec(text);
  const maxQubit = Math.max(...terms.flatMap((term) => [...term.ops.keys()]));
  const on = /\bon\s+(\d+)\s+qubits?\b|\b(\d+)[\s-]*qubit\b/i.exec(text);
  const n = Math.max(maxQubit + 1, on ? Number(on[1] ?? on[2]) : 0);
  return { kind: 'evolution', terms, n, time: t, ...(stated ? { steps: Number(stated[1]) } : {}), label: `H = ${h[1].trim()}, t = ${time![1].trim()}` };
}

export function qaoaIn(text: string): QaoaTask | { missing: string } | undefined {
  if (!/\bqaoa\b|\bmax[\s-]*cut\b/i.test(text)) return undefined;
  let edges = [...text.matchAll(/\(\s*(\d+)\s*,\s*(\d+)\s*\)|\b(\d+)\s*[-–]\s*(\d+)\b(?!\s*(?:qubit|bit))/g)].map(
    (m) => [Number(m[1] ?? m[3]), Number(m[2] ?? m[4])] as [number, number],
  );
  if (!edges.length && /\btriangle\b/i.test(text))
    edges = [
      [0, 1],
      [1, 2],
      [0, 2],
    ];
  if (!edges.length) return { missing: 'the graph (an edge list such as (0, 1), (1, 2))' };
  const list = (name: string) => {
    const l = new RegExp(`\\b${name}s\\s*=\\s*\\[([^\\]]+)\\]`, 'i').exec(text);
    if (l) return l[1].split(',').map((v) => angleValue(v));
    const one = new RegExp(`(?:\\b${name}|${name === 'gamma' ? 'γ' : 'β'})\\s*=\\s*([-−]?[\\d.]+\\s*\\*?\\s*(?:pi|π)?(?:\\s*\\/\\s*\\d+)?)`, 'i').exec(text);
    return one ? [angleValue(one[1])] : [];
  };
  const gammas = list('gamma');
  const betas = list('beta');
  const p = /\bp\s*=\s*(\d+)/i.exec(text);
  const depth = p ? Number(p[1]) : gammas.length;
  if (!gammas.length || !betas.length || gammas.some((g) => g === undefined) || betas.some((b) => b === undefined))
    return { missing: 'the angles γ and β of each layer' };
  if (gammas.length !== depth || betas.length !== depth) return { missing: `${depth} values of γ and of β (one per layer)` };
  const n = Math.max(...edges.flat()) + 1;
  return { kind: 'qaoa', n, edges, gammas: gammas as number[], betas: betas as number[] };
}

// ---- dense linear algebra (small n), independent of the circuits built ----
type Dense = Float64Array<ArrayBuffer>; // row-major interleaved

function pauliMatrix(n: number, ops: Map<number, Pauli>): Dense {
  const d = 1 << n;
  const m = new Float64Array(2 * d * d);
  for (let col = 0; col < d; col++) {
    let row = col;
    let re = 1;
    let im = 0;
    for (const [q, p] of ops) {
      const bit = (col >> q) & 1;
      if (p === 'X' || p === 'Y') row ^= 1 << q;
      if (p === 'Z' && bit) [re, im] = [-re, -im];
      // Y|0⟩ = i|1⟩, Y|1⟩ = −i|0⟩
      if (p === 'Y') [re, im] = bit ? [im, -re] : [-im, re];
    }
    m[2 * (row * d + col)] = re;
    m[2 * (row * d + col) + 1] = im;
  }
  return m;
}

function matmul(a: Dense, b: Dense, d: number): Dense {
  const out = new Float64Array(2 * d * d);
  for (let i = 0; i < d; i++)
    for (let k = 0; k < d; k++) {
      const ar = a[2 * (i * d + k)];
      const ai = a[2 * (i * d + k) + 1];
      if (!ar && !ai) continue;
      for (let j = 0; j < d; j++) {
        const br = b[2 * (k * d + j)];
        const bi = b[2 * (k * d + j) + 1];
        out[2 * (i * d + j)] += ar * br - ai * bi;
        out[2 * (i * d + j) + 1] += ar * bi + ai * br;
      }
    }
  return out;
}

/** exp(−iHt) for H = Σ c·P (scaling and squaring of the Taylor series). */
export function exactEvolution(terms: PauliTerm[], n: number, t: number): Dense {
  const d = 1 << n;
  const h = new Float64Array(2 * d * d);
  let norm = 0;
  for (const term of terms) {
    const p = pauliMatrix(n, term.ops);
    for (let i = 0; i < h.length; i++) h[i] += term.coefficient * p[i];
    norm += Math.abs(term.coefficient);
  }
  const squarings = Math.max(0, Math.ceil(Math.log2(Math.max(1e-12, norm * Math.abs(t)) * 8)));
  const s = t / 2 ** squarings;
  // a = −i·H·s
  const a = new Float64Array(h.length);
  for (let i = 0; i < h.length; i += 2) {
    a[i] = h[i + 1] * s;
    a[i + 1] = -h[i] * s;
  }
  let sum: Dense = new Float64Array(2 * d * d);
  let term: Dense = new Float64Array(2 * d * d);
  for (let i = 0; i < d; i++) {
    sum[2 * (i * d + i)] = 1;
    term[2 * (i * d + i)] = 1;
  }
  for (let k = 1; k <= 24; k++) {
    term = matmul(term, a, d).map((v) => v / k);
    sum = sum.map((v, i) => v + term[i]);
  }
  for (let i = 0; i < squarings; i++) sum = matmul(sum, sum, d);
  return sum;
}

/** |Tr(T†U)|/d of a circuit (terminal measurements ignored) against a dense target. */
export function unitaryFidelity(circuit: Circuit, target: Dense): number {
  const expanded = expandCircuit(circuit);
  const columns = circuitUnitary({ ...expanded, ops: expanded.ops.filter((op) => op.kind === 'gate') });
  const d = columns.length;
  let re = 0;
  let im = 0;
  for (let c = 0; c < d; c++)
    for (let r = 0; r < d; r++) {
      const tr = target[2 * (r * d + c)];
      const ti = target[2 * (r * d + c) + 1];
      re += tr * columns[c][2 * r] + ti * columns[c][2 * r + 1];
      im += tr * columns[c][2 * r + 1] - ti * columns[c][2 * r];
    }
  return Math.hypot(re, im) / d;
}

const g = (name: string, qubits: number[], params: number[] = []): GateOp => ({ kind: 'gate', name, qubits, params: params.map(num) });

/** exp(−i·θ·P) as gates: basis change to Z, a CX ladder onto the last qubit, RZ(2θ), undone. */
export function pauliRotation(ops: Map<number, Pauli>, theta: number): GateOp[] {
  const qs = [...ops.keys()].sort((a, b) => a - b);
  if (qs.length === 1) {
    const [q] = qs;
    return [g(`r${ops.get(q)!.toLowerCase()}`, [q], [2 * theta])];
  }
  if (qs.length === 2 && ops.get(qs[0]) === ops.get(qs[1])) return [g(`r${ops.get(qs[0])!.toLowerCase().repeat(2)}`, qs, [2 * theta])];
  const into: GateOp[] = [];
  const back: GateOp[] = [];
  for (const q of qs) {
    if (ops.get(q) === 'X') {
      into.push(g('h', [q]));
      back.push(g('h', [q]));
    } else if (ops.get(q) === 'Y') {
      into.push(g('rx', [q], [Math.PI / 2]));
      back.push(g('rx', [q], [-Math.PI / 2]));
    }
  }
  const ladder = qs.slice(0, -1).map((q, i) => g('cx', [q, qs[i + 1]]));
  return [...into, ...ladder, g('rz', [qs.at(-1)!], [2 * theta]), ...[...ladder].reverse(), ...back];
}

const commute = (a: Map<number, Pauli>, b: Map<number, Pauli>) => [...a].filter(([q, p]) => b.has(q) && b.get(q) !== p).length % 2 === 0;

/** The Trotter circuit's gates and the steps used (the stated ones; 1 when all terms commute; else the fewest powers of two within 1e-3 of exact). */
export function trotterCircuit(task: EvolutionTask): { ops: GateOp[]; steps: number; chosen: boolean } {
  const commuting = task.terms.every((a, i) => task.terms.every((b, j) => j <= i || commute(a.ops, b.ops)));
  const build = (steps: number) => {
    const ops: GateOp[] = [];
    const dt = task.time / steps;
    for (let s = 0; s < steps; s++) for (const term of task.terms) ops.push(...pauliRotation(term.ops, term.coefficient * dt));
    return ops;
  };
  if (task.steps !== undefined) return { ops: build(task.steps), steps: task.steps, chosen: false };
  if (commuting) return { ops: build(1), steps: 1, chosen: true };
  const exact = exactEvolution(task.terms, task.n, task.time);
  for (let steps = 2; steps <= 256; steps *= 2) {
    const ops = build(steps);
    const c: Circuit = {
      numQubits: task.n,
      numClbits: 0,
      qregs: [{ name: 'q', size: task.n, offset: 0 }],
      cregs: [],
      definitions: new Map(),
      ops,
      globalPhase: 0,
    };
    if (unitaryFidelity(c, exact) >= 0.999) return { ops, steps, chosen: true };
  }
  return { ops: build(256), steps: 256, chosen: true };
}

/** The QAOA output distribution from its definition (phases of the cut values, then RX(2β) on every qubit). */
export function qaoaDistribution(task: QaoaTask): Record<string, number> {
  const d = 1 << task.n;
  let re = new Float64Array(d).fill(1 / Math.sqrt(d));
  let im = new Float64Array(d);
  for (let layer = 0; layer < task.gammas.length; layer++) {
    for (let i = 0; i < d; i++) {
      let phase = 0;
      for (const [u, v] of task.edges) phase += ((i >> u) & 1) === ((i >> v) & 1) ? -task.gammas[layer] : task.gammas[layer];
      const [c, s] = [Math.cos(phase), Math.sin(phase)];
      [re[i], im[i]] = [re[i] * c - im[i] * s, re[i] * s + im[i] * c];
    }
    const [c, s] = [Math.cos(task.betas[layer]), Math.sin(task.betas[layer])];
    for (let q = 0; q < task.n; q++) {
      const nr = new Float64Array(d);
      const ni = new Float64Array(d);
      for (let i = 0; i < d; i++) {
        const j = i ^ (1 << q);
        // RX(2β) = cos β·I − i sin β·X
        nr[i] = c * re[i] + s * im[j];
        ni[i] = c * im[i] - s * re[j];
      }
      re = nr;
      im = ni;
    }
  }
  const out: Record<string, number> = {};
  for (let i = 0; i < d; i++) {
    const p = re[i] ** 2 + im[i] ** 2;
    if (p > 1e-12) out[i.toString(2).padStart(task.n, '0')] = p;
  }
  return out;
}

export function qaoaOps(task: QaoaTask): GateOp[] {
  const ops: GateOp[] = [];
  for (let q = 0; q < task.n; q++) ops.push(g('h', [q]));
  task.gammas.forEach((gamma, layer) => {
    for (const [u, v] of task.edges) ops.push(g('rzz', [u, v], [2 * gamma]));
    for (let q = 0; q < task.n; q++) ops.push(g('rx', [q], [2 * task.betas[layer]]));
  });
  return ops;
}
