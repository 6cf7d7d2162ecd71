import { z } from 'zod';
import { AssistantAgentsListResponse } from '../assistant.js';

/** Message content: a string, or OpenAI-style parts `[{type: "text", text}]` joined. */
const Content = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() })).transform((parts) => parts.map((p) => p.text ?? '').join('')),
]);

/**
 * `POST /agents` body (SPEC §4), as the gateway validates it (its messages are the 422 answers). `mode` (build, learn,
 * any old value) and `fast` are deprecated: accepted with any value and ignored; other unknown fields are ignored too.
 */
export const AssistantRequestHttp = z
  .object({
    messages: z
      .array(z.object({ role: z.enum(['user', 'assistant', 'system'], { error: 'role must be one of user, assistant, system' }), content: Content }), {
        error: 'messages is required: a list of {role, content}',
      })
      .min(1, 'messages must hold at least one message')
      .max(500, 'messages may hold at most 500 messages')
      .refine((m) => m.some((x) => x.role === 'user' && x.content.trim().length > 0), 'messages must include a non-empty user message'),
    thread_id: z.string().trim().min(1, 'thread_id must not be empty').max(200, 'thread_id is at most 200 characters').nullish(),
    budget: z.enum(['low', 'medium', 'high'], { error: 'budget must be one of low, medium, high' }).nullish().meta({ description: 'default high' }),
    code_mode: z
      .enum(['inline', 'file'], { error: 'code_mode must be one of inline, file' })
      .nullish()
      .meta({ description: 'default inline; file: code comes in one `files` event instead of tokens' }),
    mode: z.unknown().optional().meta({
      description:
        '`learn` explains (a circuit only when asked for explicitly); `build` (default) writes circuits; any other value is accepted and means build',
    }),
    fast: z.unknown().optional().meta({ description: 'deprecated; accepted and ignored' }),
  })
  .meta({ id: 'AssistantRequest' });
export type AssistantRequestHttp = z.input<typeof AssistantRequestHttp>;

/** Optional `Last-Event-ID` header: the last event id received (`<run>:<n>`) replays the rest of that run. */
export const AssistantHttpHeaders = z.object({
  'Last-Event-ID': z.string().optional().meta({ description: 'the last event id received (`<run id>:<n>`): replays the rest of that run' }),
});
export type AssistantHttpHeaders = z.infer<typeof AssistantHttpHeaders>;

/** `GET /agents` (coda). */
export const AssistantAgentsHttpResponse = AssistantAgentsListResponse.meta({ id: 'AssistantAgents' });
export type AssistantAgentsHttpResponse = z.infer<typeof AssistantAgentsHttpResponse>;

/** How the answer was checked (offline engine: parsed and simulated, Hellinger fidelity to the ideal distribution). */
const Verification = z.object({ parsed: z.boolean(), simulated: z.boolean(), repairs: z.number().int(), fidelity: z.number().optional() });

/**
 * One SSE event of `POST /agents`: a `data: <json>` line (after an `id: <run>:<n>` line). `token`s while generating,
 * one `files` with code_mode=file, then exactly one terminal event, last: `completed`, `error` or `cancelled`.
 */
export const AssistantEventHttp = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('token'), content: z.string() }),
    z.object({ type: z.literal('files'), files: z.array(z.object({ path: z.string(), language: z.string(), content: z.string() })) }),
    z.object({
      type: z.literal('completed'),
      thread_id: z.string(),
      usage: z.object({
        prompt_tokens: z.number().int(),
        completion_tokens: z.number().int(),
        total_tokens: z.number().int(),
        tool_calls: z.number().int(),
        duration_ms: z.number(),
        engine: z.enum(['offline', 'llm']),
        model: z.string().nullable(),
      }),
      verification: Verification.nullable(),
    }),
    z.object({ type: z.literal('error'), error: z.string() }),
    z.object({ type: z.literal('cancelled'), thread_id: z.string().optional() }),
  ])
  .meta({ id: 'AssistantEvent' });
export type AssistantEventHttp = z.infer<typeof AssistantEventHttp>;
