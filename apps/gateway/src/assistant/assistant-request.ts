import type { z } from 'zod';
import { AssistantRequestHttp } from '#qdc/contracts';
import { ValidationFailed } from '../http/api-errors.js';

/** Parses the body (against the documented schema, AssistantRequestHttp) or throws a FastAPI-style 422 naming each bad field and what came. */
export function parseAssistantRequest(body: unknown): z.infer<typeof AssistantRequestHttp> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationFailed([
      {
        loc: ['body'],
        msg: `expected a JSON object with messages; got ${body === null || body === undefined ? 'no body' : Array.isArray(body) ? 'an array' : typeof body}`,
        type: 'type_error',
      },
    ]);
  }
  const parsed = AssistantRequestHttp.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ValidationFailed(
    parsed.error.issues.map((issue) => ({
      loc: ['body', ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
      msg: issue.message.startsWith('Invalid input') ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
      type: issue.code,
    })),
  );
}
