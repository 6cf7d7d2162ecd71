import { readFileSync } from 'node:fs';
import type { QpuStatusResponse } from '@qdc/client';
import { UsageError, intOption, parseCommandLine } from '../cli-args.js';
import { CONNECTION_OPTIONS, formatTable, printJson, userClient } from './user-client.js';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  backend: { type: 'string' },
  shots: { type: 'string' },
  wait: { type: 'boolean' },
  'accept-overage': { type: 'boolean' },
  'idempotency-key': { type: 'string' },
  framework: { type: 'string' },
  'entry-point': { type: 'string' },
  status: { type: 'string' },
  device: { type: 'string' },
  skip: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** One line per status change of a waited job (stderr: stdout carries the counts). */
function describeStatus(s: QpuStatusResponse): string {
  const extra =
    s.status === 'queued' && s.queue_position !== undefined
      ? ` (queue position ${s.queue_position})`
      : s.status === 'completed' && s.cost_cents !== null
        ? ` (cost ${s.cost_cents} cents)`
        : s.error
          ? `: ${s.error}`
          : '';
  return `job ${s.job_id}: ${s.status}${extra}`;
}

/** Counts with the bitstrings in order, as JSON. */
function sortedCounts(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [command, ...args] = positionals;
  const jobId = (): string => {
    if (args.length !== 1) throw new UsageError(`qpus ${command} needs a job id`);
    return args[0]!;
  };
  switch (command) {
    case 'list': {
      const { devices } = await userClient(values).qpus.list();
      if (values.json) printJson(devices);
      else
        console.log(
          formatTable([
            ['DEVICE', 'PROVIDER', 'QUBITS', 'STATUS', 'QUEUE', 'PRICE'],
            ...devices.map((d) => [
              d.id,
              d.provider,
              String(d.num_qubits),
              d.status,
              String(d.queue_depth),
              `${d.pricing.per_task_cents}¢/task + ${d.pricing.per_shot_cents}¢/shot`,
            ]),
          ]),
        );
      return 0;
    }
    case 'submit': {
      if (args.length !== 1) throw new UsageError('qpus submit needs a circuit file (OpenQASM 2/3, Qiskit or Cirq Python)');
      if (!values.backend) throw new UsageError('qpus submit needs --backend <device> (qdc qpus list)');
      const client = userClient(values);
      const submitted = await client.qpus.submit(
        {
          code: readFileSync(args[0]!, 'utf8'),
          backend: values.backend,
          shots: intOption(values.shots, '--shots', 10, 10_000),
          accept_overage: values['accept-overage'] ?? false,
          ...(values.framework ? { source_framework: values.framework } : {}),
          ...(values['entry-point'] ? { entry_point: values['entry-point'] } : {}),
        },
        { idempotencyKey: values['idempotency-key'] },
      );
      if (!values.wait) {
        printJson(submitted);
        return 0;
      }
      console.error(
        `job ${submitted.job_id}: submitted to ${submitted.backend}, ${submitted.shots} shots, estimated ${submitted.estimated_cost_cents} cents${submitted.idempotent_replay ? ' (the earlier submission under this idempotency key)' : ''}`,
      );
      const done = await client.qpus.wait(submitted.job_id, { onStatus: (s) => console.error(describeStatus(s)) });
      const counts = done.results ?? done.counts;
      if (done.status !== 'completed' || !counts) return 1;
      printJson(sortedCounts(counts));
      return 0;
    }
    case 'status':
      printJson(await userClient(values).qpus.status(jobId()));
      return 0;
    case 'cancel': {
      const answer = await userClient(values).qpus.cancel(jobId());
      console.log(`job ${answer.job_id}: ${answer.status}`);
      return 0;
    }
    case 'jobs': {
      const { jobs } = await userClient(values).qpus.jobs({
        status: values.status as QpuStatusResponse['status'] | undefined,
        device: values.device,
        skip: intOption(values.skip, '--skip'),
        limit: intOption(values.limit, '--limit', 1, 1000),
      });
      if (values.json) printJson(jobs);
      else if (jobs.length === 0) console.log('no jobs');
      else
        console.log(
          formatTable([['JOB', 'DEVICE', 'STATUS', 'SHOTS', 'SUBMITTED'], ...jobs.map((j) => [j.job_id, j.device, j.status, String(j.shots), j.submitted_at])]),
        );
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command qpus ${command}` : 'expected qpus list, submit, status, cancel or jobs');
  }
}
