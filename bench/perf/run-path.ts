/**
 * The run path's shared pieces for bench:perf (b) and bench:hops: the lean HTTP client and the floor's processes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import { resolve } from 'node:path';
import type { TestSystem } from '../../test/medium/system.harness.js';

/**
 * The (b) client: node:http with keep-alive and the multipart body built once, so that the load generator (on the
 * same two cores) costs ~0.45 ms of CPU per run instead of fetch + FormData's ~1.85 ms (measured 2026-11-26).
 */
export function leanPoster(url: string, headers: Record<string, string>, body: Buffer, connections: number): () => Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const allHeaders = { ...headers, 'content-length': String(body.length) };
  return () =>
    new Promise<number>((resolvePost, reject) => {
      const start = performance.now();
      const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers: allHeaders }, (res) => {
        res.on('data', () => undefined);
        res.on('end', () => (res.statusCode === 200 ? resolvePost(performance.now() - start) : reject(new Error(`run answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
}

/** The floor processes (bench/perf/floor.ts) on the system's Redis, NATS and Postgres; resolves with its URL. */
export async function startFloor(sut: Pick<TestSystem, 'env' | 'namespace'>): Promise<{ url: string; processes: Map<string, ChildProcess>; stop: () => void }> {
  const env = { ...sut.env, FLOOR_PREFIX: `${sut.namespace}-floor` };
  const processes = new Map<string, ChildProcess>();
  const role = async (name: string): Promise<string> => {
    const child = spawn(process.execPath, [resolve('dist/bench/perf/floor.js'), name], { stdio: ['ignore', 'pipe', 'inherit'], env });
    processes.set(name, child);
    return new Promise<string>((done, fail) => {
      child.stdout!.once('data', (d) => done(String(d).trim()));
      child.once('exit', (code) => fail(new Error(`floor ${name} exited (${code})`)));
    });
  };
  await role('store');
  await role('worker');
  const port = await role('front');
  return {
    url: `http://127.0.0.1:${port}/run`,
    processes,
    stop: () => {
      for (const child of processes.values()) child.kill();
    },
  };
}
