import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { jetstream, type JsMsg } from '@nats-io/jetstream';
import { connect, nkeyAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { LabJobMessage, LabRegisterResponse, LabReportAck, labSubjects, natsServerOptions, type LabReport } from '#qdc/contracts';
import { ExecutorSpec, commandExecutor, httpExecutor, simulatorExecutor, type Executor } from './lab-executors.js';

/** A setting of the node that cannot work (its environment, a device file without an executor): the command's usage error. */
export class LabNodeConfigError extends Error {}

const optional = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

/**
 * The node's environment, read once and validated (flags and the credentials file come first where both exist). A
 * bad value stops the node with the variable's name, instead of, say, a NaN time scale.
 */
const LabNodeEnvSchema = z.object({
  QDC_LAB: optional,
  NATS_URL: optional,
  QDC_NAMESPACE: optional,
  NATS_USER: optional,
  NATS_PASSWORD: optional,
  QDC_QPU_TIME_SCALE: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().nonnegative().default(1)),
});
export type LabNodeEnv = z.infer<typeof LabNodeEnvSchema>;

export function loadLabNodeEnv(env: NodeJS.ProcessEnv = process.env): LabNodeEnv {
  const parsed = LabNodeEnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message} (got '${env[String(issue.path[0])]}')`);
  throw new LabNodeConfigError(`invalid environment:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

export interface LabNodeOptions {
  devicePath: string;
  simulate: boolean;
  lab: string;
  nodeId: string;
  natsUrl: string;
  namespace: string;
  user?: string;
  password?: string;
  /** The lab's nkey seed (`qdc lab add` credentials file). */
  nkeySeed?: string;
  timeScale: number;
  log?: (line: string) => void;
}

