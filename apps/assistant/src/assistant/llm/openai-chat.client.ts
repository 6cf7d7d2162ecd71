import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AssistantBudget } from '#qdc/contracts';
import { QDC_CONFIG, type QdcConfig } from '#qdc/platform';
import { EngineFailure, RunCancelled } from '../assistant-engine.js';

/** OpenAI chat-completions wire types (the subset QDC sends and reads). */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
export interface ChatCompletion {
  content: string;
  toolCalls: ChatToolCall[];
  finishReason: string | null;
  promptTokens: number;
  completionTokens: number;
  model: string;
}

interface StreamChunk {
  model?: string;
  choices?: {
    delta?: { content?: string | null; tool_calls?: { index: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[] };
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string };
}

/**
 * Client of any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, llama.cpp):
 * streaming with tool calls, a timeout per request, and retries with exponential backoff (or the
 * server's Retry-After) on 429, 5xx and connection failures, as long as nothing was streamed yet.
 */
@Injectable()
export class OpenAiChatClient {
  private readonly logger = new Logger(OpenAiChatClient.name);

  constructor(@Inject(QDC_CONFIG) private readonly config: QdcConfig) {}

  get baseUrl(): string {
    return (this.config.QDC_LLM_BASE_URL ?? '').replace(/\/+$/, '');
  }

  settings(budget: AssistantBudget): { model: string | undefined; maxTokens: number } {
    const c = this.config;
    const model = { low: c.QDC_LLM_MODEL_LOW, medium: c.QDC_LLM_MODEL_MEDIUM, high: c.QDC_LLM_MODEL_HIGH }[budget] ?? c.QDC_LLM_MODEL;
    const maxTokens = { low: c.QDC_LLM_MAX_TOKENS_LOW, medium: c.QDC_LLM_MAX_TOKENS_MEDIUM, high: c.QDC_LLM_MAX_TOKENS_HIGH }[budget];
    return { model, maxTokens };
  }

  async complete(
    request: { messages: ChatMessage[]; tools: ChatTool[]; budget: AssistantBudget },
    options: { signal: AbortSignal; onContent: (text: string) => void },
  ): Promise<ChatCompletion> {
    const { model, maxTokens } = this.settings(request.budget);
    const body = JSON.stringify({
      ...(model ? { model } : {}),
      messages: request.messages,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: maxTokens,
      ...(request.tools.length ? { tools: request.tools, tool_choice: 'auto' } : {}),
    });
    const url = `${this.baseUrl}/chat/completions`;
    let lastProblem = '';
    for (let attempt = 0; ; attempt++) {
      if (options.signal.aborted) throw new RunCancelled();
      const timeout = AbortSignal.timeout(this.config.QDC_LLM_TIMEOUT_MS);
      const signal = AbortSignal.any([options.signal, timeout]);
      let retryAfterMs: number | undefined;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            ...(this.config.QDC_LLM_API_KEY ? { authorization: `Bearer ${this.config.QDC_LLM_API_KEY}` } : {}),
          },
          body,
          signal,
        });
        if (response.ok && response.body) return await this.read(response, options.onContent, signal, model);
        const text = (await response.text().catch(() => '')).slice(0, 300);
        lastProblem = `HTTP ${response.status}${text ? `: ${text}` : ''}`;
        if (response.status !== 429 && response.status < 500) throw new EngineFailure(`the language model provider refused the request (${lastProblem})`);
        const ra = Number(response.headers.get('retry-after'));
        if (Number.isFinite(ra) && ra >= 0) retryAfterMs = Math.min(ra * 1000, 30_000);
      } catch (error) {
        if (error instanceof EngineFailure || error instanceof RunCancelled) throw error;
        if (options.signal.aborted) throw new RunCancelled();
        if (error instanceof StreamStarted) throw new EngineFailure(`the language model stream broke off: ${error.message}`);
        lastProblem = timeout.aborted ? `no answer within ${this.config.QDC_LLM_TIMEOUT_MS} ms` : describeFetchError(error);
      }
      if (attempt >= this.config.QDC_LLM_MAX_RETRIES) {
        throw new EngineFailure(`the language model provider at ${this.baseUrl} is not available (${lastProblem}; tried ${attempt + 1} times)`);
      }
      const delay = retryAfterMs ?? this.config.QDC_LLM_RETRY_BASE_MS * 2 ** attempt;
      this.logger.warn(`LLM request failed (${lastProblem}); retry ${attempt + 1} in ${delay} ms`);
      await sleep(delay, options.signal);
    }
  }

  private async read(response: Response, onContent: (text: string) => void, signal: AbortSignal, model: string | undefined): Promise<ChatCompletion> {
    const out: ChatCompletion = { content: '', toolCalls: [], finishReason: null, promptTokens: 0, completionTokens: 0, model: model ?? '' };
    const calls: { id: string; name: string; arguments: string }[] = [];
    const decoder = new TextDecoder();
    let buffer = '';
    let streamed = false;
    try {
      for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(bytes, { stream: true });
        for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
          const line = buffer.slice(0, newline).replace(/\r$/, '');
          buffer = buffer.slice(newline + 1);
          if (!line.startsWith('data:')) continue;
          const data = line.slice(5).trim();
          if (!data || data === '[DONE]') continue;
          let chunk: StreamChunk;
          try {
            chunk = JSON.parse(data) as StreamChunk;
          } catch {
            continue;
          }
          if (chunk.error) throw new EngineFailure(`the language model provider reported an error: ${chunk.error.message ?? 'unknown'}`);
          if (chunk.model) out.model = chunk.model;
          if (chunk.usage) {
            out.promptTokens = chunk.usage.prompt_tokens ?? out.promptTokens;
            out.completionTokens = chunk.usage.completion_tokens ?? out.completionTokens;
          }
          const choice = chunk.choices?.[0];
          if (!choice) continue;
          const delta = choice.delta ?? {};
          if (delta.content) {
            streamed = true;
            out.content += delta.content;
            onContent(delta.content);
          }
          for (const tc of delta.tool_calls ?? []) {
            streamed = true;
            calls[tc.index] ??= { id: '', name: '', arguments: '' };
            const slot = calls[tc.index]!;
            if (tc.id) slot.id = tc.id;
            if (tc.function?.name) slot.name += tc.function.name;
            if (tc.function?.arguments) slot.arguments += tc.function.arguments;
          }
          if (choice.finish_reason) out.finishReason = choice.finish_reason;
        }
      }
    } catch (error) {
      if (error instanceof EngineFailure) throw error;
      if (signal.aborted) throw error;
      throw streamed ? new StreamStarted((error as Error).message) : error;
    }
    out.toolCalls = calls
      .filter(Boolean)
      .map((c, i) => ({ id: c.id || `call_${i}`, type: 'function' as const, function: { name: c.name, arguments: c.arguments || '{}' } }));
    return out;
  }
}

/** A failure after content was streamed: not retried (the user has already seen part of it). */
class StreamStarted extends Error {}

function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ? `${cause.code}${cause.message ? ` ${cause.message}` : ''}` : ((error as Error)?.message ?? String(error));
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new RunCancelled());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RunCancelled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
