/**
 * The Kubernetes memory limits against what the services really use: every service, started as in production
 * (its own process, against Postgres, Redis and NATS), sits at rest in at most half of its Deployment's memory
 * limit in deploy/base, leaving the other half for the work it takes, and a batch at the upload limit keeps every
 * service under 80 % of its limit at its peak. The qpu-broker once had 256Mi while it used ~220 MiB at rest, so one
 * large circuit got it killed; results had 512Mi and peaked at ~420 MiB storing one 64 MiB upload.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { encodeNpy } from '#qdc/arrays';
import { SERVICE_PROCESSES, loadConfig, replicaNames } from '#qdc/platform';
import { multipart, residentBytes, startSystem, type TestSystem } from './system.harness.js';

const UNITS: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 };

/** Bytes of a Kubernetes quantity such as `512Mi` or `2Gi`. */
function quantityBytes(quantity: string): number {
  const match = /^(\d+)(Ki|Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`unexpected memory quantity '${quantity}'`);
  return Number(match[1]) * UNITS[match[2]!]!;
}

/** The memory limit of the (single) container of the Deployment `name` in deploy/base/<name>.yaml. */
function memoryLimit(name: string): number {
  const documents = parseAllDocuments(readFileSync(join('deploy/base', `${name}.yaml`), 'utf8')).map((d) => d.toJSON());
  const deployment = documents.find((d) => d?.kind === 'Deployment' && d.metadata?.name === name);
  const limit = deployment?.spec?.template?.spec?.containers?.[0]?.resources?.limits?.memory as string | undefined;
  if (!limit) throw new Error(`deploy/base/${name}.yaml has no Deployment '${name}' with a memory limit`);
  return quantityBytes(limit);
}

/** The services whose resident set (now or at its peak) is above `fraction` of their Deployment's memory limit. */
function servicesAbove(sut: TestSystem, field: 'VmRSS' | 'VmHWM', fraction: number) {
  return SERVICE_PROCESSES.map((service) => {
    const resident = residentBytes(sut.processes.get(replicaNames(service, 1)[0]!)!.pid!, field);
    const limit = memoryLimit(service.name);
    return { service: service.name, [field]: `${Math.round(resident / 2 ** 20)} MiB`, limit: `${limit / 2 ** 20} MiB`, above: resident > fraction * limit };
  }).filter((row) => row.above);
}

describe('memory limits of the Deployments (real services)', () => {
  let sut: TestSystem;
  let key: string;

  beforeAll(async () => {
    sut = await startSystem();
    // One request through the gateway, so that lazily loaded parts (auth, the catalogue page) are in.
    key = await sut.createKey('memory', 'control');
    expect((await fetch(`${sut.baseUrl}/v0/models`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
  });
  afterAll(() => sut?.stop());

  it('every service at rest uses at most half of its memory limit', () => {
    expect(servicesAbove(sut, 'VmRSS', 0.5)).toEqual([]);
  });
  it('a batch at the upload limit keeps every service under 80 % of its limit at its peak', async () => {
    const length = 128;
    const rows = Math.floor((loadConfig({}).QDC_UPLOAD_LIMIT_BYTES - 1024) / (8 * length));
    const data = Float64Array.from({ length: rows * length }, (_, i) => Math.sin(i * 0.01) + 0.001 * (i % 997));
    const bytes = encodeNpy({ shape: [rows, length], data });
    const res = await fetch(`${sut.baseUrl}/v0/models/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: multipart({ model: 'coulomb-blockade-peak-detector-v2' }, { name: 'limit.npy', bytes }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { output: { outputs: unknown[] } }).output.outputs).toHaveLength(rows);
    expect(servicesAbove(sut, 'VmHWM', 0.8)).toEqual([]);
  });
});
