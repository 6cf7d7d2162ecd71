/**
 * `npm run bench:agents` — the calibration agent's built-in plot reader on matplotlib renderings (an independent
 * renderer) of held-out traces (BENCHMARK seeds) with random parameters, styles and noise. Per family: family
 * accuracy from the image (title, labels, shape), the key parameter within 5 % of the truth where the signal is
 * visible (SNR ≥ 10; the DRAG crossing relative to the scan's half-width, as it can be 0), the same for a fit on
 * the generated arrays (what noise alone allows), faint plots (SNR 2) called no-signal, and time per plot as a
 * ratio to fitting the arrays directly. BENCH_AGENTS_PER_FAMILY=<n> (default 100) scales the set; BENCH_AGENTS_KEEP=1
 * keeps the rendered plots and BENCH_AGENTS_DIR=<dir> reads them again; BENCH_AGENTS_VERBOSE=1 prints each miss.
 * For the decay families (t1, t2-echo) the column 'Cramér–Rao ceiling' is the mean, over the same visible traces, of the
 * chance that an efficient unbiased estimator lands within 5 % (bench/agents-crb.ts): the best any fit can expect.
 * Needs Debian's python3-matplotlib (/usr/bin/python3).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assessCalibration, decodeImage, keyParameterOf, readPlot, type CalibrationFamily } from '#qdc/calibration';
import { chanceWithin } from './agents-crb.js';
import {
  CALIBRATION_TRACE_FAMILIES,
  benchmarkSeeds,
  createSeededRandom,
  deriveSeed,
  generateCalibrationTrace,
  type CalibrationTrace,
} from '#qdc/device-physics';

const PER_FAMILY = Number(process.env.BENCH_AGENTS_PER_FAMILY ?? 100);
const FAINT_FRACTION = 0.1;
const MARKERS = ['o', 's', '.', '^', 'D'];

interface Case {
  family: CalibrationFamily;
  trace: CalibrationTrace;
  faint: boolean;
  file: string;
  spec: unknown;
}

function makeCases(dir: string): Case[] {
  const cases: Case[] = [];
  for (const family of CALIBRATION_TRACE_FAMILIES) {
    benchmarkSeeds(PER_FAMILY, 5000).forEach((seed, k) => {
      const random = createSeededRandom(deriveSeed(seed, `bench-agents-style-${family}`));
      const faint = k < Math.round(FAINT_FRACTION * PER_FAMILY);
      const trace = generateCalibrationTrace(family, seed, faint ? { relativeNoise: 0.5 } : {});
      const width = random.between(4, 9);
      const height = Math.max(3, Math.min(6, width * random.between(0.55, 0.8)));
      const dpi = Math.max(Math.round(random.between(60, 150)), Math.ceil(260 / height));
      const style = {
        theme: random.chance(0.2) ? 'classic' : 'default',
        width,
        height,
        dpi,
        marker: MARKERS[random.integer(0, MARKERS.length - 1)],
        markersize: random.between(3, 8),
        line: random.chance(0.2),
        grid: random.chance(0.3),
        legend: random.chance(0.3),
        fit_lines: family === 'drag' && random.chance(0.5),
      };
      const file = join(dir, `${family}-${seed}.png`);
      cases.push({
        family,
        trace,
        faint,
        file,
        spec: { path: file, title: trace.title, x_label: trace.xLabel, y_label: trace.yLabel, series: trace.series, style },
      });
    });
  }
  return cases;
}

function relativeError(c: Case, value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return Infinity;
  const xs = c.trace.series.flatMap((s) => s.x);
  const scale = c.family === 'drag' ? (Math.max(...xs) - Math.min(...xs)) / 2 : Math.abs(c.trace.truth.value);
  return Math.abs(value - c.trace.truth.value) / scale;
}

const median = (v: number[]) => (v.length ? [...v].sort((a, b) => a - b)[v.length >> 1]! : NaN);

function main(): void {
  // BENCH_AGENTS_DIR reuses plots rendered by an earlier run with the same count (rendering dominates the time).
  const reuse = process.env.BENCH_AGENTS_DIR;
  const dir = reuse ?? mkdtempSync(join(tmpdir(), 'qdc-bench-agents-'));
  try {
    const cases = makeCases(dir);
    const t0 = performance.now();
    if (!reuse || !cases.every((c) => existsSync(c.file))) {
      execFileSync('/usr/bin/python3', [resolve('scripts/calibration/render-calibration-plots.py')], {
        input: JSON.stringify(cases.map((c) => c.spec)),
        maxBuffer: 1 << 26,
      });
    }
    console.log(
      `${cases.length} plots rendered with matplotlib (${((performance.now() - t0) / 1000).toFixed(1)} s; ${PER_FAMILY} per family, ${Math.round(FAINT_FRACTION * 100)} % faint)`,
    );
    const rows: string[][] = [];
    let allVisible = 0;
    let allWithin = 0;
    let allFamily = 0;
    let readMsTotal = 0;
    let dataMsTotal = 0;
    for (const family of CALIBRATION_TRACE_FAMILIES) {
      const mine = cases.filter((c) => c.family === family);
      let familyOk = 0;
      let visible = 0;
      let within = 0;
      let withinData = 0;
      let ceiling = 0;
      let faint = 0;
      let faintNoSignal = 0;
      const errors: number[] = [];
      let readMs = 0;
      let dataMs = 0;
      for (const c of mine) {
        const bytes = new Uint8Array(readFileSync(c.file));
        const a = performance.now();
        const reading = readPlot(decodeImage(bytes));
        const result = reading.series.length
          ? assessCalibration(reading.series, { title: reading.title, xLabel: reading.xLabel, yLabel: reading.yLabel }).assessment
          : null;
        const b = performance.now();
        const onData = assessCalibration(c.trace.series, { experiment: family }).assessment;
        const d = performance.now();
        readMs += b - a;
        dataMs += d - b;
        if (result?.experiment === family) familyOk++;
        else if (process.env.BENCH_AGENTS_VERBOSE)
          console.log(
            `family ${family} → ${result?.experiment} [${reading.title} | ${reading.xLabel} | ${reading.yLabel}] ${reading.notes.join('; ')} ${JSON.stringify((c.spec as { style: unknown }).style)}`,
          );
        if (c.faint) {
          faint++;
          if (result?.status === 'no-signal') faintNoSignal++;
          continue;
        }
        visible++;
        if (family === 't1' || family === 't2-echo') ceiling += chanceWithin(c.trace.series[0]!.x, c.trace.truth.value, c.trace.snr, 0.05);
        const error = relativeError(c, result?.experiment === family ? result.fit?.parameters[keyParameterOf(family)]?.value : undefined);
        errors.push(error);
        if (error <= 0.05) within++;
        else if (process.env.BENCH_AGENTS_VERBOSE && result?.experiment === family)
          console.log(
            `key ${family} err ${(error * 100).toFixed(1)} % truth ${c.trace.truth.value.toPrecision(4)} got ${result.fit?.parameters[keyParameterOf(family)]?.value.toPrecision(4)} status ${result.status} n=${reading.series.map((s) => s.x.length)} of ${c.trace.series[0]!.x.length} ${JSON.stringify((c.spec as { style: unknown }).style)}`,
          );
        if (relativeError(c, onData.fit?.parameters[keyParameterOf(family)]?.value) <= 0.05) withinData++;
      }
      allVisible += visible;
      allWithin += within;
      allFamily += familyOk;
      readMsTotal += readMs;
      dataMsTotal += dataMs;
      rows.push([
        family,
        String(mine.length),
        (familyOk / mine.length).toFixed(3),
        `${keyParameterOf(family)}`,
        String(visible),
        (within / visible).toFixed(3),
        (withinData / visible).toFixed(3),
        family === 't1' || family === 't2-echo' ? (ceiling / visible).toFixed(3) : '—',
        (median(errors) * 100).toFixed(2),
        `${faintNoSignal}/${faint}`,
        (readMs / mine.length).toFixed(0),
        (readMs / dataMs).toFixed(1),
      ]);
    }
    const header = [
      'family',
      'plots',
      'family acc',
      'key parameter',
      'visible',
      'within 5 % (image)',
      'within 5 % (arrays)',
      'Cramér–Rao ceiling',
      'median err %',
      'faint (SNR 2) → no-signal',
      'ms/plot',
      '× array fit',
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (r: string[]) => `| ${r.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const r of rows) console.log(line(r));
    console.log(
      `all: family accuracy ${(allFamily / cases.length).toFixed(3)}, key parameter within 5 % on ${(allWithin / allVisible).toFixed(3)} of visible plots, reading+fit ${(readMsTotal / cases.length).toFixed(0)} ms/plot = ${(readMsTotal / dataMsTotal).toFixed(1)} × fitting the arrays`,
    );
  } finally {
    if (!process.env.BENCH_AGENTS_KEEP && !reuse) rmSync(dir, { recursive: true, force: true });
    else console.log(`plots kept in ${dir}`);
  }
}

main();
