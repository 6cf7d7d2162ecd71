import { resolve } from 'node:path';
import { LAB_ID_PATTERN, LabStreamsRpc, QpuRpc, labJobStream } from '#qdc/contracts';
import { LabAuthError, addLab, listLabs, removeLab } from '#qdc/lab';
import { connectNatsClient, loadConfig } from '#qdc/platform';
import { UsageError, parseCommandLine } from '../cli-args.js';

/** Deletes a lab's JetStream state: its job stream (with the device consumers) and its live streams (through lab-streams). */
async function removeLabStreams(lab: string): Promise<string[]> {
  const config = loadConfig();
  const { connection, rpc, close } = await connectNatsClient(config, 'qdc-cli');
  try {
    const removed: string[] = [];
    // First the broker forgets the lab's devices (lab_devices rows, liveness, every replica's device list).
    const { devices, failedJobs } = await rpc.call(QpuRpc.removeLabDevices, { lab });
    if (devices.length) removed.push(`device(s) ${devices.join(', ')}${failedJobs ? ` (${failedJobs} queued job(s) failed)` : ''}`);
    const jsm = await connection.jetstreamManager();
    if (await jsm.streams.delete(labJobStream(config.QDC_NAMESPACE, lab)).catch(() => false))
      removed.push(`job stream ${labJobStream(config.QDC_NAMESPACE, lab)}`);
    const { deleted } = await rpc.call(LabStreamsRpc.delete, { lab });
    for (const name of deleted) removed.push(`stream ${name}`);
    return removed;
  } finally {
    await close();
  }
}

/** `qdc lab add|remove|list`: per-lab NATS identities (libs/lab) and, on removal, the lab's devices and streams. */
export async function run(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const { values, positionals } = parseCommandLine(argv, { owner: { type: 'string' }, dir: { type: 'string' } });
  const dir = resolve(values.dir ?? env.QDC_NATS_AUTH_DIR ?? 'nats-auth');
  const namespace = env.QDC_NAMESPACE ?? 'qdc';
  try {
    switch (positionals[0]) {
      case 'add': {
        if (!values.owner) throw new UsageError('lab add needs --owner <lab>');
        const written = addLab(dir, namespace, values.owner);
        console.log(`lab ${values.owner}: credentials written to ${written.credentials} (give this file to the lab's node: --credentials)`);
        console.log(`nats-server authorization written to ${written.authConf} (include it from nats-server.conf, then: nats-server --signal reload)`);
        if (written.servicesUrlHint) console.log(`QDC services connect with NATS_URL=${written.servicesUrlHint}`);
        return 0;
      }
      case 'remove': {
        if (!values.owner) throw new UsageError('lab remove needs --owner <lab>');
        if (!LAB_ID_PATTERN.test(values.owner)) throw new UsageError(`lab '${values.owner}' must be lower-case letters, digits, dashes and underscores`);
        const revoked = removeLab(dir, namespace, values.owner);
        if (revoked)
          console.log(`lab ${values.owner}: NATS user removed from ${revoked.authConf} (apply: nats-server --signal reload); credentials file deleted`);
        else console.log(`lab ${values.owner} has no credentials in ${dir}`);
        const removed = await removeLabStreams(values.owner);
        console.log(`lab ${values.owner}: removed ${removed.length ? removed.join(', ') : 'no JetStream streams'}`);
        return 0;
      }
      case 'list': {
        const labs = listLabs(dir);
        for (const entry of labs) console.log(`${entry.lab.padEnd(20)} ${entry.publicKey}  added ${entry.addedAt}`);
        if (labs.length === 0) console.log('no labs');
        return 0;
      }
      default:
        throw new UsageError(positionals[0] ? `unknown command lab ${positionals[0]}` : 'expected lab add, lab remove or lab list');
    }
  } catch (error) {
    if (error instanceof LabAuthError) throw new UsageError(error.message);
    throw error;
  }
}
