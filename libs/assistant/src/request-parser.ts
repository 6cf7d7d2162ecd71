/**
 * Plain English → a circuit task (or nothing). Rules, not a model: keywords pick the kind, then
 * numbers, bitstrings and state labels in the message fill its parameters, with documented
 * defaults. Bitstrings are read as Qiskit prints counts (qubit 0 rightmost).
 */
import { MAX_OFFLINE_QUBITS, type BellVariant, type CircuitTask, type SingleQubitState } from './circuit-task.js';
import { frameworkIn, type Framework } from './frameworks.js';
import { stateIn } from './state-notation.js';
import { decompositionIn } from './gate-decomposition.js';
import { evolutionIn, qaoaIn } from './hamiltonian-evolution.js';

export interface ParsedRequest {
  task: CircuitTask;
  framework: Framework;
  /** Parameters the request left unstated and the engine chose, said in the answer ("marked state 111"). */
  assumptions: string[];
}

/**
 * Only the start of a message is read: circuit requests are short, and some patterns here are
 * super-linear on pathological input (a megabyte of digits), so the cost stays bounded.
 */
export const MAX_REQUEST_CHARS = 2_000;
const head = (text: string): string => text.slice(0, MAX_REQUEST_CHARS);

/** A request the engine recognised but cannot build as asked (too large, inconsistent). */
export class UnsupportedRequest extends Error {}

/** A request that names several constructs, or one the offline engine does not build: the answer asks instead of guessing. */
export class ClarificationNeeded extends Error {}

/**
 * Constructs a request can name. The offline engine builds one per answer: two of them (other than
 * a building block of the other, like the Bell pair of teleportation) or one it does not build is
 * asked about rather than answered with the template of one keyword.
 */
