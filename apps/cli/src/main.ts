import { QdcApiError, QdcTransportError } from '@qdc/client';
import { UsageError, asksForHelp, flushStdout } from './cli-args.js';
import { GROUPS, USAGE, groupUsage } from './commands.js';

/**
 * `qdc` (`npm run qdc -- …`, `node dist/apps/cli/src/main.js …`): user commands over the HTTP API through
 * @qdc/client, and the admin commands that run next to the services (keys, budgets, lab nodes and identities, live
 * streams). Exit codes: 0 done, 1 failed (the server's or the system's error), 2 the command line is wrong.
 */
async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    if (name) console.log(USAGE);
    else console.error(USAGE);
    return name ? 0 : 2;
  }
  const group = GROUPS.get(name);
  if (!group) {
    console.error(`unknown command '${name}'\n${USAGE}`);
    return 2;
  }
  if (asksForHelp(rest)) {
    console.log(groupUsage(group));
    return 0;
  }
  try {
    return await (await group.load()).run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n${groupUsage(group)}`);
      return 2;
    }
    throw error;
  }
}

function describe(error: unknown): string {
  if (error instanceof QdcApiError || error instanceof QdcTransportError) {
    return `error: ${error.message}${error.requestId ? `\nrequest id: ${error.requestId}` : ''}`;
  }
  return `error: ${(error as Error)?.message ?? String(error)}`;
}

main(process.argv.slice(2))
  .catch((error: unknown) => {
    console.error(describe(error));
    return 1;
  })
  // Exit explicitly: an admin command's Nest context or NATS connection may hold the event loop after its work.
  .then(async (code) => {
    await flushStdout();
    process.exit(code);
  });
