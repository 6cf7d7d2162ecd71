// The four versions of charge-stability-diagram-transition-detector and why they differ (issue #4):
// v0 classical: derivative across the histogram directions, non-maximum suppression, hysteresis, chaining;
// v1 v0 + an oriented matched filter (average along the lines) and a per-family relative strength filter;
// v2 v1 + scan-line levelling against sensor jumps + segments cut at triple points;
// v3 v2 + per-segment direction refinement and removal of residual one-row (fast-axis) jump chains.
import type { Segment } from './transition-line-detector.model.js';
import { detectTransitionFamilies, TRANSITION_FAMILY_V0, TRANSITION_FAMILY_V1, TRANSITION_FAMILY_V2, TRANSITION_FAMILY_V3, type TransitionFamilyOptions } from './transition-family-detector.model.js';

export interface TransitionDetectorVersion {
  id: string;
  name: string;
  method: string;
  released: string;
  options: TransitionFamilyOptions;
}

export const TRANSITION_DETECTOR_VERSIONS: readonly TransitionDetectorVersion[] = [
  {
    id: 'charge-stability-diagram-transition-detector-v0',
    name: 'Transition-line detector v0',
    method: 'Classical edge/ridge detection: first (sensor) or second (transport) Gaussian derivative across the line directions found by an orientation histogram, non-maximum suppression, hysteresis thresholds, chaining along each direction.',
    released: '2023-06-01T00:00:00Z',
    options: TRANSITION_FAMILY_V0,
  },
  {
    id: 'charge-stability-diagram-transition-detector-v1',
    name: 'Transition-line detector v1',
    method: 'Line families: family directions from a structure-tensor orientation histogram refined by a fixed-angle Hough sharpness search; per family an oriented matched filter (derivative across, average along the lines), non-maximum suppression, hysteresis, chaining along the family direction split at offset jumps.',
    released: '2024-01-15T00:00:00Z',
    options: TRANSITION_FAMILY_V1,
  },
  {
    id: 'charge-stability-diagram-transition-detector-v2',
    name: 'Transition-line detector v2',
    method: 'v1 plus scan-line levelling (row offsets from the median row difference) against sensor charge jumps and telegraph offsets, and honeycomb-aware splitting: segments are cut where a line of another family crosses or ends (triple points).',
    released: '2024-09-01T00:00:00Z',
    options: TRANSITION_FAMILY_V2,
  },
  {
    id: 'charge-stability-diagram-transition-detector-v3',
    name: 'Transition-line detector v3',
    method: 'v2 plus per-segment total-least-squares direction (kept within 3° of its family) and removal of residual one-row chains left by fast-axis sensor jumps.',
    released: '2025-03-01T00:00:00Z',
    options: TRANSITION_FAMILY_V3,
  },
];

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Segments [x1, y1, x2, y2] (x = column, y = row, 0.01 px) of a rows × cols map by one version. */
export function transitionLineSegments(version: TransitionDetectorVersion, data: Float64Array, rows: number, cols: number): Segment[] {
  return detectTransitionFamilies(data, rows, cols, version.options).segments.map((f) => f.segment.map(round2) as Segment);
}
