// Accuracy sections for the electron-unloading models (issue #5) on held-out simulated charge-sensor maps
// (BENCHMARK_SEEDS, offsets 700 000+): (101, 51) plunger × time|barrier, 0–5 unload steps (none in 10 %), step /
// pixel noise 1.5–30, white + 1/f, telegraph bands near transitions, barrier-dependent step shifts ≤ ±2 rows.
// Unload detector: F1 within ±2 rows (MODELS.md, ≥ 0.97). Texture detector (no MODELS.md target): per-pixel kind
// (flat / step / telegraph) from the clusters against the simulator's texture labels, mean IoU over the three kinds
// (pooled over maps) with our bar ≥ 0.6, and pixel accuracy.
import { runModel, type TextureDetection } from '#qdc/characterization';
import {
  addDetectionCounts,
  addTextureIou,
  countDetections,
  emptyTextureIouCounts,
  kindMapOf,
  textureIouScore,
  type DetectionCounts,
  type TextureIouCounts,
} from '#qdc/characterization/evaluation';
import { benchmarkSeeds, generateElectronUnloadingMap, UNLOAD_SNR } from '#qdc/device-physics';
import type { AccuracySection, ReportRow } from './report-table.js';

const F1_TARGET = 0.97;
const IOU_BAR = 0.6;
const HEADER = ['model', 'dataset (held-out BENCHMARK_SEEDS)', 'N', 'metric', 'value', 'detail', 'target'];
const f = (v: number, digits = 4): string => v.toFixed(digits);
const empty = (): DetectionCounts => ({ truePositives: 0, falsePositives: 0, falseNegatives: 0 });
const f1 = (c: DetectionCounts): number => (2 * c.truePositives) / Math.max(1, 2 * c.truePositives + c.falsePositives + c.falseNegatives);
const pr = (c: DetectionCounts): string =>
  `P ${f(c.truePositives / Math.max(1, c.truePositives + c.falsePositives), 3)} / R ${f(c.truePositives / Math.max(1, c.truePositives + c.falseNegatives), 3)}`;

export function accuracySections(tracesPerDataset: number): AccuracySection[] {
  const n = Math.max(50, tracesPerDataset);
  const seeds = benchmarkSeeds(n, 700_000);
  const all = empty();
  const byMode = { time: empty(), barrier: empty() };
  const lowSnr = empty();
  const texture = emptyTextureIouCounts();
  const textureHigh = emptyTextureIouCounts();
  let steps = 0;
  let barrier = 0;
  let telegraphMaps = 0;
  for (const seed of seeds) {
    const t = generateElectronUnloadingMap(seed);
    const input = { shape: t.shape, data: t.data };
    steps += t.unloadIndices.length;
    if (t.axis1 === 'barrier') barrier++;
    if (t.transitions.some((x) => x.telegraphRows > 0)) telegraphMaps++;
    const found = runModel('electron-unload-detector-v0', input)['unload_indices'] as number[];
    const c = countDetections(found, { indices: t.unloadIndices, tolerance: 2 });
    Object.assign(all, addDetectionCounts(all, c));
    Object.assign(byMode[t.axis1], addDetectionCounts(byMode[t.axis1], c));
    if (t.snr < 3) Object.assign(lowSnr, addDetectionCounts(lowSnr, c));
    const clusters = runModel('electron-unload-texture-detector-v0', input) as unknown as TextureDetection;
    const kinds = kindMapOf(clusters, t.shape[0], t.shape[1]);
    addTextureIou(kinds, t.texture, texture);
    if (t.snr >= 5) addTextureIou(kinds, t.texture, textureHigh);
  }
  const mix = `(101, 51): barrier ${Math.round((100 * barrier) / n)}% / time, telegraph bands in ${Math.round((100 * telegraphMaps) / n)}%, SNR ${UNLOAD_SNR[0]}–${UNLOAD_SNR[1]}, ${steps} steps`;
  const rows: ReportRow[] = [
    { cells: ['electron-unload-detector-v0', mix, String(n), 'F1 ±2 rows', f(f1(all)), pr(all), `≥ ${F1_TARGET}`], pass: f1(all) >= F1_TARGET },
    { cells: ['electron-unload-detector-v0', 'same maps, axis 1 = time', '', 'F1 ±2 rows', f(f1(byMode.time)), pr(byMode.time), 'info'], pass: null },
    {
      cells: ['electron-unload-detector-v0', 'same maps, axis 1 = barrier (steps shift)', '', 'F1 ±2 rows', f(f1(byMode.barrier)), pr(byMode.barrier), 'info'],
      pass: null,
    },
    { cells: ['electron-unload-detector-v0', 'same maps, SNR < 3', '', 'F1 ±2 rows', f(f1(lowSnr)), pr(lowSnr), 'info'], pass: null },
  ];
  const iouRow = (dataset: string, counts: TextureIouCounts, judged: boolean): ReportRow[] => {
    const s = textureIouScore(counts);
    const detail = `IoU flat ${f(s.iou[0], 3)}, step ${f(s.iou[1], 3)}, telegraph ${f(s.iou[2], 3)}`;
    return [
      {
        cells: [
          'electron-unload-texture-detector-v0',
          dataset,
          String(Math.round(counts.pixels / 5151)),
          'mean IoU of kind regions',
          f(s.meanIou),
          detail,
          judged ? `≥ ${IOU_BAR} (ours)` : 'info',
        ],
        pass: judged ? s.meanIou >= IOU_BAR : null,
      },
      { cells: ['electron-unload-texture-detector-v0', dataset, '', 'pixel accuracy', f(s.pixelAccuracy), '', 'info'], pass: null },
    ];
  };
  rows.push(...iouRow(mix, texture, true), ...iouRow('same maps, SNR ≥ 5', textureHigh, false));
  return [{ title: 'Electron unloading (101, 51): unload steps and texture clusters', header: HEADER, rows }];
}
