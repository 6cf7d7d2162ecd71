// The four versions of charge-stability-diagram-transition-detector and why they differ (issue #4). All run the
// full family pipeline of transition-family-detector.model.ts (scan-line levelling and in-row jump removal,
// linear-weight direction histogram, crest test, triple-point splitting, chain re-estimation, 7 px pieces at the
// border); they differ in the matched-filter length along the lines (±3 or ±2 px), in the passes that re-estimate
// the family directions from long chains (1 or 2) and, v3 only, in the transport ridge scale chosen per map (σ 1 or
// 2 px). Held-out F1 v0 0.902, v1 0.906, v2 0.908, v3 0.916; tuning figures in docs/models/charge-stability.md.
import type { Segment } from './transition-line-score.js';
import { detectTransitionFamilies } from './transition-family-detector.model.js';
import {
  TRANSITION_FAMILY_V0,
  TRANSITION_FAMILY_V1,
  TRANSITION_FAMILY_V2,
  TRANSITION_FAMILY_V3,
  type TransitionFamilyOptions,
} from './transition-family-options.js';

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
    method:
      'Line families from a Hessian orientation histogram (all addition lines of one dot are parallel); first (sensor steps) or second (transport ridges) Gaussian derivative across each family averaged ±3 px along it (oriented matched filter), minus the mean ±4 px across; non-maximum suppression, hysteresis in white-noise units, chaining split at honeycomb offsets; scan-line levelling and in-row jump removal against sensor charge jumps; sensor ramp crests dropped; one pass re-estimating each family direction from its long chains; segments cut at triple points.',
    released: '2023-06-01T00:00:00Z',
    options: TRANSITION_FAMILY_V0,
  },
  {
    id: 'charge-stability-diagram-transition-detector-v1',
    name: 'Transition-line detector v1',
    method:
      'v0 with a second pass re-estimating each family direction from the total-least-squares directions of its long chains (slower; direction errors of broad transport ridges shrink further).',
    released: '2024-01-15T00:00:00Z',
    options: TRANSITION_FAMILY_V1,
  },
  {
    id: 'charge-stability-diagram-transition-detector-v2',
    name: 'Transition-line detector v2',
    method:
      'v1 with a shorter matched filter, ±2 px along the lines instead of ±3 (less blur where a line ends at a triple point; fewer false segments on tuning maps).',
    released: '2024-09-01T00:00:00Z',
    options: TRANSITION_FAMILY_V2,
  },
  {
    id: 'charge-stability-diagram-transition-detector-v3',
    name: 'Transition-line detector v3',
    method:
      'v2 plus a ridge scale chosen per transport map: the detection runs at Gaussian σ 1 and 2 px and keeps the result whose weaker line family is traced longest (thermally broadened transport lines are traced only near their width).',
    released: '2025-03-01T00:00:00Z',
    options: TRANSITION_FAMILY_V3,
  },
];

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Segments [x1, y1, x2, y2] (x = column, y = row, 0.01 px) of a rows × cols map by one version. */
export function transitionLineSegments(version: TransitionDetectorVersion, data: Float64Array, rows: number, cols: number): Segment[] {
  return detectTransitionFamilies(data, rows, cols, version.options).segments.map((f) => f.segment.map(round2) as Segment);
}
