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
