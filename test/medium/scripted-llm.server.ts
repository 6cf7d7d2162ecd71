/**
 * A local test double of an OpenAI-compatible chat-completions server (the protocol OpenAI, vLLM,
 * Ollama and llama.cpp speak): streams `data: {chunk}` lines and `data: [DONE]`, with content
 * deltas, tool-call deltas (arguments split across chunks) and a final usage chunk. Each test
 * registers a script: a function from the request body to a list of steps.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export interface ChatRequestBody {
  model?: string;
  max_tokens?: number;
  stream?: boolean;
  tools?: { function: { name: string } }[];
  messages: { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
}

export type ScriptStep =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  | { kind: 'content'; text: string }
  | { kind: 'tool-call'; id: string; name: string; arguments: string }
  | { kind: 'wait'; ms: number }
  | { kind: 'hang' }
  | { kind: 'end'; finish: 'stop' | 'tool_calls'; promptTokens?: number; completionTokens?: number };

export interface ScriptedServer {
  url: string;
  requests: { body: ChatRequestBody; headers: IncomingMessage['headers']; closedEarly: boolean }[];
  /** Sets the script; `attempt` counts requests since (and `requests` is cleared). */
  script(fn: (body: ChatRequestBody, attempt: number) => ScriptStep[]): void;
  close(): Promise<void>;
}

export async function startScriptedLlm(): Promise<ScriptedServer> {
  let handler: (body: ChatRequestBody, attempt: number) => ScriptStep[] = () => [
    { kind: 'content', text: 'ok' },
    { kind: 'end', finish: 'stop' },
  ];
  const requests: ScriptedServer['requests'] = [];
  let calls = 0;
  const server: Server = createServer((req, res) => void serve(req, res));

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(raw) as ChatRequestBody;
    const record = { body, headers: req.headers, closedEarly: false };
    requests.push(record);
    let finished = false;
    res.on('close', () => {
      if (!finished) record.closedEarly = true;
    });
    const steps = handler(body, ++calls);
    const chunk = (payload: Record<string, unknown>) =>
      res.write(`data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: body.model ?? 'scripted', ...payload })}\n\n`);
    let toolIndex = 0;
    for (const step of steps) {
      if (res.destroyed) return;
      switch (step.kind) {
        case 'status':
          res
            .writeHead(step.status, { 'content-type': 'application/json', ...step.headers })
            .end(step.body ?? JSON.stringify({ error: { message: `status ${step.status}` } }));
          finished = true;
          return;
        case 'content':
          if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream' });
          chunk({ choices: [{ index: 0, delta: { content: step.text }, finish_reason: null }] });
          break;
        case 'tool-call': {
          if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream' });
          const half = Math.floor(step.arguments.length / 2);
          const index = toolIndex++;
          chunk({
            choices: [
              {
                index: 0,
                delta: { tool_calls: [{ index, id: step.id, type: 'function', function: { name: step.name, arguments: step.arguments.slice(0, half) } }] },
                finish_reason: null,
              },
            ],
          });
          chunk({ choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: step.arguments.slice(half) } }] }, finish_reason: null }] });
          break;
        }
        case 'wait':
          await new Promise((r) => setTimeout(r, step.ms));
          break;
        case 'hang':
          if (!res.headersSent) res.writeHead(200, { 'content-type': 'text/event-stream' });
          await new Promise<void>((r) => res.on('close', () => r()));
          return;
        case 'end':
          chunk({ choices: [{ index: 0, delta: {}, finish_reason: step.finish }] });
          chunk({
            choices: [],
            usage: {
              prompt_tokens: step.promptTokens ?? 10,
              completion_tokens: step.completionTokens ?? 5,
              total_tokens: (step.promptTokens ?? 10) + (step.completionTokens ?? 5),
            },
          });
          res.write('data: [DONE]\n\n');
          finished = true;
          res.end();
          return;
      }
    }
    finished = true;
    res.end();
  }

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (fn) => {
      handler = fn;
      calls = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The text of a message QDC sends back to the model when its circuit failed a check (the repair round's request). */
export const isCheckFailure = (m: ChatRequestBody['messages'][number]): boolean => m.role === 'user' && /\bit failed\b/.test(m.content ?? '');

/**
 * A provider that answers with `answers[k]` in the k-th round of an assistant turn, where a round
 * is counted by the check failures QDC has sent back so far (the last answer repeats): a model that
 * gets a circuit wrong first and fixes it when told what failed.
 */
export function roundsScript(answers: string[]): (body: ChatRequestBody) => ScriptStep[] {
  return (body) => {
    const round = Math.min(body.messages.filter(isCheckFailure).length, answers.length - 1);
    return [
      { kind: 'content', text: answers[round].slice(0, 20) },
      { kind: 'content', text: answers[round].slice(20) },
      { kind: 'end', finish: 'stop' },
    ];
  };
}
