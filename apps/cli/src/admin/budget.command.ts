import { QpuRpc, type QpuBudgetDto } from '#qdc/contracts';
import { connectNatsClient, loadConfig } from '#qdc/platform';
import { UsageError, parseCommandLine } from '../cli-args.js';

const show = (b: QpuBudgetDto): string =>
  `owner ${b.owner}: budget ${b.budget_cents === null ? 'unlimited' : `${b.budget_cents} cents`}, spent ${b.spent_cents}, reserved by queued/running jobs ${b.reserved_cents}, remaining ${b.remaining_cents === null ? 'unlimited' : b.remaining_cents}`;

/**
 * `qdc budget …`: the same NATS requests as `/v0/admin/budgets`, answered by the running qpu-broker (the owner of
 * the budget tables), like `qdc stream` is answered by lab-streams.
 */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { owner: { type: 'string' }, cents: { type: 'string' }, unlimited: { type: 'boolean' } });
  const [command] = positionals;
  if (command !== 'set' && command !== 'show') throw new UsageError(command ? `unknown command budget ${command}` : 'expected budget set or budget show');
  if (!values.owner) throw new UsageError(`budget ${command} needs --owner`);
  let cents: number | null = null;
  if (command === 'set') {
    if (values.unlimited === (values.cents !== undefined)) throw new UsageError('budget set needs exactly one of --cents <n> and --unlimited');
    cents = values.unlimited ? null : Number(values.cents);
    if (cents !== null && !(Number.isInteger(cents) && cents >= 0)) throw new UsageError(`--cents must be a non-negative integer; got '${values.cents}'`);
  }
  const { rpc, close } = await connectNatsClient(loadConfig(), 'qdc-cli');
  try {
    const budget =
      command === 'set'
        ? await rpc.call(QpuRpc.setBudget, { ownerName: values.owner, budgetCents: cents })
        : await rpc.call(QpuRpc.getBudget, { ownerName: values.owner });
    console.log(show(budget));
    return 0;
  } finally {
    await close();
  }
}
