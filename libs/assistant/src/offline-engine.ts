/**
 * The assistant without a language model: circuits for the request kinds of request-parser.ts,
 * synthesised deterministically and verified by the simulator; concept answers retrieved from
 * the knowledge base with their section cited; an honest note for anything else.
 */
import { emitCircuit, parseCircuit, type Circuit } from '#qdc/circuits';
import { CIRCUIT_KINDS, type CircuitKind } from './circuit-task.js';
import { synthesize } from './circuit-synthesis.js';
import { FIDELITY_THRESHOLD, checkableSource, verifyCircuit } from './circuit-verification.js';
import { FRAMEWORK_LABEL, codeLanguage, frameworkIn, type Framework } from './frameworks.js';
import type { Distribution } from './hellinger.js';
import type { KnowledgeBase } from './knowledge-base.js';
import { type ClaimCheck, checkFourierUnitary, checkMeasurement, checkQubitCount, measurementClaim, statedQubits } from './request-claims.js';
import { asFunction, scaffoldIn, wantsSourceOnly, type Scaffold } from './request-form.js';
import { parametricFunction, type ParametricFunction } from './parametric-functions.js';
import { decompositionFidelity } from './gate-decomposition.js';
import { exactEvolution, unitaryFidelity } from './hamiltonian-evolution.js';
import {
  ClarificationNeeded,
  MAX_REQUEST_CHARS,
  UnsupportedRequest,
  detectKind,
  parseRequest,
  qubitCount,
  unbuiltConstructs,
  wantsCircuit,
  type ParsedRequest,
} from './request-parser.js';

