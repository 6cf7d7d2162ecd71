/**
 * `npm run bench:models` — in-process latency of every catalogue model on realistic nominal inputs, as a
 * ratio to decoding the same input (see bench/perf/model-latency.ts). `npm run bench:perf` prints the same
 * table after the end-to-end numbers. BENCH_MODELS=<regex> restricts the models.
 */
import { measureModelLatency, printLatencyTable } from './perf/model-latency.js';

const only = process.env.BENCH_MODELS ? new RegExp(process.env.BENCH_MODELS) : undefined;
const { rows, missing } = measureModelLatency(only);
printLatencyTable(rows, missing);
