import { Catch } from '@nestjs/common';
import { RpcError } from '#qdc/contracts';
import { ApiExceptionFilter } from '../http/exception.filter.js';

/**
 * Coda routes answer failures as `{success: false, error}` (SPEC §4) with the statuses, headers and
 * error ids of the control API's filter; `detail` repeats the message for clients that read
 * FastAPI-style bodies, and parse errors add the source `line` and `construct`.
 */
@Catch()
export class CodaExceptionFilter extends ApiExceptionFilter {
  protected override render(body: unknown, exception: unknown): unknown {
    const { detail, error_id } = (body ?? {}) as { detail?: unknown; error_id?: string };
    const error = typeof detail === 'string' ? detail : Array.isArray(detail) ? detail.map((d: { msg?: string }) => d.msg).join('; ') : 'Bad Request';
    const where =
      exception instanceof RpcError && exception.code === 'invalid_input'
        ? ((exception.details ?? {}) as { line?: number | null; construct?: string | null })
        : {};
    return {
      success: false,
      error,
      detail: error,
      ...(where.line ? { line: where.line, ...(where.construct ? { construct: where.construct } : {}) } : {}),
      ...(error_id ? { error_id } : {}),
    };
  }
}