/** Questions about concepts ("what is a Hamiltonian") go to the knowledge base, not to the construct check. */
const CONCEPT_START = /^\s*(what|why|how does|how do|explain|define|describe|tell me about|what's|whats)\b/i;

export interface ChatMessage {
  role: 'user' | 'assistant' | 'system';
  content: string;
}
export type CodeMode = 'inline' | 'file';
export interface CodeFile {
  path: string;
  language: string;
  content: string;
}
export interface AnswerVerification {
  parsed: boolean;
  simulated: boolean;
  repairs: number;
  fidelity?: number;
}
export interface OfflineAnswer {
  kind: 'circuit' | 'concept' | 'fallback';
  /** The prose streamed as tokens (with the code inline when code_mode is inline). */
  text: string;
  files: CodeFile[];
  verification: AnswerVerification | null;
  circuitKind?: CircuitKind;
  citation?: string;
}

/** The best section must match at least this share of the question's (idf-weighted) words to be about it. */
export const MIN_CONCEPT_COVERAGE = 0.5;

const KIND_NAMES: Record<CircuitKind, string> = {
  bell: 'Bell states (all four)',
  ghz: 'GHZ states',
  w: 'W states',
  uniform: 'uniform superpositions',
  basis: 'basis-state preparation',
  qft: 'QFT and inverse QFT',
  grover: 'Grover search for given bitstrings',
  'deutsch-jozsa': 'Deutsch–Jozsa',
  'bernstein-vazirani': 'Bernstein–Vazirani',
  'phase-estimation': 'phase estimation of a given phase',
  teleportation: 'teleportation',
  superdense: 'superdense coding',
  adder: 'ripple-carry adders',
  'swap-test': 'swap tests',
  repetition: 'bit-flip and phase-flip repetition codes',
  ansatz: 'hardware-efficient ansätze',
  state: 'states written out (Dirac sums, amplitude lists, per-qubit states)',
  simon: "Simon's algorithm for a given secret",
  'hadamard-test': 'Hadamard tests of X, Y, Z, H, S or T on a one-qubit state',
  chsh: 'CHSH / Bell-test measurement settings',
  decomposition: 'decompositions of named gates, U/RX/RY/RZ rotations, exp(−iθ·P⊗P) or a given matrix into a named basis',
  evolution: 'Trotterized time evolution of a Pauli-sum Hamiltonian (H = Z0 Z1 + 0.5 (X0 + X1), t = 1)',
  qaoa: 'QAOA for MaxCut on a given edge list with given angles',
};

/**
 * A request that asks for code or a circuit in so many words (a verb of making, "the circuit for", or a scaffold): what
 * `mode: "learn"` still answers with a circuit. "What is a Bell state?" is not one; "write a Bell state circuit" is.
 */
const EXPLICIT_CODE_REQUEST =
  /\b(write|implement|code|program|script|build|construct|create|prepare|make|generate|design|give me|show me)\b|\b(circuit|code|program) (for|that|which|to)\b|^\s*def\s+\w+\s*\(/im;

export function answerOffline(messages: ChatMessage[], options: { codeMode: CodeMode; knowledge: KnowledgeBase; mode?: 'build' | 'learn' }): OfflineAnswer {
  const users = messages.filter((m) => m.role === 'user');
  const current = users.at(-1)?.content.trim() ?? '';
  if (!current) return fallback('');
  const previous = users.slice(0, -1).map((m) => m.content);
  // Learning mode explains; a circuit only when one is asked for explicitly (the knowledge base answers the rest).
  if (options.mode === 'learn' && !EXPLICIT_CODE_REQUEST.test(current.slice(0, MAX_REQUEST_CHARS))) return conceptAnswer(current, options.knowledge);
  const request = resolveCircuitRequest(current, previous);
  if (request) {
    try {
      const parsed = parseRequest(request);
      if (parsed) {
        // Framework: named or imported in the request; else the thread's last; else Qiskit.
        const framework = frameworkIn(request) ?? lastFramework(messages.slice(0, -1)) ?? parsed.framework;
        return circuitAnswer({ ...parsed, framework }, current, options.codeMode);
      }
    } catch (error) {
      if (error instanceof ClarificationNeeded)
        return { kind: 'fallback', text: `I can't answer that one as asked offline: ${error.message}`, files: [], verification: null };
      if (error instanceof UnsupportedRequest)
        return { kind: 'fallback', text: `I can't build that one offline: ${error.message}.`, files: [], verification: null };
      throw error;
    }
  }
  const unbuilt = request || CONCEPT_START.test(current) ? [] : unbuiltConstructs(current);
  if (unbuilt.length)
    return {
      kind: 'fallback',
      text: `I can't answer that one as asked offline: it asks for ${[...new Set(unbuilt)].join(' and ')}, which I do not build without a language model yet, and I will not send a different circuit instead. Could you ask for one of the circuits listed below, or connect a language model (QDC_LLM_BASE_URL)? ${OFFLINE_CAPABILITIES}`,
      files: [],
      verification: null,
    };
  return conceptAnswer(current, options.knowledge);
}

/** The knowledge base's section on the request's topic, with its source; else the offline fallback. */
function conceptAnswer(current: string, knowledge: KnowledgeBase): OfflineAnswer {
  const hits = knowledge.search(current.slice(0, MAX_REQUEST_CHARS), 2);
  if (hits.length && hits[0].coverage >= MIN_CONCEPT_COVERAGE) {
    const hit = hits[0];
    const citation = `${hit.path}#${hit.anchor}`;
    const text = `${trimSection(hit.body)}\n\nSource: ${hit.path} § ${hit.heading}`;
    return { kind: 'concept', text, files: [], verification: null, citation };
  }
  return fallback(current);
}

/** The framework of the thread's most recent message that names one. */
function lastFramework(messages: ChatMessage[]): Framework | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const fw = frameworkIn(messages[i].content.slice(0, MAX_REQUEST_CHARS));
    if (fw) return fw;
  }
  return undefined;
}

/** The text to parse: the message itself, or, for a follow-up ("now in Cirq", "with 6 qubits"), the last circuit request amended by it. */
function resolveCircuitRequest(current: string, previous: string[]): string | undefined {
  if (wantsCircuit(current)) return current;
  if (detectKind(current)) return undefined;
  const followUp = frameworkIn(current) !== undefined || qubitCount(current) !== undefined || /\b(now|instead|again|same|bigger|smaller|also)\b/i.test(current);
  if (!followUp) return undefined;
  for (let i = previous.length - 1; i >= 0; i--) {
    if (wantsCircuit(previous[i])) {
      const fw = frameworkIn(current);
      const base = fw ? previous[i].replace(/\b(in|using|with)\s+(qiskit|cirq|penny\s*lane|braket|(open\s*)?qasm\s*-?\s*[23]?(\.0)?)\b/gi, '') : previous[i];
      return `${current}\n${base}`;
    }
  }
  return undefined;
}

