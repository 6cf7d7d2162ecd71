import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { LAB_ID_PATTERN } from '#qdc/contracts';
import { LabNodeConfigError, loadLabNodeEnv, startLabNode, type LabCredentials } from '#qdc/lab';
import { UsageError, parseCommandLine } from '../cli-args.js';

/** `qdc node start …`: a lab node (libs/lab) until SIGINT/SIGTERM. It needs only NATS (it runs in the lab, without the database). */
export async function run(argv: string[], processEnv: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, {
    device: { type: 'string' },
    simulate: { type: 'boolean', default: false },
    lab: { type: 'string' },
    'node-id': { type: 'string' },
    credentials: { type: 'string' },
  });
  if (positionals[0] !== 'start') throw new UsageError(positionals[0] ? `unknown command node ${positionals[0]}` : 'expected node start');
  if (!values.device) throw new UsageError('node start needs --device <device.json>');
  try {
    const env = loadLabNodeEnv(processEnv);
    const credentials = values.credentials ? (JSON.parse(readFileSync(values.credentials, 'utf8')) as LabCredentials) : undefined;
    const device = JSON.parse(readFileSync(values.device, 'utf8')) as { lab?: string };
    const lab = values.lab ?? credentials?.lab ?? env.QDC_LAB ?? device.lab;
    if (!lab || !LAB_ID_PATTERN.test(lab))
      throw new UsageError(
        `the lab is ${lab ? `'${lab}', not a valid lab id` : 'unknown'}: pass --lab, --credentials, QDC_LAB or a "lab" field in the device file`,
      );
    const node = await startLabNode({
      devicePath: values.device,
      simulate: values.simulate ?? false,
      lab,
      nodeId: values['node-id'] ?? `${hostname()}-${process.pid}`,
      natsUrl: env.NATS_URL ?? credentials?.nats_url ?? 'nats://127.0.0.1:4222',
      namespace: env.QDC_NAMESPACE ?? credentials?.namespace ?? 'qdc',
      user: env.NATS_USER,
      password: env.NATS_PASSWORD,
      nkeySeed: credentials?.nkey_seed,
      timeScale: env.QDC_QPU_TIME_SCALE,
    });
    await new Promise<void>((r) => {
      process.once('SIGINT', r);
      process.once('SIGTERM', r);
    });
    await node.stop();
    return 0;
  } catch (error) {
    // A bad environment or a device file without an executor is the command's usage error (exit 2), reported before any connection.
    if (error instanceof LabNodeConfigError) throw new UsageError(error.message);
    throw error;
  }
}
