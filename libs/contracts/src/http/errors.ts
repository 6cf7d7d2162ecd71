import { z } from 'zod';

/**
 * Error bodies of the HTTP API (SPEC §5). Control and admin routes answer FastAPI-style (`{detail}`), coda routes
 * (circuit tools, QPUs, assistant) `{success: false, error, detail}`.
 */

/** One validation problem: where (`["body", "shots"]`, `["query", "limit"]`), what was expected and what came, a FastAPI type. */
export const ValidationIssueHttp = z
  .object({
    loc: z.array(z.union([z.string(), z.number().int()])),
    msg: z.string(),
    type: z.string(),
  })
  .meta({ id: 'ValidationError' });
export type ValidationIssueHttp = z.infer<typeof ValidationIssueHttp>;

/** 422 of control and admin routes. */
export const HttpValidationErrorResponse = z
  .object({ detail: z.array(ValidationIssueHttp) })
  .meta({ id: 'HTTPValidationError', description: 'FastAPI-style validation error: every problem with its location' });
export type HttpValidationErrorResponse = z.infer<typeof HttpValidationErrorResponse>;

/** Every other error of control and admin routes (and 401/403/429 of every route); a 5xx carries an `error_id` that is also logged. */
export const HttpErrorResponse = z
  .object({
    detail: z.string(),
    error_id: z.string().optional().meta({ description: 'only on 5xx: the id of the logged error' }),
  })
  .meta({ id: 'HTTPError', description: 'FastAPI-style error: `{"detail": "message"}`' });
export type HttpErrorResponse = z.infer<typeof HttpErrorResponse>;

/** `{"detail": "..."}` as a success answer (deletions). */
export const DetailHttpResponse = z.object({ detail: z.string() }).meta({ id: 'Detail' });
export type DetailHttpResponse = z.infer<typeof DetailHttpResponse>;

/**
 * Failure of a coda route (SPEC §4): `error` is the message; `detail` is FastAPI's list for validation problems (422)
 * and the message otherwise; a circuit that does not parse adds its source `line` and `construct`.
 */
export const CodaErrorHttpResponse = z
  .object({
    success: z.literal(false),
    error: z.string(),
    detail: z.union([z.string(), z.array(ValidationIssueHttp)]),
    line: z.number().int().optional().meta({ description: 'source line of a construct outside the supported subset' }),
    construct: z.string().optional(),
    error_id: z.string().optional().meta({ description: 'only on 5xx: the id of the logged error' }),
  })
  .meta({ id: 'CodaError', description: 'Coda failure: `{"success": false, "error": "...", "detail": ...}`' });
export type CodaErrorHttpResponse = z.infer<typeof CodaErrorHttpResponse>;
