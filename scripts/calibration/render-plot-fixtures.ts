// Renders the plot reader's test fixtures with matplotlib (an independent renderer) from our own calibration
// trace generator, with the truth in a manifest. Run: npm run build && node dist/scripts/calibration/render-plot-fixtures.js
// (needs Debian's python3-matplotlib; the fixtures are committed so tests do not).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CALIBRATION_TRACE_FAMILIES, generateCalibrationTrace, tuningSeeds } from '#qdc/device-physics';

const OUT = resolve('libs/calibration/src/plot-reader/fixtures');
const STYLES = {
  default: { width: 6.4, height: 4.8, dpi: 100 },
  classic: { theme: 'classic', width: 5, height: 3.6, dpi: 120, marker: '.', markersize: 9 },
  small: { width: 4.2, height: 3, dpi: 110, marker: 'o', markersize: 3, grid: true },
  wide: { width: 8, height: 4.5, dpi: 72, marker: 's', markersize: 4, line: true },
} as const;

export interface FixtureEntry {
  file: string;
  family: string;
  truth: { name: string; value: number };
  xRange: [number, number];
  style: string;
  /** Generator seed and noise, to refit the same data without the plot. */
  seed: number;
  relativeNoise: number;
}

function main(): void {
  mkdirSync(OUT, { recursive: true });
  const specs: unknown[] = [];
  const manifest: FixtureEntry[] = [];
  const [seedA, seedB] = tuningSeeds(2, 8100);
  CALIBRATION_TRACE_FAMILIES.forEach((family, k) => {
    const pairs: [keyof typeof STYLES, number][] = [
      ['default', seedA!],
      [k % 2 === 0 ? 'classic' : k % 4 === 1 ? 'small' : 'wide', seedB!],
    ];
    for (const [style, seed] of pairs) {
      const trace = generateCalibrationTrace(family, seed, { relativeNoise: 0.03 });
      const file = `${family}-${style}.png`;
      specs.push({
        path: resolve(OUT, file),
        title: trace.title,
        x_label: trace.xLabel,
        y_label: trace.yLabel,
        series: trace.series,
        style: { ...STYLES[style], legend: family === 'drag' },
      });
      const xs = trace.series.flatMap((s) => s.x);
      manifest.push({ file, family, truth: trace.truth, xRange: [Math.min(...xs), Math.max(...xs)], style, seed, relativeNoise: 0.03 });
    }
  });
  // A DRAG plot like the official client's fixture (QCalEval's DRAG item): two ⟨Z⟩ series against the inverse
  // DRAG coefficient with their fitted lines and a legend; the answer is where the lines cross.
  const dragSeed = tuningSeeds(1, 8200)[0]!;
  const drag = generateCalibrationTrace('drag', dragSeed, { relativeNoise: 0.04, points: 60 });
  specs.push({
    path: resolve(OUT, 'qcaleval-drag-like.png'),
    title: 'DRAG',
    x_label: 'Inverse DRAG coefficient',
    y_label: '⟨Z⟩',
    series: drag.series,
    style: { width: 7, height: 4.5, dpi: 100, legend: true, fit_lines: true, grid: true },
  });
  const xs = drag.series.flatMap((s) => s.x);
  manifest.push({
    file: 'qcaleval-drag-like.png',
    family: 'drag',
    truth: drag.truth,
    xRange: [Math.min(...xs), Math.max(...xs)],
    style: 'drag-with-fits',
    seed: dragSeed,
    relativeNoise: 0.04,
  });
  // The same Ramsey plot as JPEG (lossy, ringing around text).
  const ramsey = generateCalibrationTrace('ramsey', seedA!, { relativeNoise: 0.03 });
  specs.push({
    path: resolve(OUT, 'ramsey-default.jpg'),
    format: 'jpeg',
    title: ramsey.title,
    x_label: ramsey.xLabel,
    y_label: ramsey.yLabel,
    series: ramsey.series,
    style: STYLES.default,
  });
  manifest.push({
    file: 'ramsey-default.jpg',
    family: 'ramsey',
    truth: ramsey.truth,
    xRange: [0, Math.max(...ramsey.series[0]!.x)],
    style: 'default-jpeg',
    seed: seedA!,
    relativeNoise: 0.03,
  });
  execFileSync('/usr/bin/python3', [resolve('scripts/calibration/render-calibration-plots.py')], { input: JSON.stringify(specs) });
  writeFileSync(resolve(OUT, 'manifest.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  console.log(`${manifest.length} fixtures in ${OUT}`);
}

main();
