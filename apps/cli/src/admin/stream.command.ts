import { LabStreamsRpc, RpcError, type LabStreamDto } from '#qdc/contracts';
import { connectNatsClient, loadConfig } from '#qdc/platform';
import { UsageError, intOption, parseCommandLine } from '../cli-args.js';

function describe(dto: LabStreamDto): string {
  return [
    `stream ${dto.lab}/${dto.name}: models ${dto.models.join(', ')} (${dto.max_in_flight} frames in flight${dto.max_lag_ms ? `, frames older than ${dto.max_lag_ms} ms dropped` : ''})`,
    `  publish frames on   ${dto.subjects.frames}   (header Nats-Msg-Id = frame id)`,
    `  results arrive on   ${dto.subjects.results}`,
  ].join('\n');
}

/** `qdc stream …`: the same NATS requests as `/v0/admin/lab-streams`, answered by the running lab-streams service. */
export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    owner: { type: 'string' },
    name: { type: 'string' },
    models: { type: 'string' },
    'max-in-flight': { type: 'string' },
    'max-lag-ms': { type: 'string' },
  });
  const command = positionals[0];
  if (command !== 'create' && command !== 'list' && command !== 'delete') throw new UsageError('expected stream create, stream list or stream delete');
  if (command !== 'list' && (!values.owner || !values.name)) throw new UsageError(`stream ${command} needs --owner <lab> and --name <stream>`);
  if (command === 'create' && !values.models) throw new UsageError('stream create needs --models <id,id>');
  const { rpc, close } = await connectNatsClient(loadConfig(), 'qdc-cli');
  try {
    if (command === 'create') {
      const dto = await rpc.call(LabStreamsRpc.create, {
        lab: values.owner!,
        name: values.name!,
        models: values
          .models!.split(',')
          .map((m) => m.trim())
          .filter(Boolean),
        max_in_flight: intOption(values['max-in-flight'], '--max-in-flight'),
        max_lag_ms: intOption(values['max-lag-ms'], '--max-lag-ms'),
      });
      console.log(describe(dto));
    } else if (command === 'list') {
      const rows = await rpc.call(LabStreamsRpc.list, { lab: values.owner });
      for (const dto of rows) console.log(describe(dto));
      if (rows.length === 0) console.log('no streams');
    } else {
      const { deleted } = await rpc.call(LabStreamsRpc.delete, { lab: values.owner!, name: values.name });
      console.log(`deleted stream ${values.owner}/${deleted.join(', ')}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof RpcError && error.code === 'invalid_input') throw new UsageError(error.message);
    throw error;
  } finally {
    await close();
  }
}