/** The circuit with only the listed qubits measured (into a fresh register, in list order), and the ideal distribution of those bits. */
function measureOnly(circuit: Circuit, qubits: number[], ideal: Distribution): { circuit: Circuit; ideal: Distribution } | undefined {
  const clbitOf = new Map<number, number>();
  for (const op of circuit.ops) if (op.kind === 'measure') clbitOf.set(op.qubit, op.clbit);
  if (qubits.some((q) => !clbitOf.has(q)) || circuit.ops.some((op) => 'condition' in op && op.condition)) return undefined;
  const out: Circuit = {
    ...circuit,
    cregs: [{ name: 'c', size: qubits.length, offset: 0 }],
    numClbits: qubits.length,
    ops: circuit.ops.filter((op) => op.kind !== 'measure'),
  };
  qubits.forEach((q, i) => {
    out.ops.push({ kind: 'measure', qubit: q, clbit: i });
  });
  const marginal: Distribution = {};
  for (const [k, p] of Object.entries(ideal)) {
    const bits = qubits
      .map((q) => k[k.length - 1 - clbitOf.get(q)!])
      .reverse()
      .join('');
    marginal[bits] = (marginal[bits] ?? 0) + p;
  }
  return { circuit: out, ideal: marginal };
}

const withoutMeasurements = (circuit: Circuit): Circuit => ({ ...circuit, cregs: [], numClbits: 0, ops: circuit.ops.filter((op) => op.kind !== 'measure') });

const fmt4 = (v: number) => v.toFixed(4);

