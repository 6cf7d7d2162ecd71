import { Inject, Injectable, Logger } from '@nestjs/common';
import { RpcError, type AgentUsage } from '#qdc/contracts';
import { QDC_CONFIG, type QdcConfig } from '#qdc/platform';

export interface VlmAnswer {
  text: string;
  model: string;
  usage: AgentUsage;
}

/**
 * A vision-language model behind an OpenAI-compatible chat-completions endpoint (vLLM, SGLang, TGI, Ollama, or a
 * hosted provider): one user message with the prompt and the image as a data URL. Configured by
 * QDC_VLM_BASE_URL (e.g. http://vlm:8000/v1), QDC_VLM_MODEL and QDC_VLM_API_KEY; the timeout
 * (QDC_VLM_TIMEOUT_MS, default 10 min) covers a cold start of a large model.
 */
@Injectable()
export class VlmClient {
  private readonly logger = new Logger(VlmClient.name);

  constructor(@Inject(QDC_CONFIG) private readonly config: QdcConfig) {}

  get configured(): boolean {
    return !!this.config.QDC_VLM_BASE_URL && !!this.config.QDC_VLM_MODEL;
  }

  async describe(prompt: string, image: { mime: string; base64: string }, maxTokens: number | undefined): Promise<VlmAnswer> {
    const base = this.config.QDC_VLM_BASE_URL!.replace(/\/+$/, '');
    const model = this.config.QDC_VLM_MODEL!;
    const url = `${base}/chat/completions`;
    const body = {
      model,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: prompt },
            { type: 'image_url', image_url: { url: `data:${image.mime};base64,${image.base64}` } },
          ],
        },
      ],
      ...(maxTokens ? { max_tokens: maxTokens } : {}),
    };
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(this.config.QDC_VLM_API_KEY ? { authorization: `Bearer ${this.config.QDC_VLM_API_KEY}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.QDC_VLM_TIMEOUT_MS),
      });
    } catch (error) {
      const name = (error as Error)?.name;
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new RpcError('timeout', `The configured VLM (${model} at ${base}) did not answer within ${this.config.QDC_VLM_TIMEOUT_MS} ms`);
      }
      const cause = causeOf(error);
      this.logger.warn(`VLM ${base} unreachable: ${cause}`);
      throw new RpcError(
        'unavailable',
        `The configured VLM (${model} at ${base}) is not reachable (${cause}); unset QDC_VLM_BASE_URL to use the built-in reader only`,
      );
    }
    const text = await response.text();
    if (!response.ok) {
      throw new RpcError('unavailable', `The configured VLM (${model} at ${base}) answered HTTP ${response.status}: ${text.slice(0, 300)}`);
    }
    let json: { model?: unknown; choices?: { message?: { content?: unknown } }[]; usage?: Partial<AgentUsage> };
    try {
      json = JSON.parse(text);
    } catch {
      throw new RpcError('unavailable', `The configured VLM (${model} at ${base}) answered with something other than JSON: ${text.slice(0, 200)}`);
    }
    const content = json.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new RpcError('unavailable', `The configured VLM (${model} at ${base}) answered without choices[0].message.content`);
    const promptTokens = Math.trunc(Number(json.usage?.prompt_tokens ?? 0)) || 0;
    const completionTokens = Math.trunc(Number(json.usage?.completion_tokens ?? 0)) || 0;
    return {
      text: content,
      model: typeof json.model === 'string' && json.model ? json.model : model,
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: Math.trunc(Number(json.usage?.total_tokens ?? promptTokens + completionTokens)) || promptTokens + completionTokens,
      },
    };
  }
}

/** The most specific reason fetch gives (undici wraps the socket error, sometimes in an AggregateError). */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  return cause?.code ?? cause?.errors?.find((e) => e.code)?.code ?? cause?.message ?? (error as Error)?.message ?? 'unknown error';
}