const CONSTRUCTS: [RegExp, string][] = [
  [/\bgrover\b|\bamplitude amplification\b/i, 'Grover search'],
  [/\bdeutsch\b|\bdj\b/i, 'Deutsch–Jozsa'],
  [/\bbernstein[\s–-]*vazirani\b|\bbv\b/i, 'Bernstein–Vazirani'],
  [/\bphase estimation\b|\bqpe\b/i, 'phase estimation'],
  [/\bteleport/i, 'teleportation'],
  [/\bsuper\s*-?dense\b|\bdense coding\b/i, 'superdense coding'],
  [/\badder\b|\bripple[\s-]*carry\b/i, 'an adder'],
  [/\bswap[\s-]*test\b/i, 'a swap test'],
  [/\brepetition code\b|\b(bit|phase)[\s-]*flip code\b/i, 'a repetition code'],
  [/\bansatz\b|\bhardware[\s-]*efficient\b/i, 'an ansatz'],
  [/\bsimon'?s?\b/i, "Simon's algorithm"],
  [/\bhadamard[\s-]*test\b/i, 'the Hadamard test'],
  [/\bchsh\b|\bbell[\s-]*(test|inequality)\b/i, 'a CHSH / Bell test'],
];
/** Words that make a request a decomposition (gate-decomposition.ts reads the target and basis). */
const DECOMPOSITION_CUE =
  /\bdecompos|\bimplements? the (unitary|matrix)\b|\bunitary\s*(matrix\s*)?[[(]|\busing only\b|\bonly (?:from |with )?(?:[A-Za-z]+,\s*)*[A-Za-z]+ (?:and|or) [A-Za-z]+ gates\b|\b(?:as|from) (?:three|3) cnots\b|\bout of [A-Za-z-]+ and [A-Za-z-]+ gates\b|\bwith cnots? and\b|\bexpress\b/i;

const NOT_BUILT_OFFLINE: [RegExp, string][] = [
  [/\bqaoa\b|\bmax[\s-]*cut\b/i, 'QAOA'],
  [/\btrotter|\bhamiltonian\b|\btime[\s-]*evolution\b|\bexp\s*\(\s*[-−]\s*i/i, 'Hamiltonian time evolution'],
  [
    /\bdecompos|\bimplements? the (unitary|matrix)\b|\bunitary\s*(matrix\s*)?[[(]|\busing only\b|\bonly (?:from |with )?(?:[A-Za-z]+,\s*)*[A-Za-z]+ (?:and|or) [A-Za-z]+ gates\b|\b(?:as|from) (?:three|3) cnots\b|\bout of [A-Za-z-]+ and [A-Za-z-]+ gates\b/i,
    'a gate decomposition',
  ],
  [/\bvqe\b|\bvariational quantum eigensolver\b/i, 'VQE'],
  [/\bhhl\b|\bshor'?s\b|\bquantum counting\b/i, 'this algorithm'],
  [
    /\bsuperposition of\s+[|]|[|][^|⟩>\n]*[⟩>]\s*[+−-]\s*[^|\n]*[|][^|⟩>\n]*[⟩>]|\bamplitudes?\b(?!\s+amplification)|\bsqrt\s*\(|√|\bcos\s*\(|\be\^\{?i/i,
    'a state given by its amplitudes',
  ],
];

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
};

const KIND_PATTERNS: [RegExp, CircuitTask['kind']][] = [
  [/\bbernstein[\s–-]*vazirani\b|\bbv\b/i, 'bernstein-vazirani'],
  [/\bdeutsch(?:[\s–-]*jozsa)?\b|\bdj\b/i, 'deutsch-jozsa'],
  [
    /\bgrover\b|\bamplitude amplification\b|\bsearch(?:es|ing)? for\s+(?:the\s+)?(?:marked\s+)?(?:(?:states?|items?|bitstrings?|strings?)\s+)?\|?[01]{2,}/i,
    'grover',
  ],
  [/\bphase estimation\b|\bqpe\b|\bestimat(?:e|ing) the phase\b/i, 'phase-estimation'],
  [/\bteleport/i, 'teleportation'],
  [/\bsuper\s*-?dense\b|\bdense coding\b/i, 'superdense'],
  [/\badder\b|\baddition\b|\badds?\b\s+\d|\bripple[\s-]*carry\b|\bsum of\b/i, 'adder'],
  [/\bswap[\s-]*test\b/i, 'swap-test'],
  [/\bsimon'?s?\b/i, 'simon'],
  [/\bhadamard[\s-]*test\b/i, 'hadamard-test'],
  [/\bchsh\b|\bbell[\s-]*(?:test|inequality)\b/i, 'chsh'],
  [/\brepetition code\b|\b(bit|phase)[\s-]*flip code\b|\bthree[\s-]*qubit code\b/i, 'repetition'],
  [/\bansatz\b|\bhardware[\s-]*efficient\b|\bvariational (form|circuit)\b/i, 'ansatz'],
  [/\b(inverse|inv\.?)\s+(quantum\s+)?fourier\b|\binverse qft\b|\biqft\b|\bqft\s*(†|dagger|inverse)/i, 'qft'],
  [/\bqft\b|\bfourier transform\b/i, 'qft'],
  [/\bghz\b|\bgreenberger\b|\bcat state\b/i, 'ghz'],
  [/\bw[\s-]*state\b|\bw\s+states?\b/i, 'w'],
  [/\bbell\b|\bepr pair\b|\bsinglet\b|\b[|]?(phi|psi|Φ|Ψ)\s*[+−-]/i, 'bell'],
  [/\b(uniform|equal)\s+superposition\b|\bhadamards? on (all|every|each)\b|\ball\s+(possible\s+)?(bit)?strings\b/i, 'uniform'],
  [/\bbasis state\b|\bcomputational basis\b|\bprepare\s+(the\s+state\s+)?\|?[01]+\s*[⟩>]|\bstate\s+\|[01]+\s*[⟩>]/i, 'basis'],
];

/** Verbs and nouns that make a message a request for code rather than a question about a concept. */
const BUILD_INTENT =
  /\b(build|make|create|write|generate|construct|prepare|implement|decompose|express|trotteri[sz]e|give me|show me|code|circuit|program|sketch|produce|design|encode|simulate|run|demonstrate|teleport|send|search for|find|add|compute|estimate the phase|in (qiskit|cirq|pennylane|braket|qasm|openqasm))\b/i;
const CONCEPT_QUESTION = /^\s*(what|why|how does|how do|explain|define|describe|tell me about|what's|whats)\b/i;

export function detectKind(text: string): CircuitTask['kind'] | undefined {
  text = head(text);
  for (const [re, kind] of KIND_PATTERNS) if (re.test(text)) return kind;
  return undefined;
}

/** True when the message asks for a circuit (not a concept explanation). */
export function wantsCircuit(text: string): boolean {
  text = head(text);
  if (!detectKind(text) && !stateIn(text, false) && !(DECOMPOSITION_CUE.test(text) && decompositionIn(text)) && !qaoaIn(text) && !evolutionIn(text))
    return false;
  if (CONCEPT_QUESTION.test(text) && !/\b(circuit|code|qiskit|cirq|pennylane|braket|qasm)\b/i.test(text)) return false;
  // An instruction to measure ("…; measure qubit 0"), or a construct with its parameters ("Simon's algorithm with secret 101"), is a request too.
  return BUILD_INTENT.test(text) || frameworkIn(text) !== undefined || /\bmeasure\b/i.test(text) || /\d|[|][^|\n]+[⟩>]/.test(text);
}

/** The qubit count a message states ("5-qubit", "on 5 qubits", "n = 5", "five qubits"). */
export function qubitCount(text: string): number | undefined {
  text = head(text);
  const word = Object.keys(NUMBER_WORDS).join('|');
  const patterns = [
    new RegExp(`\\b(\\d+|${word})[\\s-]*(?:query|input|data|search)\\s+qubits?\\b`, 'i'),
    new RegExp(`\\b(\\d+|${word})[\\s-]*(?:qubits?|qbits?|q\\b|-qubit)`, 'i'),
    // "5 line qubits", "4 LineQubits", "3 physical qubits": one word between the count and "qubits".
    new RegExp(`\\b(\\d+|${word})\\s+(?:line|physical|logical|grid)[\\s-]*qubits?\\b`, 'i'),
    /\bn\s*=\s*(\d+)\b/i,
    /\bsize\s*(?:of\s*)?(\d+)\b/i,
    new RegExp(`\\b(?:with|on|of|over|for)\\s+(\\d+|${word})\\s+(?:qubits?|wires?|bits?)\\b`, 'i'),
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (m) return toNumber(m[1]);
  }
  return undefined;
}

function toNumber(s: string): number {
  const lower = s.toLowerCase();
  return NUMBER_WORDS[lower] ?? Number(lower);
}

/** Bitstrings in a message: `101`, `|101⟩`, `'0110'`; not numbers that are qubit counts. */
export function bitstrings(text: string): string[] {
  const out: string[] = [];
  const re = /(?:\|\s*([01]+)\s*[⟩>]|(?<![\w.])([01]{2,})(?![\w.]))/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const s = m[1] ?? m[2];
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 8);
    if (m[2] && /^\s*[-]?\s*(qubits?|qbits?|bits? adder|layers?)/i.test(after)) continue;
    out.push(s);
  }
  return out;
}

function singleState(token: string | undefined): SingleQubitState | undefined {
  if (!token) return undefined;
  const t = token.replace(/[|⟩>\s]/g, '').toLowerCase();
  if (t === '0' || t === 'zero') return '0';
  if (t === '1' || t === 'one') return '1';
  if (t === '+' || t === 'plus') return '+';
  if (t === '-' || t === '−' || t === 'minus') return '-';
  return undefined;
}

function singleStates(text: string): SingleQubitState[] {
  const out: SingleQubitState[] = [];
  const re = /\|\s*([01+\-−])\s*[⟩>]|\b(plus|minus|zero|one)\s+state\b/gi;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const s = singleState(m[1] ?? m[2]);
    if (s) out.push(s);
  }
  return out;
}

function checkQubits(n: number, what: string): void {
  if (!Number.isInteger(n) || n < 1) throw new UnsupportedRequest(`${what} needs a positive whole number of qubits; got ${n}`);
  if (n > MAX_OFFLINE_QUBITS)
    throw new UnsupportedRequest(`the offline engine builds and simulates circuits of up to ${MAX_OFFLINE_QUBITS} qubits; ${what} would need ${n}`);
}

/** A phase given as 0.25, 1/8, "pi/4" (→ 1/8 of a turn) or "0.3". */
function phaseIn(text: string): number | undefined {
  const frac = /\b(?:phase|phi|φ|theta|θ|of)\s*(?:=|of|is)?\s*(\d+)\s*\/\s*(\d+)\b/i.exec(text) ?? /\b(\d+)\s*\/\s*(\d+)\b/.exec(text);
  if (frac) return Number(frac[1]) / Number(frac[2]);
  const pi = /\b(\d*\.?\d*)\s*\*?\s*(?:pi|π)\s*(?:\/\s*(\d+))?/i.exec(text);
  if (pi && /(pi|π)/i.test(pi[0])) {
    const k = pi[1] ? Number(pi[1]) : 1;
    const d = pi[2] ? Number(pi[2]) : 1;
    return (k * Math.PI) / d / (2 * Math.PI);
  }
  const dec = /\b(0?\.\d+)\b/.exec(text);
  if (dec) return Number(dec[1]);
  return undefined;
}

export function parseRequest(text: string): ParsedRequest | undefined {
  text = head(text);
  const detected = detectKind(text);
  const framework = frameworkIn(text) ?? 'qiskit';
  // QAOA MaxCut with its graph and angles; time evolution of a Pauli sum.
  const qaoa = qaoaIn(text);
  if (qaoa) {
    const others = CONSTRUCTS.filter(([re]) => re.test(text)).map(([, what]) => what);
    if (others.length)
      throw new ClarificationNeeded(
        `the request names QAOA and ${others.join(' and ')}; I build one construct per answer offline. Which one should I write, and how are they connected?`,
      );
    if ('missing' in qaoa) throw new ClarificationNeeded(`QAOA needs ${qaoa.missing}; which values should I use?`);
    checkQubits(qaoa.n, 'this QAOA circuit');
    const convention = /rzz\s*\(\s*2\s*[*·]?\s*(?:γ|gamma)|exp\s*\(\s*[-−]\s*i\s*(?:γ|gamma)/i.test(text)
      ? []
      : ['cost layers RZZ(2γ) = exp(−iγ·Z⊗Z) per edge and mixers RX(2β) per qubit'];
    return { task: qaoa, framework, assumptions: convention };
  }
  const evolution = evolutionIn(text);
  if (evolution) {
    checkQubits(evolution.n, 'this evolution');
    return { task: evolution, framework, assumptions: [] };
  }
  // A gate or matrix to decompose, with the basis named.
  const decomposition = DECOMPOSITION_CUE.test(text) ? decompositionIn(text) : undefined;
  if (decomposition) {
    const others = CONSTRUCTS.filter(([re]) => re.test(text)).map(([, what]) => what);
    if (others.length) throw new ClarificationNeeded(`the request asks for a gate decomposition and ${others.join(' and ')}; which one should I write?`);
    return { task: decomposition, framework, assumptions: decomposition.basis ? [] : ['any gate set (no basis was named)'] };
  }
  // A state written out (Dirac sum, amplitude list, listed kets, per-qubit states) is prepared as written.
  const state = detected === undefined || detected === 'uniform' || detected === 'basis' ? stateIn(text, framework === 'cirq') : undefined;
  if (state) {
    checkConstructs(text, 'state');
    const n = Math.log2(state.amplitudes.length);
    checkQubits(n, 'this state');
    return { task: { kind: 'state', amplitudes: state.amplitudes, label: state.label }, framework, assumptions: [] };
  }
  const kind = detected;
  if (!kind) return undefined;
  checkConstructs(text, kind);
  const assumptions: string[] = [];
  const assume = (what: string) => assumptions.push(what);
  const n = qubitCount(text);
  // Cirq writes kets and measurement arrays with qubit 0 first; the engine's bitstrings put qubit 0 last (as Qiskit prints counts).
  const bits = bitstrings(text).map((b) => (framework === 'cirq' ? [...b].reverse().join('') : b));
  let task: CircuitTask;
  switch (kind) {
    case 'bell': {
      const variant = bellVariant(text);
      task = { kind, variant };
      break;
    }
    case 'ghz':
    case 'w':
    case 'uniform': {
      const size = n ?? 3;
      if (n === undefined) assume(`${size} qubits (no size was given)`);
      checkQubits(size, `a ${kind === 'ghz' ? 'GHZ' : kind === 'w' ? 'W' : 'uniform'} state`);
      if (size < 2 && kind !== 'uniform') throw new UnsupportedRequest(`a ${kind === 'ghz' ? 'GHZ' : 'W'} state needs at least 2 qubits; got ${size}`);
      task = { kind, n: size };
      break;
    }
    case 'basis': {
      const b = bits[0] ?? /\|\s*([01])\s*[⟩>]/.exec(text)?.[1];
      if (!b) throw new UnsupportedRequest('which basis state? write it as a bitstring, e.g. |0110⟩ (qubit 0 is the rightmost character)');
      checkQubits(b.length, `the basis state |${b}⟩`);
      task = { kind, bits: b };
      break;
    }
    case 'qft': {
      const inverse = /\b(inverse|inv\.?)\b|\biqft\b|†|dagger/i.test(text);
      const size = n ?? bits[0]?.length ?? 3;
      if (n === undefined && !bits[0]) assume(`${size} qubits (no size was given)`);
      checkQubits(size, 'the QFT');
      const input = bits[0] ? parseInt(bits[0], 2) % (1 << size) : inverse ? Math.min(5, (1 << size) - 1) : Math.min(1, (1 << size) - 1);
      if (!bits[0]) assume(`the input state |${input.toString(2).padStart(size, '0')}⟩ (qubit 0 rightmost)`);
      task = { kind, n: size, inverse, input };
      break;
    }
    case 'grover': {
      const marked = bits.length ? bits : [];
      const size = n ?? marked[0]?.length ?? 3;
      if (!marked.length) {
        marked.push('1'.repeat(size));
        assume(`the marked state |${'1'.repeat(size)}⟩ (no marked state was given)`);
      }
      if (size < 2) throw new UnsupportedRequest('Grover search needs at least 2 qubits');
      checkQubits(size, 'this Grover search');
      const padded = [...new Set(marked.map((m) => m.padStart(size, '0')))];
      if (padded.some((m) => m.length !== size))
        throw new UnsupportedRequest(`the marked bitstrings (${marked.join(', ')}) are longer than the ${size} qubits asked for`);
      if (padded.length * 2 > 1 << size)
        throw new UnsupportedRequest(`Grover search amplifies a minority of states; ${padded.length} marked out of ${1 << size} is too many`);
      const iterations = iterationsIn(text);
      task = iterations === undefined ? { kind, n: size, marked: padded } : { kind, n: size, marked: padded, iterations };
      break;
    }
    case 'deutsch-jozsa': {
      const constant = /\bconstant\b/i.test(text);
      if (!constant && !/\bbalanced\b/i.test(text)) assume('a balanced oracle (the request did not say constant or balanced)');
      const one = /\bconstant\s*(?:(?:one|1)\b|\(\s*1\s*\))|\bf\s*\(\s*x\s*\)\s*=\s*1\b|\balways (?:returns? )?(?:one|1)\b/i.test(text);
      const size0 = n ?? bits[0]?.length ?? 3;
      const mask = bits[0] ?? inputMask(text, size0);
      const size = n ?? mask?.length ?? 3;
      checkQubits(size + 1, 'this Deutsch–Jozsa circuit (inputs + 1 ancilla)');
      if (constant) task = { kind, n: size, oracle: one ? 'constant-1' : 'constant-0', mask: '0'.repeat(size) };
      else {
        const m = (mask ?? '1'.repeat(size)).padStart(size, '0');
        if (!mask && !xorOfAllInputs(text)) assume(`the balanced oracle f(x) = s·x with s = ${m}`);
        if (!/1/.test(m)) throw new UnsupportedRequest('a balanced oracle f(x) = s·x needs a non-zero s');
        task = { kind, n: m.length, oracle: 'balanced', mask: m };
      }
      break;
    }
    case 'bernstein-vazirani': {
      const secret = bits[0] ?? (n ? '1'.repeat(n) : '101');
      if (!bits[0]) assume(`the secret string ${secret} (none was given)`);
      checkQubits(secret.length + 1, 'this Bernstein–Vazirani circuit (secret + 1 ancilla)');
      task = { kind, secret };
      break;
    }
    case 'phase-estimation': {
      const gate = namedPhaseGate(text);
      const stated = gate ? gate.phase : phaseIn(text.replace(/\b\d+[\s-]*(counting\s+)?qubits?\b|\bqubits?\s*\(?\s*\d+\s*[-–]\s*\d+\s*\)?|\bq\d+\b/gi, ''));
      const phase = stated ?? 0.25;
      if (stated === undefined) assume('U = P(2π·0.25) with eigenstate |1⟩ (no unitary or phase was given)');
      if (gate?.assumption) assume(gate.assumption);
      if (!(phase >= 0 && phase < 1)) throw new UnsupportedRequest(`the phase is a fraction of a full turn in [0, 1); got ${phase}`);
      const word = Object.keys(NUMBER_WORDS).join('|');
      const counting =
        new RegExp(`\\b(\\d+|${word}|single|a)\\s*(?:counting|precision|ancilla|estimation)\\s*(?:qubits?|bits?)`, 'i').exec(text) ??
        /\b(\d+)\s*bits? of precision\b/i.exec(text);
      const countingValue = counting ? (/^(single|a)$/i.test(counting[1]) ? 1 : toNumber(counting[1])) : undefined;
      let precision = countingValue ?? (n ? n : 0);
      if (!precision) {
        precision = 3;
        while (precision < 8 && Math.abs(phase * 2 ** precision - Math.round(phase * 2 ** precision)) > 1e-9) precision++;
      }
      checkQubits(precision + 1, 'this phase estimation');
      task = gate ? { kind, phase, precision, gate: gate.gate } : { kind, phase, precision };
      break;
    }
    case 'teleportation': {
      const s = singleStates(text)[0];
      const angle = /\b(?:ry|theta|θ|angle)\s*(?:=|of)?\s*\(?\s*(\d*\.?\d+)\s*\)?/i.exec(text);
      const ry = /\bry\s*\(\s*([^)]*)\)/i.exec(text);
      const ryAngle = ry ? angleIn(ry[1]) : undefined;
      if (!s && ryAngle === undefined && !angle) assume('the state RY(π/3)|0⟩ (no state to teleport was given)');
      task = { kind, state: ryAngle ?? s ?? (angle ? Number(angle[1]) : Math.PI / 3) };
      break;
    }
    case 'superdense': {
      const m = bits.find((b) => b.length === 2) ?? (/\b(?:message|bits?)\s+([01])\s*,?\s*([01])\b/i.exec(text)?.slice(1, 3).join('') || '11');
      if (!bits.find((b) => b.length === 2) && !/\b(?:message|bits?)\s+([01])\s*,?\s*([01])\b/i.test(text)) assume('the message 11 (none was given)');
      task = { kind, message: m };
      break;
    }
    case 'adder': {
      const nums = [...text.matchAll(/(?<![\w.|])(\d+)(?![\w.]|\s*-?\s*(?:qubits?|bits?))/g)].map((x) => Number(x[1]));
      const binary = /\bbinary\b/i.test(text) || bits.length >= 2;
      const [a, b] = binary && bits.length >= 2 ? [parseInt(bits[0], 2), parseInt(bits[1], 2)] : nums.length >= 2 ? [nums[0], nums[1]] : [3, 5];
      if (!(binary && bits.length >= 2) && nums.length < 2) assume('the inputs 3 and 5 (no numbers were given)');
      const widthMatch = /\b(\d+)[\s-]*bits?\b/i.exec(text);
      const needed = Math.max(1, Math.ceil(Math.log2(Math.max(a, b) + 1)));
      // "the 3-bit sum" names the output (inputs one bit narrower); "a 3-bit adder" the inputs.
      const sumWidth = /\b(\d+)[\s-]*bits?\s+sum\b/i.exec(text);
      const width = sumWidth ? Number(sumWidth[1]) - 1 : widthMatch ? Number(widthMatch[1]) : needed;
      if (width < needed) throw new UnsupportedRequest(`${Math.max(a, b)} does not fit in ${width} bits`);
      checkQubits(2 * width + 2, `a ${width}-bit ripple-carry adder (2n + 2 qubits)`);
      task = { kind, n: width, a, b };
      break;
    }
    case 'swap-test': {
      const states = singleStates(text);
      if (states.length < 2) assume(`the states |${states[0] ?? '0'}⟩ and |${states[1] ?? '+'}⟩ (${states.length ? 'one state was' : 'no states were'} given)`);
      task = { kind, left: states[0] ?? '0', right: states[1] ?? '+' };
      break;
    }
    case 'repetition': {
      const flavor = /\bphase[\s-]*flip\b|\bz\s+error\b|\bphase error\b/i.test(text) ? 'phase-flip' : 'bit-flip';
      const dm = /\bdistance[\s-]*(?:of\s*)?(\d+)\b|\bd\s*=\s*(\d+)\b|\b(\d+)[\s-]*(?:qubit|bit)\s+(?:repetition|bit[\s-]*flip|phase[\s-]*flip)/i.exec(text);
      const distance = dm ? Number(dm[1] ?? dm[2] ?? dm[3]) : 3;
      if (distance < 3 || distance % 2 === 0) throw new UnsupportedRequest(`a repetition code corrects errors at odd distance ≥ 3; got ${distance}`);
      checkQubits(2 * distance - 1, `a distance-${distance} repetition code (d data + d−1 ancilla qubits)`);
      const noError = /\b(no|without)\s+(an?\s+)?errors?\b/i.test(text);
      const em = /\berror\s+(?:on|in|at)\s+(?:qubit\s*)?(?:q\s*)?(\d+)\b|\bqubit\s*(\d+)\s+(?:flipped|has an error)/i.exec(text);
      const errorQubit = noError ? null : em ? Number(em[1] ?? em[2]) : 1;
      if (!noError && !em) assume('an error on qubit 1 (none was placed)');
      if (errorQubit !== null && errorQubit >= distance)
        throw new UnsupportedRequest(`the data qubits are 0…${distance - 1}; an error on qubit ${errorQubit} is outside the code`);
      const logical = /\bencod(?:e|es|ing)\s+(?:the\s+)?(?:logical\s+)?[|]\s*0\s*[⟩>]|\blogical\s+[|]?0\b/i.test(text) ? 0 : 1;
      task = { kind, flavor, distance, errorQubit, logical };
      break;
    }
    case 'ansatz': {
      const lm = /\b(\d+|one|two|three|four|five|six)\s*(?:layers?|reps?|repetitions?|depth)\b|\b(?:layers?|reps|depth)\s*(?:=|of)?\s*(\d+)\b/i.exec(text);
      const layers = lm ? toNumber(lm[1] ?? lm[2]) : 2;
      const size = n ?? 4;
      if (n === undefined) assume('4 qubits');
      if (!lm) assume('2 layers');
      checkQubits(size, 'this ansatz');
      if (layers < 1 || layers > 20) throw new UnsupportedRequest(`layers must be between 1 and 20; got ${layers}`);
      task = { kind, n: size, layers };
      break;
    }
    case 'state':
    case 'decomposition':
    case 'evolution':
    case 'qaoa':
      // Read by stateIn / decompositionIn above; detectKind never answers these.
      return undefined;
    case 'simon': {
      const s0 = bits[0];
      if (!s0) throw new ClarificationNeeded("Simon's algorithm needs the secret string s (e.g. s = 110); which one?");
      if (!/1/.test(s0)) throw new UnsupportedRequest("Simon's secret must be non-zero (s = 0…0 makes f one-to-one)");
      checkQubits(2 * s0.length, `Simon's algorithm for a ${s0.length}-bit secret (2n qubits)`);
      task = { kind, secret: s0 };
      break;
    }
    case 'hadamard-test': {
      const g = /\bU\s*=\s*(?:the\s+)?(?:pauli[\s-]*)?([XYZHST])\b|\b(?:pauli[\s-]*)?([XYZHST])(?:[\s-]*gate)?\s+on\b|[⟨<]\s*ψ\s*[|]\s*([XYZHST])\s*[|]/.exec(
        text,
      );
      if (!g) throw new ClarificationNeeded('the Hadamard test needs the unitary U (X, Y, Z, H, S or T offline) and the input state; which ones?');
      const gate = (g[1] ?? g[2] ?? g[3]).toLowerCase() as 'x' | 'y' | 'z' | 'h' | 's' | 't';
      const input =
        /[|]\s*ψ\s*[⟩>]\s*=\s*[|]\s*([01+\-−])\s*[⟩>]/.exec(text)?.[1] ??
        /\binput(?:\s+state)?\s+[|]\s*([01+\-−])\s*[⟩>]/i.exec(text)?.[1] ??
        singleStates(text)[0];
      if (input === undefined) assume('the input state |0⟩ (none was given)');
      const part = /\bimaginary\b|\bIm\b/.test(text) ? 'imaginary' : 'real';
      task = { kind, gate, input: singleState(input ?? '0') ?? '0', part };
      break;
    }
    case 'chsh': {
      const angles = [...text.matchAll(/\bangle\s*(?:of\s*|θ\s*=\s*|=\s*)?([-−]?\s*[\d.]*\s*\*?\s*(?:pi|π)?\s*(?:\/\s*\d+)?)/gi)]
        .map((m) => angleIn(m[1].replace('−', '-')))
        .filter((v): v is number => v !== undefined);
      if (angles.length < 2) assume('the CHSH settings a = 0 on qubit 0 and b = π/4 on qubit 1');
      task = { kind, a: angles.length >= 2 ? angles[0] : 0, b: angles.length >= 2 ? angles[1] : Math.PI / 4 };
      break;
    }
  }
  return { task, framework, assumptions };
}

/**
 * For a request to build something no offline kind matches: the constructs it names that the
 * engine does not build (an honest question beats the generic note).
 */
export function unbuiltConstructs(text: string): string[] {
  text = head(text);
  if (!BUILD_INTENT.test(text) && frameworkIn(text) === undefined) return [];
  return NOT_BUILT_OFFLINE.filter(([re]) => re.test(text)).map(([, what]) => what);
}

/** The construct checks of parseRequest: one construct the engine builds, or a question. */
function checkConstructs(text: string, kind: CircuitTask['kind']): void {
  const namedState = kind === 'bell' || kind === 'ghz' || kind === 'w' || kind === 'state';
  const notBuilt = NOT_BUILT_OFFLINE.filter(([re, what]) => re.test(text) && !(namedState && what === 'a state given by its amplitudes')).map(
    ([, what]) => what,
  );
  const named = CONSTRUCTS.filter(([re]) => re.test(text)).map(([, what]) => what);
  if (notBuilt.length) {
    throw new ClarificationNeeded(
      `the request asks for ${[...new Set([...notBuilt, ...named])].join(' and ')}; offline I build ${notBuilt.length > 1 || named.length ? 'one construct per answer and not all of these' : 'none of that yet'}, and I will not answer with a different circuit that shares a keyword. Could you split the request, or connect a language model (QDC_LLM_BASE_URL)?`,
    );
  }
  const extra =
    /\b(?:and\s+)?then\s+(?:apply|add|rotate|measure\s+(?:it\s+)?in)\b|\bafterwards?\s+apply\b|\bfollowed by (?:an?\s+)?[A-Za-z]+ (?:gate|rotation)\b/i.exec(
      text,
    );
  if (extra) {
    throw new ClarificationNeeded(
      `the request adds a step after the ${named[0] ?? kind} ("${extra[0].trim()}…") that I do not build offline, and I will not send the circuit without it. Could you ask for the ${named[0] ?? kind} alone, or connect a language model (QDC_LLM_BASE_URL)?`,
    );
  }
  if (named.length > 1) {
    throw new ClarificationNeeded(
      `the request names ${named.join(' and ')}; I build one construct per answer offline. Which one should I write, with which parameters (or how should the two be connected)?`,
    );
  }
}

/** "2 iterations", "a single Grover iteration", "iterate 3 times", "iterations (3)". */
function iterationsIn(text: string): number | undefined {
  const word = Object.keys(NUMBER_WORDS).join('|');
  const m =
    new RegExp(`\\b(\\d+|${word}|single|a)\\s+(?:grover\\s+)?(?:iterations?|rounds?|steps?)\\b`, 'i').exec(text) ??
    /\biterat(?:e|ions?)\s*(?:\(|=|:)?\s*(\d+)\b/i.exec(text) ??
    /\biterate\s+(\d+)\s+times\b/i.exec(text);
  if (!m) return undefined;
  const w = m[1].toLowerCase();
  const v = w === 'single' || w === 'a' ? 1 : toNumber(w);
  return Number.isInteger(v) && v >= 1 && v <= 64 ? v : undefined;
}

/** f(x) = x_0, x0 ⊕ x2, …: the mask s of f(x) = s·x (qubit 0 rightmost), when the request writes f that way. */
function inputMask(text: string, size: number): string | undefined {
  const f = /\bf\s*\(\s*x\s*\)\s*=\s*((?:x_?\{?\d+\}?\s*(?:⊕|xor|\^|\+)?\s*)+)/i.exec(text);
  if (!f) return undefined;
  const indices = [...f[1].matchAll(/x_?\{?(\d+)/gi)].map((m) => Number(m[1]));
  if (!indices.length || indices.some((i) => i >= size)) return undefined;
  return Array.from({ length: size }, (_, q) => (indices.includes(size - 1 - q) ? '1' : '0')).join('');
}

/** f(x) = x0 ⊕ x1 ⊕ … : the all-ones mask. */
function xorOfAllInputs(text: string): boolean {
  return /x_?0\s*(⊕|xor|\^|\+)\s*x_?1/i.test(text);
}

/** Phase estimation of a gate named in the request: T (1/8), S (1/4), Z (1/2), Pauli X on |−⟩ (1/2) or |+⟩ (0). */
function namedPhaseGate(text: string): { gate: 'x' | 'z' | 's' | 't'; phase: number; assumption?: string } | undefined {
  if (/\bT[\s-]*gate\b|\bof (?:the )?T\b|\bU\s*=\s*T\b/.test(text)) return { gate: 't', phase: 1 / 8 };
  if (/\bS[\s-]*gate\b|\bof (?:the )?S\b|\bU\s*=\s*S\b/.test(text)) return { gate: 's', phase: 1 / 4 };
  if (/\bZ[\s-]*gate\b|\bpauli[\s-]*z\b|\bU\s*=\s*Z\b/i.test(text)) return { gate: 'z', phase: 1 / 2 };
  if (/\bX[\s-]*gate\b|\bpauli[\s-]*x\b|\bU\s*=\s*X\b/i.test(text)) {
    if (/[|]\s*(?:[-−]|minus)\s*[⟩>]|\bminus\b/i.test(text)) return { gate: 'x', phase: 1 / 2 };
    if (/[|]\s*\+\s*[⟩>]|\bplus\b/i.test(text)) return { gate: 'x', phase: 0 };
    return { gate: 'x', phase: 1 / 2, assumption: 'the eigenvector |−⟩ of X (eigenvalue −1, φ = 1/2); on |+⟩ the phase is 0' };
  }
  return undefined;
}

/** An angle written as 0.7, pi/3, π/4, 2*pi/3. */
function angleIn(text: string): number | undefined {
  const t = text.trim().replace(/\s+/g, '');
  const m = /^(-)?(\d*\.?\d*)\*?(pi|π)?(?:\/(\d+(?:\.\d+)?))?$/i.exec(t);
  if (!m || (!m[2] && !m[3])) return undefined;
  const k = m[2] ? Number(m[2]) : 1;
  const v = (k * (m[3] ? Math.PI : 1)) / (m[4] ? Number(m[4]) : 1);
  return Number.isFinite(v) ? (m[1] ? -v : v) : undefined;
}

function bellVariant(text: string): BellVariant {
  const m = /(phi|psi|Φ|Ψ|φ|ψ)\s*(?:\^)?\s*([+−-]|plus|minus)/i.exec(text);
  if (m) {
    const which = /phi|Φ|φ/i.test(m[1]) ? 'phi' : 'psi';
    const sign = /[-−]|minus/i.test(m[2]) ? '-' : '+';
    return `${which}${sign}` as BellVariant;
  }
  if (/\b01\b.*\b10\b|\bsinglet\b/i.test(text)) return /\bsinglet\b|−|minus/i.test(text) ? 'psi-' : 'psi+';
  return 'phi+';
}
