import { readFileSync, writeFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { UsageError, intOption, parseCommandLine } from '../cli-args.js';
import { CONNECTION_OPTIONS, formatTable, printJson, userClient } from './user-client.js';

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  skip: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
  plot: { type: 'string' },
  dark: { type: 'boolean' },
} as const;

/** A `data:` URL's media type and bytes. */
export function decodeDataUrl(url: string): { mediaType: string; bytes: Buffer } {
  const match = /^data:([^;,]*)((?:;[^;,]*)*?)(;base64)?,(.*)$/s.exec(url);
  if (!match) throw new Error(`the plot is not a data: URL (starts '${url.slice(0, 30)}')`);
  const [, mediaType, , base64, payload] = match;
  return { mediaType: mediaType || 'text/plain', bytes: base64 ? Buffer.from(payload!, 'base64') : Buffer.from(decodeURIComponent(payload!)) };
}

const EXTENSIONS: Record<string, string> = { 'image/svg+xml': '.svg', 'image/png': '.png', 'image/jpeg': '.jpg' };

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [command, ...args] = positionals;
  switch (command) {
    case 'list': {
      const models = await userClient(values).models.list({ skip: intOption(values.skip, '--skip'), limit: intOption(values.limit, '--limit', 1, 1000) });
      if (values.json) printJson(models);
      else console.log(formatTable([['MODEL', 'RUNS', 'INPUT'], ...models.map((m) => [m.id, String(m.number_of_runs), m.input_shape_requirements])]));
      return 0;
    }
    case 'get': {
      if (args.length !== 1) throw new UsageError('models get needs a model id');
      printJson(await userClient(values).models.get(args[0]!));
      return 0;
    }
    case 'run':
    case 'batch': {
      if (args.length !== 2) throw new UsageError(`models ${command} needs <model> <file>`);
      const [model, file] = args as [string, string];
      const data = new Uint8Array(readFileSync(file));
      const client = userClient(values);
      if (command === 'batch') {
        printJson(await client.models.runBatch({ model, data, fileName: basename(file) }));
        return 0;
      }
      const result = await client.models.run({ model, data, fileName: basename(file), plot: values.plot !== undefined, darkMode: values.dark });
      const { plot, ...output } = result.output;
      if (values.plot !== undefined && typeof plot === 'string') {
        const image = decodeDataUrl(plot);
        writeFileSync(values.plot, image.bytes);
        const expected = EXTENSIONS[image.mediaType];
        const note = expected && extname(values.plot).toLowerCase() !== expected ? ` (the figure is ${image.mediaType}; ${expected} would name it)` : '';
        console.error(`plot written to ${values.plot}: ${image.mediaType}, ${image.bytes.length} bytes${note}`);
        printJson({ ...result, output });
      } else printJson(result);
      return 0;
    }
    default:
      throw new UsageError(command ? `unknown command models ${command}` : 'expected models list, get, run or batch');
  }
}
