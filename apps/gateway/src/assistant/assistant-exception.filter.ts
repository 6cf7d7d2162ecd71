import { Catch } from '@nestjs/common';
import { codaError } from '../coda/coda-exception.filter.js';
import { ApiExceptionFilter } from '../http/exception.filter.js';

/**
 * Failures of the assistant routes before the stream starts: the coda shape `{success: false, error}`
 * plus FastAPI's `detail` as is (a list of `{loc, msg, type}` for validation errors).
 */
@Catch()
export class AssistantExceptionFilter extends ApiExceptionFilter {
  protected override render(body: unknown): unknown {
    const { detail, error_id } = (body ?? {}) as { detail?: unknown; error_id?: string };
    return { success: false, ...codaError(detail), ...(error_id ? { error_id } : {}) };
  }
}
