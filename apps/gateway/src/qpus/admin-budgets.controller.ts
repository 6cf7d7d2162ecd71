import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { RequireScope } from '../auth/auth.decorators.js';
import { QpusService } from './qpus.service.js';

/** QPU budgets over HTTP for `admin` keys (the CLI `qdc budget …` does the same): `{"budget_cents": 5000 | null}`. */
@Controller('v0/admin/budgets')
@RequireScope('admin')
export class AdminBudgetsController {
  constructor(private readonly qpus: QpusService) {}

  @Get(':owner')
  get(@Param('owner') owner: string) {
    return this.qpus.getBudget(owner);
  }

  @Put(':owner')
  set(@Param('owner') owner: string, @Body() body: unknown) {
    return this.qpus.setBudget(owner, body);
  }
}
