// Catalogue entries of the Coulomb-blockade peak detectors v0, v1, v1-mini and v2 (issue #2): the output format
// (heights to 4 significant digits, widths to 0.01 sample) and v2's reusable scratch workspaces.
import { LruCache } from '#qdc/collections';
import type { TraceModelEntry } from '../model-entry.js';
import { detectCoulombPeaksV0, type PeakDetection } from './coulomb-peak-detector-v0.model.js';
import { detectCoulombPeaksV1 } from './coulomb-peak-detector-v1.model.js';
import { detectCoulombPeaksV1Mini } from './coulomb-peak-detector-v1-mini.model.js';
import { createPeakDetectorV2Workspace, detectCoulombPeaksV2, type PeakDetectorV2Workspace } from './coulomb-peak-detector-v2.model.js';

/** `value` rounded to `digits` significant digits (the shortest JSON of the rounded decimal). */
export function roundSignificant(value: number, digits: number): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  const exponent = digits - 1 - Math.floor(Math.log10(Math.abs(value)));
  if (exponent > 22) return Number(value.toPrecision(digits)); // 10^exponent is no longer exact
  return exponent >= 0 ? Math.round(value * 10 ** exponent) / 10 ** exponent : Math.round(value / 10 ** -exponent) * 10 ** -exponent;
}

/**
 * Heights to 4 significant digits and widths to 0.01 sample: far finer than either can be measured on a noisy
 * trace, and it keeps a (10000, 128) batch's output at about a third of its full-precision JSON.
 */
export function peakOutput(detection: PeakDetection): Record<string, unknown> {
  const output: Record<string, unknown> = { peak_indices: detection.peakIndices, peak_heights: detection.peakHeights.map((h) => roundSignificant(h, 4)) };
  if (detection.peakWidths) output['peak_widths'] = detection.peakWidths.map((w) => Math.round(w * 100) / 100);
  return output;
}

const PEAK_OUTPUT =
  'peak_indices (ascending sample indices of Coulomb peak maxima), peak_heights (above the local background, trace units, 4 significant digits), ';

/** Trace lengths whose v2 workspace is kept: a caller's trace lengths are few (one per instrument setting). */
const V2_WORKSPACE_CAPACITY = 8;

/**
 * The v2 entry, owning its scratch workspaces by trace length, reused across runs (allocation is about half the cost
 * of a 128-point run). Pure scratch: every run overwrites what it reads, so outputs never depend on earlier calls, and
 * the bound only costs a reallocation when more than eight lengths alternate.
 */
function coulombPeakV2Entry(): TraceModelEntry {
  const workspaces = new LruCache<number, PeakDetectorV2Workspace>(V2_WORKSPACE_CAPACITY);
  const workspace = (length: number) => workspaces.getOrCreate(length, createPeakDetectorV2Workspace);
  return {
    spec: {
      id: 'coulomb-blockade-peak-detector-v2',
      name: 'Coulomb blockade peak detector v2',
      description:
        'Best version: v1 rebuilt for throughput (octave kernel bank evaluated on a stride matched to each width, preallocated ' +
        'workspace, selections instead of sorts) plus width consensus across the peaks of a trace and a height check for peaks ' +
        `cut by the window ends. Batch endpoint for (N, L) arrays. Output: ${PEAK_OUTPUT}peak_widths (FWHM measured at half height, samples, to 0.01).`,
      released: '2025-01-15T00:00:00Z',
      inputShapeRequirements: '(128,) nominal; any 1-D length ≥ 1; batch (N, L)',
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: true,
    },
    lengths: { nominal: 128, anyLength: true, min: 1 },
    plot: 'peaks',
    run: (trace) => peakOutput(detectCoulombPeaksV2(trace, 0, trace.length, workspace(trace.length))),
    runRows: (data, count, length) => {
      const scratch = workspace(length);
      const rows: Record<string, unknown>[] = new Array(count);
      for (let i = 0; i < count; i++) rows[i] = peakOutput(detectCoulombPeaksV2(data, i * length, length, scratch));
      return rows;
    },
  };
}

export const COULOMB_PEAK_ENTRIES: readonly TraceModelEntry[] = [
  {
    spec: {
      id: 'coulomb-blockade-peak-detector-v0',
      name: 'Coulomb blockade peak detector v0',
      description:
        'Indices of Coulomb peak maxima in a current/conductance trace. Classical peak picking: binomial smoothing, local maxima, ' +
        'topographic prominence ≥ 3.2 σ within ±8 samples, σ from the median absolute first difference away from provisional peaks ' +
        `(like scipy.signal.find_peaks). Never reports the first or last sample. Output: ${PEAK_OUTPUT.slice(0, -2)}.`,
      released: '2023-03-01T00:00:00Z',
      inputShapeRequirements: '(100,): a 1-D trace of exactly 100 samples',
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: false,
    },
    lengths: { nominal: 100, anyLength: false, min: 100 },
    plot: 'peaks',
    run: (trace) => peakOutput(detectCoulombPeaksV0(trace)),
  },
  {
    spec: {
      id: 'coulomb-blockade-peak-detector-v1',
      name: 'Coulomb blockade peak detector v1',
      description:
        'Multi-scale matched filter with the thermally broadened cosh⁻² Coulomb-peak lineshape (Beenakker 1991), zero-mean kernels ' +
        '(background-free), per-scale noise re-estimated away from detections (robust to 1/f and telegraph noise), both-sides fall ' +
        `check (rejects steps) and a lineshape fit for peaks cut by the window ends. Output: ${PEAK_OUTPUT}peak_widths (FWHM measured at half height, samples, to 0.01).`,
      released: '2024-02-01T00:00:00Z',
      inputShapeRequirements: '(500,) nominal; any 1-D length ≥ 1',
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: false,
    },
    lengths: { nominal: 500, anyLength: true, min: 1 },
    plot: 'peaks',
    run: (trace) => peakOutput(detectCoulombPeaksV1(trace)),
  },
  {
    spec: {
      id: 'coulomb-blockade-peak-detector-v1-mini',
      name: 'Coulomb blockade peak detector v1-mini',
      description:
        'v1 with two matched-filter kernels (FWHM 3.8 and 9.8 samples) instead of about eight: ~3× faster on 500-sample sweeps, ' +
        `less sensitive to the narrowest and widest peaks. Output: ${PEAK_OUTPUT}peak_widths (FWHM measured at half height, samples, to 0.01).`,
      released: '2024-02-01T00:00:00Z',
      inputShapeRequirements: '(500,): a 1-D trace of exactly 500 samples',
      nnInputShapeRequirements: null,
      nnOutputShapeRequirements: null,
      batch: false,
    },
    lengths: { nominal: 500, anyLength: false, min: 500 },
    plot: 'peaks',
    run: (trace) => peakOutput(detectCoulombPeaksV1Mini(trace)),
  },
  coulombPeakV2Entry(),
];