function circuitAnswer(parsed: ParsedRequest, text: string, codeMode: CodeMode): OfflineAnswer {
  const { framework } = parsed;
  let { task, assumptions } = parsed;
  const claim = measurementClaim(text);
  // "The QFT, no measurement" with no input named: the transform itself, checked as a unitary.
  if (task.kind === 'qft' && claim?.kind === 'none' && assumptions.some((a) => a.startsWith('the input state'))) {
    task = { ...task, bare: true };
    assumptions = assumptions.filter((a) => !a.startsWith('the input state'));
  }
  const scaffold = framework === 'qiskit' || framework === 'cirq' ? scaffoldIn(text) : undefined;
  // A size the request leaves open but the scaffold's default gives (`def ghz(n: int = 4)`).
  const sizeDefault = scaffold?.names.length === 1 ? Number(scaffold.defaults[scaffold.names[0]]) : Number.NaN;
  if (
    (task.kind === 'ghz' || task.kind === 'w' || task.kind === 'uniform') &&
    Number.isInteger(sizeDefault) &&
    assumptions.some((a) => a.includes('no size was given'))
  ) {
    task = { ...task, n: sizeDefault };
    assumptions = assumptions.filter((a) => !a.includes('no size was given'));
  }
  const built = synthesize(task);
  const label = FRAMEWORK_LABEL[framework];
  const parametric =
    scaffold && (framework === 'qiskit' || framework === 'cirq') && (!claim || (claim.kind === 'all' && task.kind !== 'bernstein-vazirani'))
      ? parametricFunction(task, framework, scaffold)
      : undefined;
  if (parametric && scaffold)
    return parametricAnswer(parametric, scaffold, built.title, built.explanation, framework, assumptions, codeMode, wantsSourceOnly(text));
  const sourceOnly = wantsSourceOnly(text);
  const notChecked: string[] = [];

  // The circuit as asked: measurements as the request says, the ideal it implies for them.
  let circuit = built.circuit;
  let ideal: Distribution | undefined = Object.keys(built.ideal).length ? built.ideal : undefined;
  let idealState = built.idealState;
  if (claim?.kind === 'none') {
    circuit = withoutMeasurements(circuit);
    ideal = undefined;
    if (!idealState && !(task.kind === 'qft' && task.bare))
      notChecked.push('the output state (the request asks for no measurement, and I have the ideal only for the measured bits)');
  } else if (claim?.kind === 'only' && ideal) {
    const restricted = measureOnly(circuit, claim.qubits, ideal);
    if (restricted) ({ circuit, ideal } = restricted);
    idealState = undefined;
  }
  if (task.kind === 'ansatz') notChecked.push('the output distribution: the request states no target, and the angles are example values');

  const emitted = emitCircuit(circuit, framework);
  const code = scaffold ? asFunction(emitted, framework, scaffold, scaffold.required.length ? unusedParamsNote(scaffold) : undefined) : emitted;
  const viaQasm = framework === 'pennylane' || framework === 'braket';
  // Qiskit, Cirq and OpenQASM answers are checked from their own text (the scaffold's function called through the front end);
  // PennyLane and Braket (no front end) through the OpenQASM 3 of the same circuit.
  let answerCircuit: Circuit;
  try {
    answerCircuit = viaQasm
      ? parseCircuit(checkableSource(circuit)).circuit
      : parseCircuit(
          code,
          scaffold ? { entryPoint: scaffold.name, ...(scaffold.required.length ? { entryPointArgs: scaffold.required.map(() => null) } : {}) } : {},
        ).circuit;
  } catch (error) {
    return notSent(built.title, label, `the code does not parse back: ${(error as Error).message}`, task.kind);
  }
  const checks: ClaimCheck[] = [];
  if (scaffold)
    checks.push({ ok: true, text: `\`${scaffold.name}(${scaffold.params})\` is defined and returns a ${answerCircuit.numQubits}-qubit circuit when called` });
  const expectedQubits = statedQubits(task, qubitCount(text));
  if (expectedQubits !== undefined) checks.push(checkQubitCount(answerCircuit, expectedQubits));
  if (claim) checks.push(checkMeasurement(answerCircuit, claim));
  if (task.kind === 'qft' && task.bare) checks.push(checkFourierUnitary(answerCircuit, task.n, task.inverse, FIDELITY_THRESHOLD));
  if (task.kind === 'evolution') {
    const fidelity = unitaryFidelity(answerCircuit, exactEvolution(task.terms, task.n, task.time));
    checks.push({
      ok: fidelity >= FIDELITY_THRESHOLD,
      text: `its unitary matches exp(−iHt) computed exactly from H (|Tr(T†U)|/d = ${fmt4(fidelity)}, threshold ${FIDELITY_THRESHOLD})`,
    });
  }
  if (task.kind === 'decomposition') {
    const { fidelity, outside } = decompositionFidelity(task, answerCircuit);
    checks.push({
      ok: fidelity >= FIDELITY_THRESHOLD,
      text: `its unitary is ${task.label} computed from the gate's definition, up to global phase (|Tr(T†U)|/d = ${fmt4(fidelity)}, threshold ${FIDELITY_THRESHOLD})`,
    });
    if (task.basis)
      checks.push({
        ok: outside.length === 0,
        text: outside.length
          ? `it uses ${outside.join(', ')}, outside the basis asked`
          : `every gate is in the basis asked (${task.basis.map((g) => (g === '1q' ? 'one-qubit gates' : g)).join(', ')})`,
      });
  }
  const report = verifyCircuit(answerCircuit, ideal || idealState ? { ideal: ideal ?? {}, ...(idealState ? { idealState } : {}) } : undefined);
  if (!report.parsed || !report.simulated) return notSent(built.title, label, report.error ?? 'not simulated', task.kind);
  if (report.fidelity !== undefined)
    checks.push({
      ok: report.fidelity >= FIDELITY_THRESHOLD,
      text: `its exact output distribution matches the one the request implies (Hellinger fidelity ${fmt4(report.fidelity)}, threshold ${FIDELITY_THRESHOLD}; most likely ${topOutcomes(report.distribution ?? {})}, qubit/bit 0 rightmost)`,
    });
  if (report.stateFidelity !== undefined)
    checks.push({
      ok: report.stateFidelity >= FIDELITY_THRESHOLD,
      text: `the prepared state matches the requested one (state fidelity ${fmt4(report.stateFidelity)}, threshold ${FIDELITY_THRESHOLD})`,
    });
  else if (idealState && report.fidelity === undefined && !notChecked.length) notChecked.push('the prepared state (the circuit has mid-circuit operations)');
  if (scaffold?.required.length)
    notChecked.push(
      `other values of ${scaffold.required.map((p) => `\`${p}\``).join(', ')}: the function builds the circuit of this request whatever they are`,
    );
  const failed = checks.find((c) => !c.ok);
  if (failed) return notSent(built.title, label, failed.text, task.kind);

  const target =
    report.fidelity !== undefined ||
    report.stateFidelity !== undefined ||
    (task.kind === 'qft' && task.bare === true) ||
    task.kind === 'decomposition' ||
    task.kind === 'evolution';
  const summary = [
    target || checks.length
      ? `Checked against the request${viaQasm ? ' (through the OpenQASM 3 of the same circuit, which no PennyLane/Braket front end reads here)' : ''} with QDC's simulator: ${checks.map((c) => c.text).join('; ')}.`
      : '',
    `Read as: ${built.title}${framework === 'cirq' ? ' (bitstrings in your request read in Cirq order, qubit 0 first)' : ''}.`,
    assumptions.length ? `Assumed: ${assumptions.join('; ')}.` : '',
    notChecked.length ? `Not verified: ${notChecked.join('; ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const lang = codeLanguage(framework);
  const path = scaffold ? `${scaffold.name}.py` : `${built.stem}.${lang.extension}`;
  let body: string;
  if (sourceOnly && codeMode === 'inline' && lang.fence === 'python') body = `${code.trimEnd()}\n\n${summary.replace(/^/gm, '# ')}\n`;
  else {
    const intro = scaffold ? `Here is \`${scaffold.name}\` in ${label}, returning a ${built.title}` : `Here is a ${built.title} in ${label}`;
    body =
      codeMode === 'file'
        ? `${intro}, in \`${path}\`.\n\n${built.explanation}\n\n${summary}`
        : `${intro}:\n\n\`\`\`${lang.fence}\n${code.trimEnd()}\n\`\`\`\n\n${built.explanation}\n\n${summary}`;
  }
  return {
    kind: 'circuit',
    text: body,
    files: codeMode === 'file' ? [{ path, language: lang.language, content: code }] : [],
    verification: { parsed: true, simulated: true, repairs: 0, ...(report.fidelity === undefined ? {} : { fidelity: Number(report.fidelity.toFixed(6)) }) },
    circuitKind: task.kind,
  };
}

