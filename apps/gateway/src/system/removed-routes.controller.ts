import { Controller, HttpCode, Post } from '@nestjs/common';
import { Public } from '../auth/auth.decorators.js';
import { ApiError } from '../http/api-errors.js';

/** `/search` and `/fetch` were removed from the API (SPEC §1): 410 under every base. */
@Controller(['', 'v0', 'v0/control', 'v0/coda'])
@Public()
export class RemovedRoutesController {
  @Post(['search', 'fetch'])
  @HttpCode(410)
  gone(): never {
    throw new ApiError(
      410,
      'This endpoint was removed from the API and is no longer available (POST /search and /fetch are gone; use GET /model-results to find results).',
    );
  }
}
