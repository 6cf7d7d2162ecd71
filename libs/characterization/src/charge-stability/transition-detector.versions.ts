// The four versions of charge-stability-diagram-transition-detector and why they differ (issue #4):
// v0 classical: derivative across the histogram directions, non-maximum suppression, hysteresis, chaining;
// v1 v0 + an oriented matched filter (average along the lines) and a per-family relative strength filter;
// v2 v1 + scan-line levelling against sensor jumps + segments cut at triple points;
// v3 v2 + fast-axis jump removal inside rows, transport directions re-estimated from chains, per-segment angle,
//    linear-weight direction histogram, broad-crest (sensor ramp) test, transport families ≥ 20° apart.
import type { Segment } from './transition-line-score.js';
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
    method: 'Classical edge/ridge detection: line-family directions from a Hessian orientation histogram; first (sensor steps) or second (transport ridges) Gaussian derivative across each family, non-maximum suppression, hysteresis, chaining along the family direction split at offset jumps.',
    released: '2023-06-01T00:00:00Z',
    options: TRANSITION_FAMILY_V0,
  },
  {
    id: 'charge-stability-diagram-transition-detector-v1',
    name: 'Transition-line detector v1',
    method: 'v0 plus an oriented matched filter (derivative across, averaged ±3 px along the lines) and a per-family relative strength filter (addition lines of one dot share their step height).',
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
    method: 'v2 plus removal of the part of a sensor jump left inside one row (running median along the fast axis) and, when rows are offset by jumps or telegraph noise, no family direction within 8° of the fast axis; family directions re-estimated from the total-least-squares directions of long chains, and a per-segment direction (kept within 5° of its family); family directions from a linearly weighted orientation histogram (weaker dot families kept; transport families ≥ 20° apart), and sensor chains on a broad crest of the derivative (the sensor ramp’s steepest slope mid-cell) dropped instead of v1’s relative strength filter (sensor steps differ across the map with the sensor’s place on its Coulomb peak).',
    released: '2025-03-01T00:00:00Z',
    options: TRANSITION_FAMILY_V3,
  },
];

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Segments [x1, y1, x2, y2] (x = column, y = row, 0.01 px) of a rows × cols map by one version. */
export function transitionLineSegments(version: TransitionDetectorVersion, data: Float64Array, rows: number, cols: number): Segment[] {
  return detectTransitionFamilies(data, rows, cols, version.options).segments.map((f) => f.segment.map(round2) as Segment);
}
