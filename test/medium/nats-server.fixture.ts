/**
 * A private nats-server for the medium tests that need their own (per-lab nkey users, restarts). The server picks
 * its own port (`listen: 127.0.0.1:-1`) and the fixture reads it from the server's own output ("Listening for
 * client connections on …", then "Server is ready"), then checks it answers the client protocol (`INFO {...}`).
 * Its output is kept in a log file so a failure can say why it did not come up.
 *
 * Two earlier shapes failed on the loaded CI machine: a fixed sleep after spawning raced JetStream's start-up, and
 * a port chosen beforehand by binding port 0 and closing it was handed to two specs running side by side — the
 * second server could not bind, the fixture was greeted by the first spec's server, and the services found the
 * port refused once that spec stopped its server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './system.harness.js';

/** Resolves when a TCP client on `port` receives the NATS `INFO` greeting; false if the attempt fails. */
const greets = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = tcpConnect(port, '127.0.0.1');
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(2000, () => finish(false));
    socket.once('data', (chunk) => finish(chunk.toString('latin1').startsWith('INFO')));
    socket.once('error', () => finish(false));
  });

/**
 * Waits until this child says it listens and is ready, and a client on that port is greeted, up to `timeoutMs`;
 * resolves to the port. `output()` is what this child has printed so far (not earlier runs in the same log).
 */
export async function waitForNats(child: ChildProcess, output: () => string, logFile: string, timeoutMs = 60_000): Promise<number> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `nats-server exited (${child.exitCode ?? child.signalCode}) before answering; log ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`,
      );
    const text = output();
    const listening = /Listening for client connections on [^\s]*:(\d+)/.exec(text);
    if (listening && text.includes('Server is ready') && (await greets(Number(listening[1])))) return Number(listening[1]);
    if (Date.now() > deadline)
      throw new Error(`nats-server did not become ready within ${timeoutMs} ms; log ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface NatsServer {
  port: number;
  url: string;
  /** Directory with the configuration, the JetStream store and `nats-server.log`. */
  dir: string;
  process: ChildProcess;
  /** Starts the server again on the same port and store (after `stop` or a kill). */
  start(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts a JetStream nats-server on a port of its own choosing. `configLines` are appended to its configuration
 * file (written in `dir`, so an `include ./auth.conf` there resolves against the same directory). A restart
 * (`start()` again) keeps the port, so clients reconnect to the same URL.
 */
export async function startNatsServer(options: { dir?: string; configLines?: string[] } = {}): Promise<NatsServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'qdc-nats-'));
  mkdirSync(join(dir, 'js'), { recursive: true });
  const config = join(dir, 'nats-server.conf');
  const writeConfig = (port: number) =>
    writeFileSync(config, `${[`listen: "127.0.0.1:${port}"`, `jetstream { store_dir: "${join(dir, 'js')}" }`, ...(options.configLines ?? [])].join('\n')}\n`);
  writeConfig(-1);
  const logFile = join(dir, 'nats-server.log');
  const server: NatsServer = {
    port: 0,
    url: '',
    dir,
    process: undefined as unknown as ChildProcess,
    start: async () => {
      const child = spawn('nats-server', ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
      const log = createWriteStream(logFile, { flags: 'a' });
      let output = '';
      const keep = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        log.write(chunk);
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      server.process = child;
      const port = await waitForNats(child, () => output, logFile);
      if (server.port === 0) {
        server.port = port;
        server.url = `nats://127.0.0.1:${port}`;
        writeConfig(port);
      }
    },
    stop: async (signal = 'SIGTERM') => {
      const child = server.process;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((done) => {
        child.once('exit', () => done());
        child.kill(signal);
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      });
    },
  };
  await server.start();
  return server;
}

export interface NatsClusterNode extends NatsServer {
  /** `server_name` (n1, n2, …): how the cluster names its leaders. */
  name: string;
  /** The HTTP monitoring port (`/jsz` names the JetStream meta leader). */
  monitorPort: number;
}

export interface NatsCluster {
  nodes: NatsClusterNode[];
  /** Every node's client URL, comma-separated: NATS_URL for the services. */
  url: string;
  /** The JetStream meta leader's name, as the first live node that knows one says (polls until one is elected). */
  metaLeader(timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A JetStream cluster of `size` nats-server processes on this machine (`cluster_name qdc-test`, servers n1…nN), each
 * with its own store. The route ports must be known before any node starts (every node lists them all, which
 * JetStream clustering requires), so they are chosen free beforehand; a node that cannot bind its route port (taken
 * meanwhile by a spec running beside this one) fails the start, and the whole cluster is started again on new ports.
 */
export async function startNatsCluster(size = 3, attempts = 3): Promise<NatsCluster> {
  for (let attempt = 1; ; attempt++) {
    const routePorts: number[] = [];
    for (let i = 0; i < size; i++) routePorts.push(await freePort());
    const routes = routePorts.map((port) => `"nats://127.0.0.1:${port}"`).join(', ');
    const started = await Promise.allSettled(
      routePorts.map((port, i) =>
        startNatsServer({
          configLines: [`server_name: n${i + 1}`, 'http: "127.0.0.1:-1"', `cluster { name: qdc-test, listen: "127.0.0.1:${port}", routes: [${routes}] }`],
        }),
      ),
    );
    const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      if (attempt >= attempts) throw failed.reason;
      continue;
    }
    const nodes = servers.map((server, i): NatsClusterNode => {
      const monitor = /Starting http monitor on [^\s]*:(\d+)/.exec(readFileSync(join(server.dir, 'nats-server.log'), 'utf8'));
      return Object.assign(server, { name: `n${i + 1}`, monitorPort: Number(monitor?.[1]) });
    });
    const metaLeader = async (timeoutMs = 30_000): Promise<string> => {
      for (const deadline = Date.now() + timeoutMs; ; ) {
        for (const node of nodes) {
          if (node.process.exitCode !== null || node.process.signalCode !== null) continue;
          const jsz = await fetch(`http://127.0.0.1:${node.monitorPort}/jsz`).then(
            (r) => r.json() as Promise<{ meta_cluster?: { leader?: string; cluster_size?: number } }>,
            () => undefined,
          );
          const leader = jsz?.meta_cluster?.leader;
          if (leader) return leader;
        }
        if (Date.now() > deadline) throw new Error(`no JetStream meta leader within ${timeoutMs} ms; logs in ${nodes.map((n) => n.dir).join(', ')}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    return {
      nodes,
      url: nodes.map((n) => n.url).join(','),
      metaLeader,
      stop: async () => {
        await Promise.all(nodes.map((n) => n.stop()));
      },
    };
  }
}