/** Lab credentials written by `qdc lab add` (NATS user limited to the lab's subjects). */
export interface LabCredentials {
  lab: string;
  nkey_seed: string;
  nats_url?: string;
  namespace?: string;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/**
 * A lab node (SPEC §6): registers its device with the broker, heartbeats, and takes its device's jobs one at
 * a time from the durable JetStream pull consumer the broker created. Per job: report `running` (the broker
 * says whether to run it: a cancelled or finished job is not), execute (progress acks keep the delivery while
 * it runs), report counts or the error, and acknowledge the message only after the broker stored the report.
 * A node killed mid-job leaves the message unacknowledged: JetStream redelivers it after the ack wait.
 */
export async function startLabNode(options: LabNodeOptions): Promise<{ stop(): Promise<void>; nodeId: string }> {
  const log = options.log ?? ((line: string) => console.log(`${new Date().toISOString()} lab-node ${options.nodeId}: ${line}`));
  const deviceFile = JSON.parse(readFileSync(options.devicePath, 'utf8')) as Record<string, unknown> & {
    id: string;
    shot_time_us: number;
    noise?: unknown;
    executor?: unknown;
  };
  const executor = makeExecutor(deviceFile, options, dirname(resolve(options.devicePath)));
  const server = natsServerOptions(options.natsUrl);
  const nc = await connect({
    servers: server.servers,
    name: `lab-node-${options.lab}-${options.nodeId}`,
    ...(options.nkeySeed
      ? { authenticator: nkeyAuthenticator(new TextEncoder().encode(options.nkeySeed)) }
      : { user: options.user ?? server.user, pass: options.password ?? server.pass }),
    // Replies come to the lab's own inbox prefix, the only inboxes its NATS user may subscribe to.
    inboxPrefix: `_INBOX_${options.lab}`,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
  });
  const subjects = labSubjects(options.namespace, options.lab);
  const { executor: _executor, lab: _lab, ...device } = deviceFile;
  const registration = LabRegisterResponse.parse(await request(nc, subjects.register, { node_id: options.nodeId, device }, 'registration', log));
  log(
    `registered device ${registration.device_id} (lab ${options.lab}); taking jobs from ${registration.stream}/${registration.consumer}${options.simulate ? ' on the built-in simulator' : ''}`,
  );

  const beat = () =>
    nc.publish(subjects.heartbeat, JSON.stringify({ node_id: options.nodeId, device_id: registration.device_id, at: new Date().toISOString() }));
  beat();
  const heartbeat = setInterval(beat, registration.heartbeat_ms);
  let stopping = false;
  const consumer = await jetstream(nc).consumers.get(registration.stream, registration.consumer);
  const loop = (async () => {
    while (!stopping) {
      let msg: JsMsg | null = null;
      try {
        msg = await consumer.next({ expires: 2_000 });
      } catch (error) {
        if (!stopping) log(`pull failed: ${(error as Error).message}; retrying`);
        await sleep(500);
      }
      if (msg) await handle(msg);
    }
  })();

  const report = (r: ReportBody) =>
    request(nc, subjects.report, { node_id: options.nodeId, device_id: registration.device_id, ...r }, `${r.type} report`, log).then((a) =>
      LabReportAck.parse(a),
    );

  async function handle(msg: JsMsg): Promise<void> {
    const parsed = LabJobMessage.safeParse(safeJson(msg.data));
    if (!parsed.success) {
      log(`dropping an unreadable job message (seq ${msg.seq})`);
      msg.term();
      return;
    }
    const job = parsed.data;
    const delivery = msg.info.deliveryCount;
    // Progress acks: the delivery stays ours while the job runs, however long it takes.
    const keepalive = setInterval(() => msg.working(), Math.max(200, Math.floor(registration.ack_wait_ms / 3)));
    try {
      const start = await report({ type: 'running', job_id: job.job_id, delivery });
      if (!start.run) {
        log(`job ${job.job_id} is ${start.status}; not running it`);
        await msg.ackAck();
        return;
      }
      log(`job ${job.job_id}: running (${job.circuit.shots} shots, delivery ${delivery})`);
      const started = performance.now();
      let outcome: ReportBody;
      try {
        const counts = await executor(job.circuit, { seed: job.seed, jobId: job.job_id });
        outcome = { type: 'completed', job_id: job.job_id, delivery, counts, elapsed_ms: performance.now() - started };
      } catch (error) {
        outcome = { type: 'failed', job_id: job.job_id, delivery, error: (error as Error).message };
      }
      let ack: LabReportAck;
      try {
        ack = await report(outcome);
      } catch (error) {
        // Counts the broker refuses (wrong width or total) are the executor's fault: a final failure.
        if (outcome.type !== 'completed' || !(error instanceof NodeRpcError) || error.code !== 'invalid_input') throw error;
        ack = await report({ type: 'failed', job_id: job.job_id, delivery, error: error.message });
      }
      log(`job ${job.job_id}: ${outcome.type} → broker stored ${ack.status}`);
      await msg.ackAck();
    } catch (error) {
      // Not stored: leave the message to be redelivered (to this node or another one).
      log(`job ${job.job_id}: ${(error as Error).message}; leaving it for redelivery`);
      msg.nak(1_000);
    } finally {
      clearInterval(keepalive);
    }
  }

  return {
    nodeId: options.nodeId,
    async stop() {
      stopping = true;
      clearInterval(heartbeat);
      await loop;
      await nc.drain().catch(() => undefined);
    },
  };
}

function makeExecutor(device: { shot_time_us: number; noise?: unknown; executor?: unknown }, options: LabNodeOptions, deviceDir: string): Executor {
  if (options.simulate) return simulatorExecutor(device, options.timeScale, sleep);
  const spec = ExecutorSpec.safeParse(device.executor);
  if (!spec.success)
    throw new LabNodeConfigError(
      'the device file names no executor ("executor": {"command": [...]} or {"url": "..."}); pass --simulate to use the built-in simulator',
    );
  return 'command' in spec.data ? commandExecutor(spec.data, deviceDir) : httpExecutor(spec.data);
}

function safeJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(data));
  } catch {
    return undefined;
  }
}

/** A report without the node's and device's ids (added by the node). */
type ReportBody = LabReport extends infer R ? (R extends LabReport ? Omit<R, 'node_id' | 'device_id'> : never) : never;

class NodeRpcError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A request to the broker, retried while no broker answers (restarting); the broker's refusals are thrown. */
async function request(nc: NatsConnection, subject: string, payload: unknown, what: string, log: (line: string) => void): Promise<unknown> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      const msg = await nc.request(subject, JSON.stringify(payload), { timeout: 10_000 });
      const reply = msg.json<{ ok: boolean; data?: unknown; error?: { code: string; message: string } }>();
      if (reply.ok) return reply.data;
      throw new NodeRpcError(reply.error?.code ?? 'internal', `${what} refused: ${reply.error?.message ?? 'no reason given'}`);
    } catch (error) {
      if (error instanceof NodeRpcError) throw error;
      if (attempt % 10 === 0) log(`${what}: ${(error as Error).message}; retrying until the broker answers`);
      await sleep(Math.min(2_000, 100 * 2 ** attempt));
    }
  }
}
