/**
 * `npm run bench:threads` — what running a large single run on the inference worker's model thread costs, against
 * running it on the main thread (the baseline, same process, same inputs, alternated). The thread path pays one
 * copy or move of the input, a structured clone of the task and of the output's JSON text; the main path pays
 * JSON.stringify of the output, as the worker does. Inputs: those of bench:models' nominal inputs that the worker
 * sends to a thread (≥ MIN_THREADED_RUN_ELEMENTS: anticrossing maps, 256 × 256 diamond masks) and a 40-shot d = 25
 * pure-noise decode (the medium test's).
 */
import { runModel } from '#qdc/characterization';
import { pureNoiseSyndromes } from '#qdc/qec';
import { MIN_THREADED_RUN_ELEMENTS, ModelThreadPool } from '../apps/inference-worker/src/inference/model-thread-pool.js';
import { perfInputs as anticrossingInputs } from './perf/anticrossings.inputs.js';
import { perfInputs as diamondInputs } from './perf/coulomb-diamonds.inputs.js';
import type { PerfInput } from './perf/model-latency.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function pureNoiseDecode(): PerfInput {
  const [d, shots] = [25, 40];
  const data = Float64Array.from(pureNoiseSyndromes(d, shots, 29_001));
  return { model: 'ising-decoding-v1-accurate', note: '40 pure-noise shots, d = 25, T = 1', inputs: [{ shape: [shots, 4, 1, d, d], data }] };
}

/** A pause between measurements, so neither pays for V8's concurrent collection of the other's garbage (two cores). */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 150));

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const pool = new ModelThreadPool(1);
  const cases = [...anticrossingInputs(), ...diamondInputs(), pureNoiseDecode()].filter((c) => c.inputs[0]!.data.length >= MIN_THREADED_RUN_ELEMENTS);
  const rows: string[][] = [];
  for (const c of cases) {
    const input = c.inputs[0]!;
    await pool.runOneJson(c.model, input.shape, input.data, false); // warm-up: the thread loads the catalogue
    JSON.stringify(runModel(c.model, input));
    const main: number[] = [];
    const thread: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const m0 = performance.now();
      const mainJson = JSON.stringify(runModel(c.model, input));
      main.push(performance.now() - m0);
      await settle();
      const t0 = performance.now();
      const threadJson = await pool.runOneJson(c.model, input.shape, input.data.slice(), true);
      thread.push(performance.now() - t0);
      if (threadJson !== mainJson) throw new Error(`${c.model}: the thread's answer differs from the main thread's`);
      await settle();
    }
    const [m, t] = [median(main), median(thread)];
    rows.push([c.model, c.note, m.toFixed(1), t.toFixed(1), (t / m).toFixed(3)]);
  }
  await pool.close();
  const header = ['model', 'input', 'main thread, ms (baseline)', 'model thread, ms', 'ratio'];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log(`(medians of ${ROUNDS} alternated rounds; the thread's time includes the input's copy, its move and the answer's way back)`);
}

await main();
