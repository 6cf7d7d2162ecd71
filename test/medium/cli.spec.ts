import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { unzipSync } from 'fflate';
import { encodeNpy } from '#qdc/arrays';
import { generateCoulombPeakTrace, tuningSeeds } from '#qdc/device-physics';
import { writeTestDevices } from './qpu.fixtures.js';
import { startSystem, type TestSystem } from './system.harness.js';

/** The user commands of `qdc` (apps/cli) as a user runs them: the built CLI as a process against a real stack. */
const CLI = resolve('dist/apps/cli/src/main.js');
const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function qdc(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((done, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args], { env: env as NodeJS.ProcessEnv });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => done({ code, stdout, stderr, ms: performance.now() - started }));
  });
}

describe('qdc user commands (the built CLI against a real stack)', () => {
  const work = mkdtempSync(join(tmpdir(), 'qdc-cli-'));
  /** No key anywhere: no QDC_API_KEY, a data dir without dev-key; nothing listens at these addresses. */
  const bare: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    QDC_DATA_DIR: join(work, 'empty'),
    DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
    NATS_URL: 'nats://127.0.0.1:1',
    REDIS_URL: 'redis://127.0.0.1:1',
  };

  it('answers --help for every command without touching a database or NATS', async () => {
    for (const group of ['models', 'results', 'qpus', 'chat', 'keys', 'budget', 'node', 'lab', 'stream', 'backup']) {
      const run = await qdc([group, 'list', '--help'], bare);
      expect([group, run.code, run.stderr]).toEqual([group, 0, '']);
      expect(run.stdout).toMatch(new RegExp(`^usage:\\n {2}qdc ${group} `));
    }
    const all = await qdc(['--help'], bare);
    expect(all.code).toBe(0);
    for (const command of [
      'models run',
      'results download',
      'qpus submit',
      'chat',
      'keys create',
      'budget set',
      'node start',
      'lab add',
      'stream create',
      'backup create',
      'backup restore',
    ])
      expect(all.stdout).toContain(`qdc ${command}`);
    expect((await qdc([], bare)).code).toBe(2);
    const unknown = await qdc(['modles', 'list'], bare);
    expect([unknown.code, unknown.stderr.split('\n')[0]]).toEqual([2, "unknown command 'modles'"]);
    const noKey = await qdc(['models', 'list'], bare);
    expect([noKey.code, noKey.stderr.split('\n')[0]]).toEqual([2, 'no API key: pass --key <key>, set QDC_API_KEY, or run npm start (it writes .qdc/dev-key)']);
  });

  describe('against the stack', () => {
    let sut: TestSystem;
    let env: Record<string, string | undefined>;

    beforeAll(async () => {
      sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: writeTestDevices([{ id: 'fast-3', shotTimeUs: 10 }]), QDC_QPU_TIME_SCALE: '1' } });
      env = { ...bare, QDC_URL: sut.baseUrl, QDC_API_KEY: await sut.createKey('cli-user', 'control,coda') };
    });

    afterAll(async () => {
      await sut?.stop();
    });

    it('lists models, runs one on a .npy file with its plot, and lists, gets and downloads the result', async () => {
      const models = await qdc(['models', 'list'], env);
      expect(models.code).toBe(0);
      expect(models.stdout.split('\n')[0]).toMatch(/^MODEL\s+RUNS\s+INPUT$/);
      expect(models.stdout).toMatch(new RegExp(`^${PEAK_V2}\\s+\\d+\\s+`, 'm'));

      const truth = generateCoulombPeakTrace(tuningSeeds(1, 702)[0]!, { length: 128, kind: 'peaks', peakCount: 3, snrRange: [40, 60] });
      const file = join(work, 'trace.npy');
      writeFileSync(file, encodeNpy({ shape: [128], data: truth.trace }));
      const plot = join(work, 'peaks.svg');
      const run = await qdc(['models', 'run', PEAK_V2, file, '--plot', plot], env);
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ model: PEAK_V2, input_file_name: 'trace.npy' });
      expect(result.output).not.toHaveProperty('plot');
      const found: number[] = result.output.peak_indices;
      expect(found).toHaveLength(truth.peakIndices.length);
      for (const [i, index] of found.entries()) expect(Math.abs(index - truth.peakIndices[i]!)).toBeLessThanOrEqual(2);
      expect(run.stderr).toMatch(new RegExp(`^plot written to ${plot}: image/(svg\\+xml|png), \\d+ bytes`));
      const image = readFileSync(plot);
      expect(image.subarray(0, 4).toString('latin1')).toMatch(/^(<svg|<\?xm|\x89PNG)/);

      const list = await qdc(['results', 'list', '--model', PEAK_V2], env);
      expect(list.stdout).toMatch(new RegExp(`^${result.id}\\s+${PEAK_V2}\\s+\\d{4}-`, 'm'));
      const get = await qdc(['results', 'get', result.id, '--key', env.QDC_API_KEY!], { ...env, QDC_API_KEY: undefined });
      expect([get.code, JSON.parse(get.stdout).id]).toEqual([0, result.id]);
      const zip = join(work, 'result.zip');
      const download = await qdc(['results', 'download', result.id, '-o', zip], env);
      expect(download.code).toBe(0);
      expect(Object.keys(unzipSync(readFileSync(zip))).sort()).toEqual(['result.json', 'trace.npy']);
    });

    it('reads the development key file, and reports API errors with the request id (exit 1)', async () => {
      const dataDir = join(work, 'data');
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(join(dataDir, 'dev-key'), `${env.QDC_API_KEY}\n`);
      const viaFile = await qdc(['models', 'get', PEAK_V2], { ...env, QDC_API_KEY: undefined, QDC_DATA_DIR: dataDir });
      expect([viaFile.code, JSON.parse(viaFile.stdout).id]).toEqual([0, PEAK_V2]);

      const missing = await qdc(['models', 'run', 'no-such-model-v0', join(work, 'trace.npy')], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^error: 404 Model not found \(POST \/v0\/control\/models\)\nrequest id: \S+\n$/);
      const bad = await qdc(['qpus', 'submit', join(work, 'trace.npy'), '--backend', 'fast-3', '--shots', '5'], env);
      expect([bad.code, bad.stderr.split('\n')[0]]).toEqual([2, "--shots must be an integer from 10 to 10000; got '5'"]);
    });

    it('lists QPUs, submits a Bell circuit and waits: status changes, then the counts', async () => {
      const list = await qdc(['qpus', 'list'], env);
      expect(list.stdout).toMatch(/^fast-3\s+qdc-sim\s+3\s+online\s+\d+\s+/m);
      const bell = join(work, 'bell.qasm');
      writeFileSync(bell, 'OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[2];\ncreg c[2];\nh q[0];\ncx q[0],q[1];\nmeasure q -> c;\n');
      const submit = await qdc(['qpus', 'submit', bell, '--backend', 'fast-3', '--shots', '100', '--wait'], env);
      expect(submit.code).toBe(0);
      const lines = submit.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/^job (\S+): submitted to fast-3, 100 shots, estimated 40 cents$/);
      expect(lines.at(-1)).toMatch(/^job \S+: completed \(cost 40 cents\)$/);
      const counts: Record<string, number> = JSON.parse(submit.stdout);
      expect(Object.keys(counts).every((bits) => bits === '00' || bits === '11')).toBe(true);
      expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(100);

      const jobId = /^job (\S+):/.exec(lines[0]!)![1]!;
      const status = await qdc(['qpus', 'status', jobId], env);
      expect(JSON.parse(status.stdout)).toMatchObject({ success: true, job_id: jobId, status: 'completed', results: counts });
    });

    it('streams the assistant to stdout, the thread id to stderr', async () => {
      const chat = await qdc(['chat', 'write a Bell state'], env);
      expect(chat.code).toBe(0);
      expect(chat.stdout.length).toBeGreaterThan(20);
      expect(chat.stdout.endsWith('\n')).toBe(true);
      expect(chat.stderr).toMatch(/^thread \S+\n$/);
    });
  });
});
