/**
 * A private nats-server for the medium tests that need their own (per-lab nkey users, restarts): started on a
 * free port, awaited until it answers the client protocol (its first line, `INFO {...}`), its output kept in a
 * log file so a failure can say why it did not come up. A fixed sleep after spawning raced the server's
 * JetStream start-up on a loaded CI machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const freePort = (): Promise<number> =>
  new Promise((resolvePort, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolvePort(port));
    });
    server.on('error', reject);
  });

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

/** Waits until the server on `port` greets, up to `timeoutMs`; the error names the server log. */
export async function waitForNats(port: number, child: ChildProcess, logFile: string, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nats-server exited (${child.exitCode ?? child.signalCode}) before answering; log ${logFile}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`);
    if (await greets(port)) return;
    if (Date.now() > deadline) throw new Error(`nats-server did not answer on port ${port} within ${timeoutMs} ms; log ${logFile}`);
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
 * Starts a JetStream nats-server on a free port. `configLines` are appended to its configuration file (written in
 * `dir`, so an `include ./auth.conf` there resolves against the same directory).
 */
export async function startNatsServer(options: { dir?: string; configLines?: string[] } = {}): Promise<NatsServer> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'qdc-nats-'));
  const port = await freePort();
  mkdirSync(join(dir, 'js'), { recursive: true });
  const config = join(dir, 'nats-server.conf');
  writeFileSync(config, [`listen: "127.0.0.1:${port}"`, `jetstream { store_dir: "${join(dir, 'js')}" }`, ...(options.configLines ?? [])].join('\n') + '\n');
  const logFile = join(dir, 'nats-server.log');
  const server: NatsServer = {
    port,
    url: `nats://127.0.0.1:${port}`,
    dir,
    process: undefined as unknown as ChildProcess,
    start: async () => {
      const child = spawn('nats-server', ['-c', config], { stdio: ['ignore', 'pipe', 'pipe'] });
      const log = createWriteStream(logFile, { flags: 'a' });
      child.stdout?.pipe(log);
      child.stderr?.pipe(log);
      server.process = child;
      await waitForNats(port, child, logFile);
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
