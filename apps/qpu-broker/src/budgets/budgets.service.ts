import { Injectable } from '@nestjs/common';
import { RpcError, type QpuBudgetDto } from '#qdc/contracts';
import { remainingCents } from '../jobs/job-cost.js';
import { QpuJobsRepository } from '../jobs/qpu-jobs.repository.js';

/** Owner budgets for QPU jobs: set by admin keys or the CLI; spending is recorded as jobs complete. */
@Injectable()
export class BudgetsService {
  constructor(private readonly jobs: QpuJobsRepository) {}

  private async ownerId(ownerName: string): Promise<string> {
    const id = await this.jobs.ownerIdByName(ownerName);
    if (!id) throw new RpcError('not_found', `no owner named '${ownerName}' (owners are created with their first API key)`);
    return id;
  }

  async set(ownerName: string, budgetCents: number | null): Promise<QpuBudgetDto> {
    await this.jobs.setBudget(await this.ownerId(ownerName), budgetCents);
    return this.get(ownerName);
  }

  async get(ownerName: string): Promise<QpuBudgetDto> {
    const budget = await this.jobs.budget(await this.ownerId(ownerName));
    return {
      owner: ownerName,
      budget_cents: budget.budgetCents,
      spent_cents: budget.spentCents,
      reserved_cents: budget.reservedCents,
      remaining_cents: remainingCents(budget),
    };
  }
}
