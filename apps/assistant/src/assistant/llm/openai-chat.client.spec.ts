import { createServer } from 'node:net';
import type { QdcConfig } from '#qdc/platform';
import { EngineFailure } from '../assistant-engine.js';
import { OpenAiChatClient } from './openai-chat.client.js';

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function factory(config: Partial<QdcConfig>) {
  return {
    sut: new OpenAiChatClient({
      QDC_LLM_MAX_RETRIES: 2,
      QDC_LLM_RETRY_BASE_MS: 1,
      QDC_LLM_TIMEOUT_MS: 2000,
      QDC_LLM_MAX_TOKENS_LOW: 1,
      QDC_LLM_MAX_TOKENS_MEDIUM: 2,
      QDC_LLM_MAX_TOKENS_HIGH: 3,
      ...config,
    } as QdcConfig),
  };
}

describe(OpenAiChatClient.name, () => {
  it('reports an unreachable provider clearly after its retries', async () => {
    const port = await closedPort();
    const { sut } = factory({ QDC_LLM_BASE_URL: `http://127.0.0.1:${port}/v1` });
    const call = sut.complete(
      { messages: [{ role: 'user', content: 'hi' }], tools: [], budget: 'high' },
      { signal: new AbortController().signal, onContent: () => undefined },
    );
    await expect(call).rejects.toBeInstanceOf(EngineFailure);
    await expect(call).rejects.toThrow(new RegExp(`provider at http://127.0.0.1:${port}/v1 is not available \\(ECONNREFUSED.*tried 3 times\\)`));
  });

  it('picks the per-budget model, falling back to QDC_LLM_MODEL', () => {
    const { sut } = factory({ QDC_LLM_MODEL: 'base', QDC_LLM_MODEL_HIGH: 'big' });
    expect(sut.settings('high')).toEqual({ model: 'big', maxTokens: 3 });
    expect(sut.settings('low')).toEqual({ model: 'base', maxTokens: 1 });
  });
});
