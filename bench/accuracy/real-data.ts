// Real-data section of `npm run bench:accuracy` (issue #16): every model of the catalogue that fits a case's family,
// run through runModel (so every revision shows up here) on every case of ../shared/data/real, with the case's labels
// next to the answer where the authors gave labels, and a plot under bench/out/real/ for a person to check by eye.
// Resonator traces are judged (PASS/FAIL): every labelled dip, or — without labels — the visible dip (lowest point of
// a 5-point running mean, width at half depth below the median level), must be found within half a linewidth.
// A model that refuses a case (its input rules) is listed with the refusal message: that is what a user gets (422).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MODEL_CATALOGUE, renderPlot, runModel } from '#qdc/characterization';
import { loadRealCase, REAL_DATA_DIR, realDataAvailable } from './real-cases.js';
import type { AccuracySection, ReportRow } from './report-table.js';

export const PLOT_DIR = resolve(process.cwd(), 'bench/out/real');
const HEADER = ['case (shape)', 'model', 'labels / reference', 'answer', 'plot', 'check'];

interface CaseMeta {
  name: string;
  family: string;
  shape: number[];
  labels: Record<string, unknown> | null;
}

/** Model ids per family (prefix match on the catalogue, so new versions are picked up). */
function modelsFor(family: string): string[] {
  const ids = MODEL_CATALOGUE.map((m) => m.id);
  const withPrefix = (...prefixes: string[]) => ids.filter((id) => prefixes.some((p) => id.startsWith(p)));
  if (/resonator_vs|anticrossing_map/.test(family)) return withPrefix('resonator-dip-finder', 'anticrossing-detector');
  if (/resonator/.test(family)) return withPrefix('resonator-dip-finder');
  if (/pinch_off/.test(family)) return withPrefix('pinch-off-');
  if (/turn_on/.test(family)) return withPrefix('turn-on-');
  if (/coulomb_peak|blockade/.test(family)) return withPrefix('coulomb-blockade-');
  if (/charge_stability/.test(family)) return withPrefix('charge-stability-diagram-');
  if (/diamond/.test(family)) return withPrefix('coulomb-diamond-');
  if (/unload/.test(family)) return withPrefix('electron-unload');
  return [];
}

function listCases(): CaseMeta[] {
  return readdirSync(REAL_DATA_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const meta = JSON.parse(readFileSync(resolve(REAL_DATA_DIR, f), 'utf8')) as Partial<CaseMeta>;
      return {
        name: meta.name ?? f.replace(/\.json$/, ''),
        family: String(meta.family ?? 'unknown'),
        shape: meta.shape ?? [],
        labels: (meta.labels as Record<string, unknown> | null) ?? null,
      };
    });
}

function savePlot(file: string, id: string, input: { shape: number[]; data: Float64Array }, output: Record<string, unknown>): string {
  try {
    const uri = renderPlot(id, input, output, { darkMode: false });
    const comma = uri.indexOf(',');
    const isPng = uri.startsWith('data:image/png');
    const bytes = uri.slice(0, comma).endsWith(';base64') ? Buffer.from(uri.slice(comma + 1), 'base64') : Buffer.from(decodeURIComponent(uri.slice(comma + 1)));
    const path = resolve(PLOT_DIR, `${file}.${isPng ? 'png' : 'svg'}`);
    writeFileSync(path, bytes);
    return `bench/out/real/${file}.${isPng ? 'png' : 'svg'}`;
  } catch (error) {
    return `no plot (${(error as Error).message})`;
  }
}

/** A compact, bounded rendering of a model answer. */
function summarise(output: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(output)) {
    if (key === 'plot' || key === 'segmentation') {
      if (key === 'segmentation' && Array.isArray(value)) parts.push(`segmentation ${new Set((value as unknown[]).flat(3) as number[]).size} labels`);
      continue;
    }
    let text: string;
    if (Array.isArray(value)) {
      const items = value.slice(0, 6).map((v) => (typeof v === 'number' ? +v.toPrecision(4) : v));
      text = `${JSON.stringify(items)}${value.length > 6 ? `…(${value.length})` : ''}`;
    } else if (typeof value === 'number') text = String(+value.toPrecision(4));
    else text = JSON.stringify(value);
    parts.push(`${key} ${text}`);
  }
  const joined = parts.join('; ');
  return joined.length > 160 ? `${joined.slice(0, 157)}…` : joined;
}

function smoothArgmin(trace: Float64Array): { index: number; width: number } {
  const n = trace.length;
  const smooth = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    let c = 0;
    for (let j = Math.max(0, i - 2); j <= Math.min(n - 1, i + 2); j++, c++) s += trace[j]!;
    smooth[i] = s / c;
  }
  let index = 0;
  for (let i = 1; i < n; i++) if (smooth[i]! < smooth[index]!) index = i;
  const sorted = Float64Array.from(trace).sort();
  const level = sorted[n >> 1]!;
  const half = (level + smooth[index]!) / 2;
  let left = index;
  while (left > 0 && smooth[left]! < half) left--;
  let right = index;
  while (right < n - 1 && smooth[right]! < half) right++;
  return { index, width: Math.max(1, right - left) };
}

interface ResonatorTrace {
  label: string;
  data: Float64Array;
  /** Labelled dips: index and FWHM (samples) if the labels give one. */
  labelled: { index: number; fwhm: number | null }[] | null;
}

