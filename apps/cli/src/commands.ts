/**
 * The command groups of `qdc`, their usage and where their code is. A group's module is imported only when the
 * group runs, so `--help` (and every user command) never loads Nest, Prisma or a NATS client, let alone connects.
 */
export interface CommandModule {
  /** Runs the group's command line (after the group's name); answers the exit code. */
  run(argv: string[]): Promise<number>;
}

export interface CommandGroup {
  name: string;
  usage: string;
  load(): Promise<CommandModule>;
}

const USER_OPTIONS = `      every user command: [--url <server root>] [--key <api key>] (QDC_URL, default http://127.0.0.1:8000;
      QDC_API_KEY, else the development key in $QDC_DATA_DIR/dev-key, .qdc/dev-key, written by npm start)`;

export const USER_GROUPS: CommandGroup[] = [
  {
    name: 'models',
    usage: `  qdc models list [--skip <n>] [--limit <n>] [--json]
  qdc models get <model>
  qdc models run <model> <file.npy|.pt> [--plot <out.svg|.png>] [--dark]   prints the result JSON; --plot writes the figure
  qdc models batch <model> <file.npy|.pt>                                   a (batch_size, trace_length) array`,
    load: () => import('./user/models.command.js'),
  },
  {
    name: 'results',
    usage: `  qdc results list [--model <id>] [--since <date>] [--until <date>] [--skip <n>] [--limit <n>] [--json]
  qdc results get <id>
  qdc results download <id> [-o <file.zip>]                                result.json + the input file (default <id>.zip)
  qdc results delete <id>`,
    load: () => import('./user/results.command.js'),
  },
  {
    name: 'qpus',
    usage: `  qdc qpus list [--json]
  qdc qpus submit <file.qasm|.py> --backend <device> [--shots <10-10000>] [--wait] [--accept-overage]
                  [--idempotency-key <key>] [--framework <qiskit|cirq|openqasm2|openqasm3>] [--entry-point <function>]
      without --wait prints the submission; with it, each status change (stderr), then the counts (stdout)
  qdc qpus status <job-id>
  qdc qpus cancel <job-id>
  qdc qpus jobs [--status <status>] [--device <id>] [--skip <n>] [--limit <n>] [--json]`,
    load: () => import('./user/qpus.command.js'),
  },
  {
    name: 'chat',
    usage: `  qdc chat "<request>" [--thread <id>] [--budget low|medium|high] [--files]
      streams the assistant's answer to stdout (--files: code as files after the text); the thread id goes to stderr`,
    load: () => import('./user/chat.command.js'),
  },
];

export const ADMIN_GROUPS: CommandGroup[] = [
  {
    name: 'keys',
    usage: `  qdc keys create --name <name> [--owner <owner>] [--scopes control,coda,admin]
  qdc keys list [--owner <owner>]
  qdc keys revoke <key-id>`,
    load: () => import('./admin/keys.command.js'),
  },
  {
    name: 'budget',
    usage: `  qdc budget set --owner <owner> (--cents <n> | --unlimited)
  qdc budget show --owner <owner>`,
    load: () => import('./admin/budget.command.js'),
  },
  {
    name: 'node',
    usage: `  qdc node start --device <device.json> [--simulate] [--lab <lab>] [--node-id <id>] [--credentials <lab.credentials.json>]
      runs a lab node: registers the device, heartbeats, executes its QPU jobs (NATS_URL, QDC_NAMESPACE)`,
    load: () => import('./admin/node.command.js'),
  },
  {
    name: 'lab',
    usage: `  qdc lab add --owner <lab> [--dir <auth dir>]      NATS identity of a lab: writes <dir>/<lab>.credentials.json and <dir>/auth.conf
  qdc lab remove --owner <lab> [--dir <auth dir>]   revokes the lab's NATS user, removes its devices and deletes its job and frame streams
  qdc lab list [--dir <auth dir>]                   (auth dir: QDC_NATS_AUTH_DIR, default ./nats-auth; namespace: QDC_NAMESPACE)`,
    load: () => import('./admin/lab.command.js'),
  },
  {
    name: 'stream',
    usage: `  qdc stream create --owner <lab> --name <stream> --models <id,id> [--max-in-flight <n>] [--max-lag-ms <ms>]
  qdc stream list [--owner <lab>]
  qdc stream delete --owner <lab> --name <stream>`,
    load: () => import('./admin/stream.command.js'),
  },
  {
    name: 'backup',
    usage: `  qdc backup create <dir>             Postgres (one snapshot) + the lab-stream definitions (NATS KV) into a new directory
  qdc backup restore <dir> [--force]  into an empty system (--force: replace what the target holds); services stopped
      (DATABASE_URL, NATS_URL, QDC_NAMESPACE; docs/operations/backup.md)`,
    load: () => import('./backup/backup.command.js'),
  },
];

export const USAGE = `usage:
 user commands (over the HTTP API, like any client):
${USER_GROUPS.map((g) => g.usage).join('\n')}
${USER_OPTIONS}
 admin commands (next to the services: keys against Postgres; backup against Postgres and NATS; budget, lab, stream over NATS to the running services):
${ADMIN_GROUPS.map((g) => g.usage).join('\n')}
 qdc <command> --help shows one command's usage`;

export const GROUPS = new Map([...USER_GROUPS, ...ADMIN_GROUPS].map((g) => [g.name, g]));

export function groupUsage(group: CommandGroup): string {
  return `usage:\n${group.usage}${USER_GROUPS.includes(group) ? `\n${USER_OPTIONS}` : ''}`;
}
