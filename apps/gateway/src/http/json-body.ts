import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Deepest JSON nesting a request body may have. The deepest body of the API is two levels of arrays inside the
 * calibration agent's `data`; without a bound, a body of 100 000 `[` (200 KB) parses, then overflows the stack
 * of whatever walks it next (JSON.stringify when it is forwarded over NATS) — a 500 for what is the caller's fault.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether `text` opens more than `limit` arrays/objects at once (strings, with their escapes, are skipped). */
export function jsonDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

type Done = (error: Error | null, body?: unknown) => void;

/**
 * Fastify's own JSON parser (same errors: empty body, bad JSON, prototype poisoning → 400, which the exception
 * filter answers as a FastAPI-style 422), behind a nesting bound. Given to Nest as the `application/json` body
 * parser (`adapter.useBodyParser`), so Nest registers no other.
 */
export function boundedJsonParser(app: FastifyInstance): (request: FastifyRequest, body: Buffer | string, done: Done) => void {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDeeperThan(text, MAX_JSON_DEPTH)) {
      done(Object.assign(new Error(`expected a JSON body nested at most ${MAX_JSON_DEPTH} levels deep; got a deeper one`), { statusCode: 400 }));
      return;
    }
    parse(request, text, done);
  };
}
