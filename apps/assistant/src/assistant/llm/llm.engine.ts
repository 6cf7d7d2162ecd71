import { Injectable } from '@nestjs/common';
import { emitCircuit } from '#qdc/circuits';
import {
  FRAMEWORK_LABEL,
  checkAnswerAgainstRequest,
  checksParagraph,
  codeBlocks,
  codeLanguage,
  frameworkIn,
  isCircuitBlock,
  scaffoldIn,
  verifyCircuitSource,
  type AnswerChecks,
  type AnswerVerification,
  type CodeBlock,
  type CodeFile,
  type VerificationReport,
} from '#qdc/assistant';
import type { AssistantBudget } from '#qdc/contracts';
import { RunCancelled, type AssistantEngine, type EngineResult, type EngineRun } from '../assistant-engine.js';
import { AssistantTools } from './assistant-tools.js';
import { OpenAiChatClient, type ChatMessage } from './openai-chat.client.js';

/** Repair rounds after a circuit fails verification, by budget. */
export const REPAIR_ROUNDS: Record<AssistantBudget, number> = { low: 0, medium: 1, high: 3 };
/** Thread messages sent to the model: the most recent ones (older turns rarely matter and cost context). */
const MAX_HISTORY_MESSAGES = 40;
/** Tool-call rounds per answer round, so a looping model cannot run forever. */
const MAX_TOOL_ROUNDS = 8;

export const SYSTEM_PROMPT = `You are QDC's quantum computing assistant. QDC is a self-hosted quantum device characterization service with circuit tools and a statevector simulator.
When you write a quantum circuit, put it in one fenced code block, written in Qiskit (Python), Cirq (Python) or OpenQASM 2/3 — QDC parses and simulates it before the user sees it. Use QuantumCircuit with explicit measurements. Bitstrings are little-endian (qubit 0 is the rightmost character), as Qiskit prints counts.
When the request gives a Python function scaffold (def name(params): …), answer with that complete function — same name and parameters, returning the circuit — in the framework it imports. QDC tests your circuit against the request (qubit counts, what is measured, the output distribution it implies) and tells you what failed.
Use the tools to simulate, convert or inspect circuits, to list QDC's characterization models and to search QDC's documentation. Be concise and correct.`;

/** Added in `mode: "learn"` (the vendor's learning mode): explain; code only when asked for. */
export const LEARN_MODE_PROMPT = `The user is learning: explain the ideas step by step, with the physics and the math a student needs, and check understanding with a short question at the end. Do not write code or a circuit unless the user asks for one explicitly.`;

/**
 * The LLM engine: an OpenAI-compatible model with tools. Prose streams as it comes; a code block is
 * held back from its opening fence until the round ends, then the answer's circuit is tested against
 * the request (answer-checks.ts: the scaffold's function called, framework, stated qubit count, what
 * is measured, the distribution the request implies). A failing circuit is fed back to the model with
 * the failure stated, for the budget's repair rounds; after the last one a circuit that does not run is
 * not sent, and one that runs but fails a check is sent with the failure said plainly. A passing
 * answer ends with the paragraph of what was checked, with figures, and what was not.
 */
@Injectable()
export class LlmEngine implements AssistantEngine {
  constructor(
    private readonly client: OpenAiChatClient,
    private readonly tools: AssistantTools,
  ) {}

