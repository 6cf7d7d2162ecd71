// In-process latency of every catalogue model on a realistic nominal input, next to a baseline measured in
// the same run on the same input: decoding it from .npy and checking it is finite (what every request pays
// before the model runs). Ratio = model time / baseline time.
import { decodeNpy, encodeNpy, findNonFinite } from '#qdc/arrays';
import { MODEL_CATALOGUE, runModel, type ModelSpec } from '#qdc/characterization';
import { benchmarkSeeds, generateCoulombPeakTrace, generateResonatorNotchTrace } from '#qdc/device-physics';
import { perfInputs as oneDInputs } from './one-d.inputs.js';
import { perfInputs as chargeStabilityInputs } from './charge-stability.inputs.js';
import { perfInputs as coulombDiamondInputs } from './coulomb-diamonds.inputs.js';
import { perfInputs as anticrossingInputs } from './anticrossings.inputs.js';
import { perfInputs as electronUnloadingInputs } from './electron-unloading.inputs.js';
import { perfInputs as decodingInputs } from './decoding.inputs.js';

export interface PerfInput {
  model: string;
  /** What the input is, e.g. "simulated (16,16) double-dot patches". */
  note: string;
  /** A few distinct realistic inputs; the benchmark cycles through them. */
  inputs: { shape: number[]; data: Float64Array }[];
  /** Optional absolute target in µs per call (MODELS.md / issue), printed as PASS/FAIL. */
  targetMicros?: number;
}

function peakAndDipInputs(): PerfInput[] {
  const peaks = (length: number) => benchmarkSeeds(16).map((seed) => ({ shape: [length], data: generateCoulombPeakTrace(seed, { length }).trace }));
  return [
    { model: 'coulomb-blockade-peak-detector-v0', note: 'Coulomb traces (100,)', inputs: peaks(100) },
    { model: 'coulomb-blockade-peak-detector-v1', note: 'Coulomb traces (500,)', inputs: peaks(500) },
    { model: 'coulomb-blockade-peak-detector-v1-mini', note: 'Coulomb traces (500,)', inputs: peaks(500) },
    { model: 'coulomb-blockade-peak-detector-v2', note: 'Coulomb traces (128,)', inputs: peaks(128) },
    {
      model: 'resonator-dip-finder-v0',
      note: 'notch traces (1001,)',
      inputs: benchmarkSeeds(16).map((seed) => ({ shape: [1001], data: generateResonatorNotchTrace(seed, { length: 1001 }).trace })),
    },
  ];
}

function microsPerCall(work: (i: number) => void, minMillis = 300): number {
  for (let i = 0; i < 3; i++) work(i); // warm-up
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMillis || calls < 5) {
    work(calls);
    calls += 1;
    elapsed = performance.now() - start;
  }
  return (1000 * elapsed) / calls;
}

export interface LatencyRow {
  model: string;
  note: string;
  micros: number;
  baselineMicros: number;
  targetMicros?: number;
}

export function allPerfInputs(): PerfInput[] {
  return [
    ...peakAndDipInputs(),
    ...oneDInputs(),
    ...chargeStabilityInputs(),
    ...coulombDiamondInputs(),
    ...anticrossingInputs(),
    ...electronUnloadingInputs(),
    ...decodingInputs(),
  ];
}

/** Latency of each model in `inputs`; models listed in the catalogue without an input are reported as missing. */
export function measureModelLatency(only?: RegExp): { rows: LatencyRow[]; missing: ModelSpec[] } {
  const inputs = allPerfInputs().filter((p) => !only || only.test(p.model));
  const rows: LatencyRow[] = [];
  for (const p of inputs) {
    const npy = p.inputs.map((input) => encodeNpy({ shape: input.shape, data: input.data }, { dtype: 'f8' }));
    const baselineMicros = microsPerCall((i) => findNonFinite(decodeNpy(npy[i % npy.length]!)));
    const micros = microsPerCall((i) => runModel(p.model, p.inputs[i % p.inputs.length]!));
    rows.push({ model: p.model, note: p.note, micros, baselineMicros, ...(p.targetMicros ? { targetMicros: p.targetMicros } : {}) });
  }
  const covered = new Set(inputs.map((p) => p.model));
  const missing = MODEL_CATALOGUE.filter((m) => !covered.has(m.id) && (!only || only.test(m.id)));
  return { rows, missing };
}

export function printLatencyTable(rows: LatencyRow[], missing: ModelSpec[]): void {
  const header = ['model', 'input', 'µs / call', 'baseline: decode .npy + finite check (µs)', 'ratio', 'target', 'result'];
  const body = rows.map((r) => [
    r.model,
    r.note,
    r.micros.toFixed(r.micros < 10 ? 2 : 1),
    r.baselineMicros.toFixed(2),
    (r.micros / r.baselineMicros).toFixed(2),
    r.targetMicros ? `≤ ${r.targetMicros} µs` : '',
    r.targetMicros ? (r.micros <= r.targetMicros ? 'PASS' : 'FAIL') : 'info',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\nPer-model latency, in process (one call on one input)\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of body) console.log(line(r));
  if (missing.length) console.log(`models without a latency input: ${missing.map((m) => m.id).join(', ')}`);
}
