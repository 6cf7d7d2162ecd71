import { z } from 'zod';
import { ValidationFailed } from '../http/api-errors.js';

/** Message content: a string, or OpenAI-style parts `[{type: "text", text}]` joined. */
const Content = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() })).transform((parts) => parts.map((p) => p.text ?? '').join('')),
]);

/**
 * POST /agents body (SPEC §4). `mode` (build, learn, any old value) and `fast` are deprecated:
 * accepted with any value and ignored; other unknown fields are ignored too.
 */
export const AssistantRequestBody = z.object({
  messages: z
    .array(z.object({ role: z.enum(['user', 'assistant', 'system'], { error: 'role must be one of user, assistant, system' }), content: Content }), {
      error: 'messages is required: a list of {role, content}',
    })
    .min(1, 'messages must hold at least one message')
    .max(500, 'messages may hold at most 500 messages')
    .refine((m) => m.some((x) => x.role === 'user' && x.content.trim().length > 0), 'messages must include a non-empty user message'),
  thread_id: z.string().trim().min(1, 'thread_id must not be empty').max(200, 'thread_id is at most 200 characters').nullish(),
  budget: z.enum(['low', 'medium', 'high'], { error: 'budget must be one of low, medium, high' }).nullish(),
  code_mode: z.enum(['inline', 'file'], { error: 'code_mode must be one of inline, file' }).nullish(),
  mode: z.unknown().optional(),
  fast: z.unknown().optional(),
});
export type AssistantRequestBody = z.infer<typeof AssistantRequestBody>;

/** Parses the body or throws a FastAPI-style 422 naming each bad field and what came. */
export function parseAssistantRequest(body: unknown): AssistantRequestBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationFailed([
      {
        loc: ['body'],
        msg: `expected a JSON object with messages; got ${body === null || body === undefined ? 'no body' : Array.isArray(body) ? 'an array' : typeof body}`,
        type: 'type_error',
      },
    ]);
  }
  const parsed = AssistantRequestBody.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ValidationFailed(
    parsed.error.issues.map((issue) => ({
      loc: ['body', ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      msg: issue.message.startsWith('Invalid input') ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
      type: issue.code,
    })),
  );
}