  async run(run: EngineRun): Promise<EngineResult> {
    const lastUser = [...run.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const wanted = frameworkIn(lastUser);
    const messages: ChatMessage[] = [
      { role: 'system', content: run.mode === 'learn' ? `${SYSTEM_PROMPT}\n${LEARN_MODE_PROMPT}` : SYSTEM_PROMPT },
      ...run.messages.slice(-MAX_HISTORY_MESSAGES).map((m) => ({ role: m.role, content: m.content }) as ChatMessage),
    ];
    let promptTokens = 0;
    let completionTokens = 0;
    let toolCalls = 0;
    let model: string | null = this.client.settings(run.budget).model ?? null;
    const allowedRepairs = REPAIR_ROUNDS[run.budget];
    let streamedText = '';
    const emit = (text: string): void => {
      if (!text) return;
      streamedText += text;
      run.token(text);
    };

    for (let repairs = 0; ; repairs++) {
      const gate = new FenceGate(emit);
      let content = '';
      for (let toolRound = 0; ; toolRound++) {
        const completion = await this.client.complete(
          { messages, tools: toolRound < MAX_TOOL_ROUNDS ? this.tools.definitions : [], budget: run.budget },
          { signal: run.signal, onContent: (t) => gate.push(t) },
        );
        promptTokens += completion.promptTokens;
        completionTokens += completion.completionTokens;
        if (completion.model) model = completion.model;
        content += completion.content;
        if (!completion.toolCalls.length) break;
        messages.push({ role: 'assistant', content: completion.content || null, tool_calls: completion.toolCalls });
        for (const call of completion.toolCalls) {
          if (run.signal.aborted) throw new RunCancelled();
          toolCalls++;
          messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(await this.tools.call(call.function.name, call.function.arguments)) });
        }
      }
      if (run.signal.aborted) throw new RunCancelled();
      const held = gate.held();
      const blocks = codeBlocks(held);
      const circuits = blocks.filter(isCircuitBlock);
      // The one circuit of an answer is tested against the request (answer-checks.ts); several are each parsed and simulated.
      const checked = circuits.length === 1 ? checkAnswerAgainstRequest(circuits[0].code, lastUser) : undefined;
      const reports = circuits.map((b) => (checked ? reportOf(checked) : verifyCircuitSource(b.code)));
      const failure = checked ? checked.failure : reports.find((r) => r.error || !r.parsed || !r.simulated)?.error;
      const runs = reports.every((r) => r.parsed && r.simulated);
      const verification = (extra: Partial<AnswerVerification> = {}): AnswerVerification | null =>
        circuits.length
          ? { parsed: reports.every((r) => r.parsed), simulated: reports.every((r) => r.simulated), repairs, ...fidelityOf(reports), ...extra }
          : null;

      if (!failure) {
        const { text, files } = finish(held, blocks, reports, circuits, run.codeMode, wanted);
        emit(checked ? `${text.trimEnd()}\n\n${checksParagraph(checked)}` : text);
        return { text: streamedText, files, verification: verification(), engine: 'llm', model, promptTokens, completionTokens, toolCalls };
      }
      if (repairs < allowedRepairs) {
        emit(`\n\n(QDC tested that circuit against the request and it failed: ${failure}. Asking the model to repair it.)\n\n`);
        messages.push({ role: 'assistant', content });
        messages.push({
          role: 'user',
          content: `QDC parsed and simulated your circuit and tested it against my request, and it failed: ${failure}. Reply with the corrected, complete code in one fenced code block${scaffoldIn(lastUser) ? ' (the complete function I gave, same name and parameters, returning the circuit)' : ''}${wanted ? ` in ${FRAMEWORK_LABEL[wanted]}` : ''}, and a one-line explanation.`,
        });
        continue;
      }
      // Out of repair rounds: a circuit that runs but fails a check is sent with the failure said plainly
      // (the reading of the request may be too narrow); one that does not run is not sent.
      if (runs) {
        const { text, files } = finish(held, blocks, reports, circuits, run.codeMode, wanted);
        emit(
          `${text}\n\nThis circuit FAILED QDC's check against the request after ${repairs} repair round${repairs === 1 ? '' : 's'}: ${failure}. Do not rely on it as an answer to the request.`,
        );
        return { text: streamedText, files, verification: verification(), engine: 'llm', model, promptTokens, completionTokens, toolCalls };
      }
      const withoutCircuits = strip(held, circuits);
      emit(`${withoutCircuits}\n\n(The circuit is not included: it failed QDC's check — ${failure}.)`);
      return { text: streamedText, files: [], verification: verification(), engine: 'llm', model, promptTokens, completionTokens, toolCalls };
    }
  }
}

