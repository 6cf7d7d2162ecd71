import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import type { QpuBudgetDto } from '#qdc/contracts';
import { ConfigModule, PrismaService } from '#qdc/platform';
import { QpuJobsRepository } from '../jobs/qpu-jobs.repository.js';
import { BudgetsService } from './budgets.service.js';

/** The broker's own budget code against Postgres (it owns the table), for `npm run qdc -- budget …`. */
@Module({
  imports: [ConfigModule.forService('qdc-cli')],
  providers: [PrismaService, QpuJobsRepository, BudgetsService],
})
class BudgetCliModule {}

export const BUDGET_USAGE = `  qdc budget set --owner <owner> (--cents <n> | --unlimited)
  qdc budget show --owner <owner>`;

export class BudgetUsageError extends Error {}

const show = (b: QpuBudgetDto): string =>
  `owner ${b.owner}: budget ${b.budget_cents === null ? 'unlimited' : `${b.budget_cents} cents`}, spent ${b.spent_cents}, reserved by queued/running jobs ${b.reserved_cents}, remaining ${b.remaining_cents === null ? 'unlimited' : b.remaining_cents}`;

/** Runs `budget <command>`; the database is already migrated by the caller. Returns the exit code. */
export async function runBudgetCommand(argv: string[]): Promise<number> {
  const config = {
    args: argv,
    allowPositionals: true,
    options: { owner: { type: 'string' }, cents: { type: 'string' }, unlimited: { type: 'boolean' } },
  } as const;
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    throw new BudgetUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [command] = positionals;
  if (!values.owner) throw new BudgetUsageError(`budget ${command ?? ''} needs --owner`);
  const app = await NestFactory.createApplicationContext(BudgetCliModule, { logger: ['error'] });
  try {
    const budgets = app.get(BudgetsService);
    switch (command) {
      case 'set': {
        if (values.unlimited === (values.cents !== undefined)) throw new BudgetUsageError('budget set needs exactly one of --cents <n> and --unlimited');
        const cents = values.unlimited ? null : Number(values.cents);
        if (cents !== null && !(Number.isInteger(cents) && cents >= 0))
          throw new BudgetUsageError(`--cents must be a non-negative integer; got '${values.cents}'`);
        console.log(show(await budgets.set(values.owner, cents)));
        return 0;
      }
      case 'show':
        console.log(show(await budgets.get(values.owner)));
        return 0;
      default:
        throw new BudgetUsageError(`unknown command budget ${command ?? ''}`);
    }
  } finally {
    await app.close();
  }
}
