/**
 * The assistant without a language model: circuits for the request kinds of request-parser.ts,
 * synthesised deterministically and verified by the simulator; concept answers retrieved from
 * the knowledge base with their section cited; an honest note for anything else.
 */
import { emitCircuit, parseCircuit } from '#qdc/circuits';
import { CIRCUIT_KINDS, type CircuitKind } from './circuit-task.js';
import { synthesize } from './circuit-synthesis.js';
import { checkableSource, measuredDistribution, verifyCircuit, verifyCircuitSource, type VerificationReport } from './circuit-verification.js';
import { FRAMEWORK_LABEL, codeLanguage, frameworkIn, type Framework } from './frameworks.js';
import type { Distribution } from './hellinger.js';
import type { KnowledgeBase } from './knowledge-base.js';
import { MAX_REQUEST_CHARS, UnsupportedRequest, detectKind, parseRequest, qubitCount, wantsCircuit } from './request-parser.js';

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
};

export function answerOffline(messages: ChatMessage[], options: { codeMode: CodeMode; knowledge: KnowledgeBase }): OfflineAnswer {
  const users = messages.filter((m) => m.role === 'user');
  const current = users.at(-1)?.content.trim() ?? '';
  if (!current) return fallback('');
  const request = resolveCircuitRequest(
    current,
    users.slice(0, -1).map((m) => m.content),
  );
  if (request) {
    try {
      const parsed = parseRequest(request);
      if (parsed) return circuitAnswer(parsed.task, parsed.framework, options.codeMode);
    } catch (error) {
      if (error instanceof UnsupportedRequest)
        return { kind: 'fallback', text: `I can't build that one offline: ${error.message}.`, files: [], verification: null };
      throw error;
    }
  }
  const hits = options.knowledge.search(current.slice(0, MAX_REQUEST_CHARS), 2);
  if (hits.length && hits[0].coverage >= MIN_CONCEPT_COVERAGE) {
    const hit = hits[0];
    const citation = `${hit.path}#${hit.anchor}`;
    const text = `${trimSection(hit.body)}\n\nSource: ${hit.path} § ${hit.heading}`;
    return { kind: 'concept', text, files: [], verification: null, citation };
  }
  return fallback(current);
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

function circuitAnswer(task: Parameters<typeof synthesize>[0], framework: Framework, codeMode: CodeMode): OfflineAnswer {
  const built = synthesize(task);
  const code = emitCircuit(built.circuit, framework);
  const ideal: Distribution = Object.keys(built.ideal).length ? built.ideal : measuredDistribution(built.circuit);
  const expectation = { ideal, idealState: built.idealState };
  // Qiskit, Cirq and OpenQASM answers are checked from their own text; PennyLane and Braket (no front end) through the OpenQASM 3 of the same circuit.
  const report: VerificationReport =
    framework === 'pennylane' || framework === 'braket'
      ? verifyCircuit(parseCircuit(checkableSource(built.circuit)).circuit, expectation)
      : verifyCircuitSource(code, expectation);
  const label = FRAMEWORK_LABEL[framework];
  if (!report.parsed || !report.simulated || report.error) {
    return {
      kind: 'fallback',
      text: `I built a ${built.title} in ${label}, but it failed verification (${report.error ?? 'not simulated'}), so I am not sending it. Please report this request.`,
      files: [],
      verification: { parsed: report.parsed, simulated: report.simulated, repairs: 0, ...(report.fidelity === undefined ? {} : { fidelity: report.fidelity }) },
      circuitKind: task.kind,
    };
  }
  const lang = codeLanguage(framework);
  const path = `${built.stem}.${lang.extension}`;
  const checked = `Checked with QDC's simulator before sending: the code ${framework === 'pennylane' || framework === 'braket' ? 'was generated from a circuit whose OpenQASM 3 form parses' : 'parses'}, and its exact output distribution matches the ideal one (Hellinger fidelity ${(report.fidelity ?? 1).toFixed(4)}${report.stateFidelity !== undefined ? `, state fidelity ${report.stateFidelity.toFixed(4)}` : ''}). Most likely outcomes (qubit/bit 0 rightmost): ${topOutcomes(report.distribution ?? {})}.`;
  const intro = codeMode === 'file' ? `Here is a ${built.title} in ${label}, in \`${path}\`.` : `Here is a ${built.title} in ${label}:`;
  const body =
    codeMode === 'file'
      ? `${intro}\n\n${built.explanation}\n\n${checked}`
      : `${intro}\n\n\`\`\`${lang.fence}\n${code.trimEnd()}\n\`\`\`\n\n${built.explanation}\n\n${checked}`;
  return {
    kind: 'circuit',
    text: body,
    files: codeMode === 'file' ? [{ path, language: lang.language, content: code }] : [],
    verification: { parsed: true, simulated: true, repairs: 0, fidelity: Number((report.fidelity ?? 1).toFixed(6)) },
    circuitKind: task.kind,
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

export const OFFLINE_CAPABILITIES = `Without a language model I can (1) write circuits, checked by QDC's simulator before I send them, in Qiskit (default), Cirq, PennyLane, OpenQASM 2/3 or Amazon Braket for: ${CIRCUIT_KINDS.map((k) => KIND_NAMES[k]).join(', ')}; and (2) explain concepts from QDC's knowledge base (qubits, gates, measurement, entanglement, noise, error correction, QDC's characterization models and how to use QDC), citing the section. For open-ended questions, an operator can connect any OpenAI-compatible model (OpenAI, vLLM, Ollama, llama.cpp) with QDC_LLM_BASE_URL and QDC_LLM_MODEL.`;

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