/** A verification report from the request checks (for the completed event's verification field and PennyLane/Braket re-emission). */
function reportOf(checked: AnswerChecks): VerificationReport {
  const parsed = checked.circuit !== undefined;
  return {
    parsed,
    simulated: parsed && !/could not be simulated|simulated up to/.test(checked.failure ?? ''),
    ...(checked.fidelity === undefined ? {} : { fidelity: checked.fidelity }),
    ...(checked.failure ? { error: checked.failure } : {}),
    ...(checked.circuit ? { circuit: checked.circuit } : {}),
  };
}

function fidelityOf(reports: VerificationReport[]): { fidelity?: number } {
  const values = reports.map((r) => r.fidelity).filter((f): f is number => f !== undefined);
  return values.length ? { fidelity: Number(Math.min(...values).toFixed(6)) } : {};
}

/** The held text with circuits converted to the framework asked for (PennyLane, Braket) and, in file mode, every code block moved to files. */
function finish(
  held: string,
  blocks: CodeBlock[],
  reports: VerificationReport[],
  circuits: CodeBlock[],
  codeMode: 'inline' | 'file',
  wanted: string | undefined,
): { text: string; files: CodeFile[] } {
  const files: CodeFile[] = [];
  let out = '';
  let cursor = 0;
  blocks.forEach((block, i) => {
    out += held.slice(cursor, block.start);
    cursor = block.end;
    let code = block.code;
    let language = block.language || 'text';
    const ci = circuits.indexOf(block);
    if (ci >= 0 && (wanted === 'pennylane' || wanted === 'braket') && reports[ci].circuit) {
      code = emitCircuit(reports[ci].circuit!, wanted);
      language = 'python';
    }
    if (codeMode === 'file') {
      const ext = ci >= 0 ? (/OPENQASM/.test(code) ? 'qasm' : 'py') : extensionOf(language);
      const path = `${ci >= 0 ? 'circuit' : 'snippet'}_${i + 1}.${ext}`;
      files.push({ path, language: ext === 'qasm' ? 'openqasm' : language === 'qasm' ? 'openqasm' : language, content: code });
      out += `(see \`${path}\`)`;
    } else {
      const fence = ci >= 0 && /OPENQASM/.test(code) ? codeLanguage('openqasm3').fence : language;
      out += `\`\`\`${fence}\n${code.replace(/\n?$/, '\n')}\`\`\``;
    }
  });
  out += held.slice(cursor);
  return { text: out, files };
}

function strip(held: string, circuits: CodeBlock[]): string {
  let out = '';
  let cursor = 0;
  for (const b of circuits) {
    out += held.slice(cursor, b.start);
    cursor = b.end;
  }
  return (out + held.slice(cursor)).trim();
}

const extensionOf = (language: string): string =>
  ({ python: 'py', py: 'py', bash: 'sh', sh: 'sh', shell: 'sh', json: 'json', qasm: 'qasm', openqasm: 'qasm' })[language] ?? 'txt';

/**
 * Passes streamed text through until a code fence opens; from there on everything is held until
 * the round ends (a fence split across chunks is detected by holding back trailing backticks).
 */
export class FenceGate {
  private pending = '';
  private holding = false;
  private heldText = '';

  constructor(private readonly pass: (text: string) => void) {}

  push(text: string): void {
    if (this.holding) {
      this.heldText += text;
      return;
    }
    this.pending += text;
    const fence = this.pending.indexOf('```');
    if (fence >= 0) {
      this.pass(this.pending.slice(0, fence));
      this.heldText = this.pending.slice(fence);
      this.pending = '';
      this.holding = true;
      return;
    }
    const tail = /`{1,2}$/.exec(this.pending)?.[0].length ?? 0;
    this.pass(this.pending.slice(0, this.pending.length - tail));
    this.pending = this.pending.slice(this.pending.length - tail);
  }

  /** What was held back (from the first fence to the end of the round). */
  held(): string {
    const out = this.heldText + this.pending;
    this.heldText = '';
    this.pending = '';
    this.holding = false;
    return out;
  }
}
