import { residentBytes, startSystem, type TestSystem } from './system.harness.js';

const MiB = 1024 * 1024;

/** 24 qubits: a 256 MiB state vector in the simulation worker (over the broker's inline limit of 20). */
const LARGE_CIRCUIT = `OPENQASM 2.0;\ninclude "qelib1.inc";\nqreg q[24];\ncreg c[24];\n${Array.from({ length: 24 }, (_, i) => `h q[${i}];`).join('\n')}\nmeasure q -> c;\n`;

/**
 * The simulation worker gives a large simulation's memory back (issue 18, defect 9: it kept ~2.2 GB after one):
 * after the job its resident set returns near where it was before, instead of holding the state vector until
 * some later garbage collection.
 */
describe('simulation worker memory after a large simulation', () => {
  let sut: TestSystem;
  let key: string;

  beforeAll(async () => {
    sut = await startSystem();
    key = await sut.createKey('memory-lab', 'coda');
  }, 120_000);
  afterAll(async () => {
    await sut?.stop();
  });

  it('returns to within 100 MiB of its resident set before the job', async () => {
    const pid = sut.processes.get('simulation-worker')!.pid!;
    const before = residentBytes(pid);
    const res = await fetch(`${sut.baseUrl}/v0/coda/tools/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ code: LARGE_CIRCUIT, method: 'qasm', shots: 64, seed_simulator: 7 }),
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.values(body.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(64);

    // Freed pages go back to the system shortly after the collection; wait for it, up to a deadline.
    const deadline = Date.now() + 15_000;
    let after = residentBytes(pid);
    while (after - before > 100 * MiB && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      after = residentBytes(pid);
    }
    expect(Math.round((after - before) / MiB)).toBeLessThan(100);
  }, 120_000);
});
