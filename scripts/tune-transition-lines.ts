// Tuning loop for the transition-line detectors on TUNING seeds only (never the benchmark range):
// TUNE_FIRST (default 5001), TUNE_COUNT (default 40), TUNE_VERSION v0…v3, TUNE_OPTIONS (JSON overrides). Prints the
// metric with invisible truth segments as don't-care (current) and, as `old`, with every dot transition counted.
import { generateChargeStabilityDiagram } from '../libs/device-physics/src/charge-stability/index.js';
import { transitionLineSegments, TRANSITION_DETECTOR_VERSIONS } from '#qdc/characterization';
import { countLineMatches, lineF1, type LineCounts } from '#qdc/characterization/evaluation';

const first = Number(process.env.TUNE_FIRST ?? 5001);
const count = Number(process.env.TUNE_COUNT ?? 40);
const versionName = process.env.TUNE_VERSION ?? 'v3';
const overrides = process.env.TUNE_OPTIONS ? JSON.parse(process.env.TUNE_OPTIONS) : {};
const verbose = process.env.TUNE_VERBOSE === '1';
const version = TRANSITION_DETECTOR_VERSIONS.find((v) => v.id.endsWith(versionName))!;
const totals: Record<string, LineCounts> = {
  all: { hits: 0, misses: 0, falseAlarms: 0 },
  sensor: { hits: 0, misses: 0, falseAlarms: 0 },
  transport: { hits: 0, misses: 0, falseAlarms: 0 },
  old: { hits: 0, misses: 0, falseAlarms: 0 },
};
let ms = 0;
for (let seed = first; seed < first + count; seed++) {
  const d = generateChargeStabilityDiagram(seed, { rows: 128, cols: 128, kind: 'double' });
  const t0 = performance.now();
  const segments = transitionLineSegments({ ...version, options: { ...version.options, ...overrides } }, d.data, 128, 128);
  ms += performance.now() - t0;
  const c = countLineMatches(segments, d.segments);
  for (const k of ['all', d.readout]) {
    totals[k]!.hits += c.hits;
    totals[k]!.misses += c.misses;
    totals[k]!.falseAlarms += c.falseAlarms;
  }
  const o = countLineMatches(segments, d.segments, 0);
  totals['old']!.hits += o.hits;
  totals['old']!.misses += o.misses;
  totals['old']!.falseAlarms += o.falseAlarms;
  if (verbose) console.log(seed, d.readout, `snr ${d.snr.toFixed(1)}`, JSON.stringify(d.nuisance), c, `det ${segments.length}`);
}
for (const [k, c] of Object.entries(totals)) {
  const f = lineF1(c);
  console.log(`${version.id} ${k}: F1 ${f.f1.toFixed(3)} P ${f.precision.toFixed(3)} R ${f.recall.toFixed(3)}`, JSON.stringify(c));
}
console.log(`mean ${(ms / count).toFixed(1)} ms per map`);
