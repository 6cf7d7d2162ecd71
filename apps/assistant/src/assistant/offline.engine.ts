import { Injectable } from '@nestjs/common';
import { answerOffline, tokenChunks } from '#qdc/assistant';
import { estimateTokens, RunCancelled, type AssistantEngine, type EngineResult, type EngineRun } from './assistant-engine.js';
import { KnowledgeService } from './knowledge.service.js';

const WORDS_PER_TOKEN = 24;

/** The built-in engine (libs/assistant): no network, deterministic, every circuit simulated before it is sent. */
@Injectable()
export class OfflineEngine implements AssistantEngine {
  constructor(private readonly knowledge: KnowledgeService) {}

  async run(run: EngineRun): Promise<EngineResult> {
    const answer = answerOffline(run.messages, { codeMode: run.codeMode, mode: run.mode, knowledge: this.knowledge.concepts });
    // The answer exists at once; a few larger tokens cost far fewer messages than word-sized ones.
    for (const chunk of tokenChunks(answer.text, WORDS_PER_TOKEN)) {
      if (run.signal.aborted) throw new RunCancelled();
      run.token(chunk);
    }
    const prompt = run.messages.map((m) => m.content).join('\n');
    return {
      text: answer.text + answer.files.map((f) => `\n\n\`${f.path}\`:\n\`\`\`${f.language}\n${f.content}\`\`\``).join(''),
      files: answer.files,
      verification: answer.verification,
      engine: 'offline',
      model: null,
      promptTokens: estimateTokens(prompt),
      completionTokens: estimateTokens(answer.text + answer.files.map((f) => f.content).join('')),
      toolCalls: 0,
    };
  }
}
