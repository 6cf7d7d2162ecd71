import type { AssistantBudget, AssistantChatMessage, AssistantCodeMode, AssistantMode } from '#qdc/contracts';
import type { AnswerVerification, CodeFile } from '#qdc/assistant';

/** What an engine (offline or LLM) gets for one run. */
export interface EngineRun {
  /** The whole conversation: the thread's stored messages, then the new ones. */
  messages: AssistantChatMessage[];
  codeMode: AssistantCodeMode;
  /** `learn`: explain, and write a circuit only when the request asks for one in so many words. */
  mode: AssistantMode;
  budget: AssistantBudget;
  signal: AbortSignal;
  /** Streams a piece of the answer to the client. */
  token(text: string): void;
}

export interface EngineResult {
  /** The answer as stored in the thread (prose, with inline code when code_mode is inline). */
  text: string;
  files: CodeFile[];
  verification: AnswerVerification | null;
  engine: 'offline' | 'llm';
  model: string | null;
  promptTokens: number;
  completionTokens: number;
  toolCalls: number;
}

export interface AssistantEngine {
  run(run: EngineRun): Promise<EngineResult>;
}

/** Thrown when the run's signal fires; the run manager turns it into a `cancelled` event. */
export class RunCancelled extends Error {
  constructor() {
    super('run cancelled');
  }
}

/** A failure the user should read as the `error` event (provider down, bad configuration). */
export class EngineFailure extends Error {}

/** Rough token count (≈ 4 characters per token) where no tokenizer reports one. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);
