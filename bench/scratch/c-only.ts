import { encodeNpy } from '#qdc/arrays';
import { runModelBatch } from '#qdc/characterization';
import { generateCoulombPeakTrace, benchmarkSeeds } from '#qdc/device-physics';
import { multipart, startSystem } from '../../test/medium/system.harness.js';
const PEAK_V2 = 'coulomb-blockade-peak-detector-v2';
const N = 10_000;
const flat = new Float64Array(N * 128);
benchmarkSeeds(N).forEach((seed, i) => flat.set(generateCoulombPeakTrace(seed, { length: 128 }).trace, i * 128));
const sut = await startSystem({ env: { QDC_RATE_LIMIT_PER_MINUTE: '100000000', LOG_LEVEL: process.env.SUT_LOG ?? 'warn' } });
try {
  const key = await sut.createKey('bench', 'control');
  const bytes = encodeNpy({ shape: [N, 128], data: flat });
  const t: number[] = [];
  for (let i = 0; i < 3; i++) { const s = performance.now(); runModelBatch(PEAK_V2, { shape: [N, 128], data: flat }); t.push(performance.now() - s); }
  console.log('pure ms', t.map((x) => x.toFixed(0)).join(' '));
  for (let i = 0; i < 6; i++) {
    const s = performance.now();
    const res = await fetch(`${sut.baseUrl}/v0/models/batch`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: multipart({ model: PEAK_V2 }, { name: 'b.npy', bytes }) });
    const h = performance.now();
    await res.json();
    console.log('e2e ms', (performance.now() - s).toFixed(0), 'headers at', (h - s).toFixed(0), res.status);
  }
} finally { await sut.stop(); }
