import { writeFileSync } from 'node:fs';
import { UsageError, intOption, parseCommandLine } from '../cli-args.js';
import { CONNECTION_OPTIONS, formatTable, printJson, userClient } from './user-client.js';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  model: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  skip: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  output: { type: 'string', short: 'o' },
} as const;

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [command, ...args] = positionals;
  const one = (): string => {
    if (args.length !== 1) throw new UsageError(`results ${command} needs a result id`);
    return args[0]!;
  };
  switch (command) {
    case 'list': {
      const rows = await userClient(values).results.list({
        skip: intOption(values.skip, '--skip'),
        limit: intOption(values.limit, '--limit', 1, 1000),
        model_str_id: values.model,
        start_date: values.since,
        end_date: values.until,
      });
      if (values.json) printJson(rows);
      else if (rows.length === 0) console.log('no results');
      else console.log(formatTable([['ID', 'MODEL', 'CREATED'], ...rows.map((r) => [r.id, r.model, r.created_at])]));
      return 0;
    }
    case 'get':
      printJson(await userClient(values).results.get(one()));
      return 0;
    case 'download': {
      const id = one();
      const zip = await userClient(values).results.download(id);
      const file = values.output ?? `${id}.zip`;
      writeFileSync(file, zip);
      console.error(`wrote ${file} (${zip.length} bytes: result.json and the input file)`);
      return 0;
    }
    case 'delete': {
      const answer = await userClient(values).results.delete(one());
      console.log(answer.detail);
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command results ${command}` : 'expected results list, get, download or delete');
  }
}