/** A scaffold answered with a body that uses its parameter: called with the request's value and another one, each checked against its own ideal. */
function parametricAnswer(
  fn: ParametricFunction,
  scaffold: Scaffold,
  title: string,
  explanation: string,
  framework: Framework,
  assumptions: string[],
  codeMode: CodeMode,
  sourceOnly: boolean,
): OfflineAnswer {
  const label = FRAMEWORK_LABEL[framework];
  const figures: string[] = [];
  let first: number | undefined;
  for (const call of fn.calls) {
    const expected = synthesize(call.task).ideal;
    let circuit: Circuit;
    try {
      circuit = parseCircuit(fn.code, { entryPoint: scaffold.name, entryPointArgs: [call.arg] }).circuit;
    } catch (error) {
      return notSent(title, label, `${scaffold.name}(${JSON.stringify(call.arg)}) does not run: ${(error as Error).message}`, call.task.kind);
    }
    const report = verifyCircuit(circuit, { ideal: expected });
    if (report.error || report.fidelity === undefined)
      return notSent(title, label, `${scaffold.name}(${JSON.stringify(call.arg)}): ${report.error ?? 'not simulated'}`, call.task.kind);
    first ??= report.fidelity;
    figures.push(`${scaffold.name}(${JSON.stringify(call.arg)}) gives the ideal distribution for that argument (Hellinger fidelity ${fmt4(report.fidelity)})`);
  }
  const summary = [
    `Checked against the request with QDC's simulator (threshold ${FIDELITY_THRESHOLD}): \`${scaffold.name}(${scaffold.params})\` is defined and uses its parameter; ${figures.join('; ')}.`,
    `Read as: ${title}${framework === 'cirq' ? ' (bitstrings read in Cirq order, qubit 0 first)' : ''}.`,
    assumptions.length ? `Assumed: ${assumptions.join('; ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const path = `${scaffold.name}.py`;
  const text =
    sourceOnly && codeMode === 'inline'
      ? `${fn.code.trimEnd()}\n\n${summary.replace(/^/gm, '# ')}\n`
      : codeMode === 'file'
        ? `Here is \`${scaffold.name}\` in ${label}, in \`${path}\`.\n\n${explanation}\n\n${summary}`
        : `Here is \`${scaffold.name}\` in ${label}:\n\n\`\`\`python\n${fn.code.trimEnd()}\n\`\`\`\n\n${explanation}\n\n${summary}`;
  return {
    kind: 'circuit',
    text,
    files: codeMode === 'file' ? [{ path, language: 'python', content: fn.code }] : [],
    verification: { parsed: true, simulated: true, repairs: 0, ...(first === undefined ? {} : { fidelity: Number(first.toFixed(6)) }) },
    circuitKind: fn.calls[0].task.kind,
  };
}

function unusedParamsNote(scaffold: Scaffold): string {
  return `Builds the circuit described in the request; ${scaffold.required.join(', ')} ${scaffold.required.length > 1 ? 'are' : 'is'} accepted but not used.`;
}

function notSent(title: string, label: string, reason: string, kind: CircuitKind): OfflineAnswer {
  return {
    kind: 'fallback',
    text: `I built a ${title} in ${label}, but it failed a check against the request (${reason}), so I am not sending it. Please report this request.`,
    files: [],
    verification: null,
    circuitKind: kind,
  };
}

function topOutcomes(d: Distribution): string {
  const entries = Object.entries(d).sort((a, b) => b[1] - a[1]);
  const shown = entries.slice(0, 4).map(([k, v]) => `${k}: ${v.toFixed(3)}`);
  return shown.join(', ') + (entries.length > 4 ? `, … (${entries.length} outcomes)` : '');
}

/** A section's text up to ~1200 characters, cut at a paragraph boundary. */
function trimSection(body: string): string {
  const paragraphs = body.split(/\n\s*\n/);
  let out = '';
  for (const p of paragraphs) {
    if (out && out.length + p.length > 1200) break;
    out += (out ? '\n\n' : '') + p.trim();
  }
  return out;
}

export const OFFLINE_CAPABILITIES = `Without a language model I can (1) write circuits, tested against the request on QDC's simulator before I send them, in Qiskit (default), Cirq, PennyLane, OpenQASM 2/3 or Amazon Braket for: ${CIRCUIT_KINDS.map((k) => KIND_NAMES[k]).join(', ')}; and (2) explain concepts from QDC's knowledge base (qubits, gates, measurement, entanglement, noise, error correction, QDC's characterization models and how to use QDC), citing the section. For open-ended questions, an operator can connect any OpenAI-compatible model (OpenAI, vLLM, Ollama, llama.cpp) with QDC_LLM_BASE_URL and QDC_LLM_MODEL.`;

function fallback(message: string): OfflineAnswer {
  const greeting = /^\s*(hi|hello|hey|good (morning|afternoon|evening)|thanks|thank you)\b/i.test(message);
  const text = greeting
    ? `Hello! I'm QDC's assistant, running offline. ${OFFLINE_CAPABILITIES} Try "build a 5-qubit GHZ circuit in Cirq" or "what is a T gate?".`
    : `I don't have an answer to that offline. ${OFFLINE_CAPABILITIES}`;
  return { kind: 'fallback', text, files: [], verification: null };
}

/** Splits text into streaming tokens of a few words each (whitespace kept, so joining restores the text). */
export function tokenChunks(text: string, wordsPerToken = 4): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerToken) out.push(words.slice(i, i + wordsPerToken).join(''));
  return out;
}
