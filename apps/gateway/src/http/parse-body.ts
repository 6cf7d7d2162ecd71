import type { z } from 'zod';
import { RpcError } from '#qdc/contracts';

/** FastAPI's `type` of a validation problem, from zod's issue (what a client reading `detail[0].type` expects). */
function fastApiType(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'missing' : `${issue.expected}_type`;
    case 'too_small':
      return issue.origin === 'string' ? 'string_too_short' : 'greater_than_equal';
    case 'too_big':
      return issue.origin === 'string' ? 'string_too_long' : 'less_than_equal';
    case 'invalid_value':
      return 'enum';
    case 'invalid_format':
      return 'string_pattern_mismatch';
    default:
      return 'value_error';
  }
}

/**
 * Validates a JSON body against its schema. The first problem is the caller's fault: `invalid_input`
 * (422) whose message says what was expected and what came, with the FastAPI `loc` and `type` in its
 * details so every route answers `detail: [{loc, msg, type}]`.
 */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown, options: { objectRequired?: boolean } = {}): T {
  if (options.objectRequired && (typeof body !== 'object' || body === null || Array.isArray(body)))
    throw new RpcError('invalid_input', `expected a JSON object body; got ${JSON.stringify(body) ?? 'nothing'}`, {
      loc: ['body'],
      type: 'model_attributes_type',
    });
  const parsed = schema.safeParse(body ?? {}, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.join('.');
  const message = where && !issue.message.startsWith(where) ? `${where}: ${issue.message}` : issue.message;
  throw new RpcError('invalid_input', message, { loc: ['body', ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))], type: fastApiType(issue) });
}
