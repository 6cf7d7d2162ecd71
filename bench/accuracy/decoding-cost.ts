// Calibration of libs/qec decode-cost.ts (issue 29): µs per B·T·D² cell of each decoder over a grid of distances,
// round counts and detection-event densities (phenomenological samples and independent random events), printed as
// the table decode-cost.ts holds: per distance bin and density bin, the largest cost seen, times DECODE_COST_MARGIN
// there. Then every grid point's estimate next to its measured time. Run: `node dist/bench/accuracy/decoding-cost.js`
// (a few minutes; the machine's load is printed, since the table is only as good as the machine it was measured on).
import { loadavg } from 'node:os';
import {
  DECODE_COST_DENSITY_EDGES,
  DECODE_COST_DISTANCE_EDGES,
  decodeSyndromeTensor,
  estimateDecodeCost,
  readSyndromeTensor,
  sampleMemoryExperiment,
} from '#qdc/qec';

const DISTANCES = [3, 5, 7, 9, 11, 13, 17, 25];
const RATES = [0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08];
const RANDOM_DENSITIES = [0.12, 0.2, 0.3, 0.5];
const TARGET_CELLS = 30_000;

function randomEvents(shots: number, rounds: number, d: number, density: number, seed: number): Uint8Array {
  const n = d * d;
  const data = new Uint8Array(shots * 4 * rounds * n);
  let state = seed;
  for (let b = 0; b < shots; b++) {
    for (let i = 0; i < 2 * rounds * n; i++) {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      data[b * 4 * rounds * n + i] = state / 2 ** 31 < density ? 1 : 0;
    }
  }
  return data;
}

function main(): void {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const table = { fast: { multi: [] as number[][], few: [] as number[][] }, accurate: { multi: [] as number[][], few: [] as number[][] } };
  const points: string[] = [];
  for (const variant of ['fast', 'accurate'] as const) decodeSyndromeTensor(readSyndromeTensor([50, 4, 5, 5, 5], randomEvents(50, 5, 5, 0.2, 1)), variant);
  for (const d of DISTANCES) {
    const dBin = DECODE_COST_DISTANCE_EDGES.findIndex((edge) => d <= edge);
    for (const rounds of [1, 3, d]) {
      const shots = Math.max(1, Math.round(TARGET_CELLS / (rounds * d * d)));
      const inputs: Uint8Array[] = RATES.map(
        (p, k) => sampleMemoryExperiment({ distance: d, rounds, noise: { kind: 'phenomenological', p, q: p }, shots, seed: 29_000 + 100 * d + k }).syndromes,
      );
      for (const [k, density] of RANDOM_DENSITIES.entries()) inputs.push(randomEvents(shots, rounds, d, density, 7 + k));
      for (const data of inputs) {
        const tensor = readSyndromeTensor([shots, 4, rounds, d, d], data);
        for (const variant of ['fast', 'accurate'] as const) {
          const started = performance.now();
          decodeSyndromeTensor(tensor, variant);
          const seconds = (performance.now() - started) / 1000;
          const estimate = estimateDecodeCost(tensor, variant);
          const density = estimate.events / estimate.detectors;
          const rhoBin = DECODE_COST_DENSITY_EDGES.findIndex((edge) => density <= edge);
          const perCell = (1e6 * seconds) / (shots * rounds * d * d);
          const rows = table[variant][rounds >= 3 ? 'multi' : 'few'];
          rows[dBin] ??= new Array(DECODE_COST_DENSITY_EDGES.length).fill(0);
          rows[dBin]![rhoBin] = Math.max(rows[dBin]![rhoBin]!, perCell);
          points.push(
            `| ${d} | ${rounds} | ${shots} | ${(100 * density).toFixed(1)} % | ${variant} | ${seconds.toFixed(3)} | ${estimate.seconds.toFixed(3)} | ${(estimate.seconds / seconds).toFixed(1)} |`,
          );
        }
      }
    }
  }
  console.log('measured µs per cell, largest per (distance bin, density bin):');
  console.log(JSON.stringify(table));
  console.log('| D | T | shots | events | decoder | measured s | estimate s | estimate ÷ measured |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const line of points) console.log(line);
}

main();
