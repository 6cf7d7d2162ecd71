import { Catch } from '@nestjs/common';
import { RpcError } from '#qdc/contracts';
import { ApiExceptionFilter } from '../http/exception.filter.js';

/**
 * Coda routes answer failures as `{success: false, error}` (SPEC §4) with the statuses, headers and
 * error ids of the control API's filter. `detail` is what the control routes carry: FastAPI's list
 * `[{loc, msg, type}]` for validation (422), the message otherwise; parse errors of circuit source add
 * the source `line` and `construct`.
 */
@Catch()
export class CodaExceptionFilter extends ApiExceptionFilter {
  protected override render(body: unknown, exception: unknown): unknown {
    const { detail, error_id } = (body ?? {}) as { detail?: unknown; error_id?: string };
    const invalid = exception instanceof RpcError && exception.code === 'invalid_input';
    const where = invalid ? ((exception.details ?? {}) as { loc?: unknown; line?: number | null; construct?: string | null }) : {};
    return {
      success: false,
      ...codaError(detail, invalid && where.loc === undefined),
      ...(where.line ? { line: where.line, ...(where.construct ? { construct: where.construct } : {}) } : {}),
      ...(error_id ? { error_id } : {}),
    };
  }
}

type ValidationIssue = { loc: (string | number)[]; msg: string; type: string };

/**
 * `error` (a string) and `detail` of a coda failure body. A validation problem that named no field (a
 * circuit that does not parse, refused by the broker) is located at the body, not at a field it did not name.
 */
export function codaError(detail: unknown, unlocated = false): { error: string; detail: unknown } {
  if (Array.isArray(detail)) {
    const issues = (detail as ValidationIssue[]).map((d) => (unlocated ? { ...d, loc: ['body'] } : d));
    return { error: issues.map((d) => d.msg).join('; '), detail: issues };
  }
  const error = typeof detail === 'string' ? detail : 'Bad Request';
  return { error, detail: error };
}
