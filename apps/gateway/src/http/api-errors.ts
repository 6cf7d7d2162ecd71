import { HttpException, HttpStatus } from '@nestjs/common';

/** One FastAPI-style validation problem: where, what was expected and what came. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** 422 with `{"detail": [{loc, msg, type}, ...]}`, as FastAPI answers. */
export class ValidationFailed extends HttpException {
  constructor(readonly issues: ValidationIssue[]) {
    super({ detail: issues }, HttpStatus.UNPROCESSABLE_ENTITY);
  }
}

export const invalid = (loc: (string | number)[], msg: string, type = 'value_error'): ValidationFailed => new ValidationFailed([{ loc, msg, type }]);

/** `{"detail": "..."}` with any status. */
export class ApiError extends HttpException {
  constructor(
    status: number,
    detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super({ detail }, status);
  }
}