/** The 1-D traces of a resonator case: rows of a (k, L) map, the magnitude of a (2, L) [Re, Im] companion. */
function resonatorTraces(meta: CaseMeta, input: { shape: number[]; data: Float64Array }): ResonatorTrace[] {
  const labels = meta.labels ?? {};
  const fwhm = typeof labels['dip_fwhm_samples'] === 'number' ? (labels['dip_fwhm_samples'] as number) : null;
  const dipLabels = Array.isArray(labels['dip_indices']) ? (labels['dip_indices'] as number[]).map((index) => ({ index, fwhm })) : null;
  if (input.shape.length === 1) return [{ label: '', data: input.data, labelled: dipLabels }];
  const [rows, length] = input.shape as [number, number];
  if (rows === 2 && /complex/.test(meta.name)) {
    const magnitude = new Float64Array(length);
    for (let i = 0; i < length; i++) magnitude[i] = Math.hypot(input.data[i]!, input.data[length + i]!);
    return [{ label: '|Re + i Im|', data: magnitude, labelled: dipLabels }];
  }
  const out: ResonatorTrace[] = [];
  for (let r = 0; r < rows; r++) {
    const rowLabel = typeof labels[`dip_index_row${r}`] === 'number' ? [{ index: labels[`dip_index_row${r}`] as number, fwhm: null }] : null;
    out.push({ label: `row ${r}`, data: input.data.slice(r * length, (r + 1) * length), labelled: rowLabel });
  }
  return out;
}

function resonatorRows(meta: CaseMeta, input: { shape: number[]; data: Float64Array }, id: string): ReportRow[] {
  const rows: ReportRow[] = [];
  const traces = resonatorTraces(meta, input);
  const compact = traces.length > 6;
  let passed = 0;
  let judged = 0;
  const misses: string[] = [];
  traces.forEach((t, k) => {
    const output = runModel(id, { shape: [t.data.length], data: t.data }) as { dip_indices: number[]; linewidths: number[] };
    const file = `${meta.name}${traces.length > 1 ? `_${k}` : ''}__${id}`;
    const plot = compact && k > 0 ? '' : savePlot(file, id, { shape: [t.data.length], data: t.data }, output as unknown as Record<string, unknown>);
    const visible = smoothArgmin(t.data);
    const references = t.labelled ?? [{ index: visible.index, fwhm: visible.width }];
    const found = output.dip_indices;
    const ok = references.every((ref) => found.some((d, j) => Math.abs(d - ref.index) <= 0.5 * Math.max(1, ref.fwhm ?? output.linewidths[j] ?? visible.width)));
    judged++;
    if (ok) passed++;
    else misses.push(`${t.label || 'trace'}: [${found.join(', ')}] vs ${references.map((r) => r.index).join(', ')}`);
    if (compact) return;
    const reference = t.labelled
      ? `labelled dip ${references.map((r) => `${r.index}${r.fwhm ? ` (FWHM ${r.fwhm})` : ''}`).join(', ')}`
      : `visible dip ${visible.index} (width ≈ ${visible.width})`;
    const answer = found.map((d, j) => `${d} (κ ${output.linewidths[j]!.toFixed(1)})`).join(', ') || 'none';
    rows.push({ cells: [`${meta.name}${t.label ? ` ${t.label}` : ''} (${t.data.length},)`, id, reference, answer, plot, 'within ½ linewidth'], pass: ok });
  });
  if (compact) {
    const plot = `bench/out/real/${meta.name}_0__${id}.svg (row 0)`;
    rows.push({
      cells: [
        `${meta.name} (${input.shape.join(', ')}), per row`,
        id,
        `visible dip per row${meta.labels?.['crossing_rows'] ? `; crossings at rows ${JSON.stringify(meta.labels['crossing_rows'])}` : ''}`,
        `${passed} of ${judged} rows within ½ linewidth${misses.length ? `; misses ${misses.slice(0, 3).join('; ')}` : ''}`,
        plot,
        'every row',
      ],
      pass: passed === judged,
    });
  }
  return rows;
}

function genericRow(meta: CaseMeta, input: { shape: number[]; data: Float64Array }, id: string): ReportRow {
  const shape = `${meta.name} (${input.shape.join(', ')}${input.shape.length === 1 ? ',' : ''})`;
  const full = meta.labels
    ? Object.keys(meta.labels)
        .filter((k) => !/^label_|orientation|along_axis/.test(k))
        .map((k) => `${k} ${JSON.stringify(meta.labels![k])}`)
        .join('; ')
    : 'none (judge the plot)';
  const labels = full.length > 90 ? `${full.slice(0, 87)}…` : full;
  try {
    const output = runModel(id, input);
    const plot = savePlot(`${meta.name}__${id}`, id, input, output);
    return { cells: [shape, id, labels, summarise(output), plot, 'by eye'], pass: null };
  } catch (error) {
    return { cells: [shape, id, labels, `refused: ${(error as Error).message}`, '', 'by eye'], pass: null };
  }
}

export function realDataSections(): AccuracySection[] {
  if (!realDataAvailable()) {
    console.log(`\nReal-data section skipped: ${REAL_DATA_DIR} not found (expected ../shared/data/real next to the repository, or QDC_REAL_DATA).`);
    return [];
  }
  mkdirSync(PLOT_DIR, { recursive: true });
  const rows: ReportRow[] = [];
  for (const meta of listCases()) {
    const input = loadRealCase(meta.name);
    const ids = modelsFor(meta.family);
    if (ids.length === 0) {
      rows.push({
        cells: [
          `${meta.name} (${input.shape.join(', ')}${input.shape.length === 1 ? ',' : ''})`,
          '—',
          `family ${meta.family}`,
          'no model of this family in the catalogue',
          '',
          '',
        ],
        pass: null,
      });
      continue;
    }
    for (const id of ids) {
      if (id.startsWith('resonator-dip-finder')) rows.push(...resonatorRows(meta, input, id));
      else rows.push(genericRow(meta, input, id));
    }
  }
  return [{ title: `Real measured data (${REAL_DATA_DIR}; plots in bench/out/real/)`, header: HEADER, rows }];
}
