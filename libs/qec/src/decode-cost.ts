// How long decoding a syndrome batch will take, estimated before decoding from its size and detection-event density,
// so a request is refused for its work and not for its element count (issue 29). The decoders' cost per B·T·D² cell
// depends on the distance, on the fraction of detectors that fire (matching components grow with it; union-find
// clusters merge) and on whether the events sit in one or two rounds (no time direction to spread the pair search).
// The tables hold, per distance bin and density bin, the largest cost measured on the shared 2-core machine
// (bench/accuracy/decoding-cost.ts; docs/models/decoding.md), made non-decreasing in density and distance, times
// DECODE_COST_MARGIN. Shots are estimated one by one.
import type { DecoderVariant, SyndromeTensor } from './syndrome-tensor.js';

/** Upper edges of the distance bins (a distance uses the first bin whose edge is ≥ it). */
export const DECODE_COST_DISTANCE_EDGES = [3, 5, 7, 9, 11, 13, 17, 25] as const;
/** Upper edges of the density bins (fraction of detectors with an event, per shot). */
export const DECODE_COST_DENSITY_EDGES = [0.01, 0.02, 0.04, 0.08, 0.15, 0.25, 0.4, Number.POSITIVE_INFINITY] as const;
/** Safety factor on the measured costs (run-to-run spread on the loaded machine was up to about 1.5×). */
export const DECODE_COST_MARGIN = 1.5;
/** µs per cell [distance bin][density bin], largest measured (load average ≈ 11), for T ≥ 3 rounds and for T ≤ 2; 0 = no sample. */
const MEASURED_US_PER_CELL: Record<DecoderVariant, { multiRound: number[][]; fewRounds: number[][] }> = {
  fast: {
    multiRound: [
      [0.44, 0, 0.16, 0.43, 0.5, 2.1, 0.52, 1.58],
      [0.21, 0, 0.09, 0.08, 0.75, 3.13, 2.9, 12.37],
      [0.11, 0.04, 0.06, 0.23, 1.57, 4.41, 11.25, 12.98],
      [0.04, 0.16, 0.06, 1.95, 6.32, 6.69, 6.89, 9.59],
      [0.12, 0.04, 0.05, 0.06, 2.03, 5.99, 4.71, 6.13],
      [0, 0.22, 0.21, 0.36, 3.54, 12.4, 4.56, 5.16],
      [0.03, 0.2, 0.23, 0.21, 8.96, 6.69, 3.03, 2.83],
      [0.04, 0.61, 0.46, 0.63, 2.53, 2.26, 2.53, 1.98],
    ],
    fewRounds: [
      [3.66, 2.47, 0.92, 5.37, 0.69, 2.01, 0, 2.57],
      [0.56, 0.25, 0.21, 0.3, 2.79, 1.48, 0, 1.34],
      [0.11, 0.08, 0.09, 0.25, 0.52, 0.68, 0, 4.49],
      [0.37, 0.05, 0.47, 0.74, 0.78, 1.3, 0, 11.35],
      [1.03, 0.15, 1.13, 1.13, 2.15, 2.1, 0, 9.36],
      [0.22, 0.03, 0.04, 0.07, 1.45, 2.93, 0, 12.5],
      [2.3, 0, 0.22, 0.07, 1.31, 4.03, 0, 5.06],
      [3.6, 0.05, 0.07, 0.42, 1.39, 7.1, 0, 3.43],
    ],
  },
  accurate: {
    multiRound: [
      [0.23, 0, 0.27, 0.34, 0.34, 0.23, 0.25, 1.55],
      [0.15, 0, 0.06, 0.12, 0.68, 6.17, 5.96, 11.05],
      [0.03, 0.02, 0.07, 0.21, 3.03, 5.93, 16.87, 30.06],
      [0.03, 0.03, 0.1, 0.76, 5.85, 21.62, 30.65, 38.35],
      [0.01, 0.03, 0.2, 0.87, 13.65, 34.08, 20.85, 49.52],
      [0, 0.05, 0.56, 1.4, 22.75, 14.12, 21.69, 80.27],
      [0.02, 0.05, 1.71, 9.71, 11.49, 22.95, 34.64, 3.48],
      [0.04, 0.44, 0.82, 0.57, 16.77, 3.29, 2.52, 1.92],
    ],
    fewRounds: [
      [2.4, 1.48, 1.12, 0.6, 1.7, 1.3, 0, 4.01],
      [0.44, 0.31, 0.23, 0.36, 2.37, 0.68, 0, 2.19],
      [0.05, 0.2, 0.09, 0.13, 0.35, 0.69, 0, 5.23],
      [1.15, 0.6, 0.06, 0.06, 0.46, 2.35, 0, 15.56],
      [0.42, 0.03, 0.32, 0.46, 1.98, 4.71, 0, 16.07],
      [0.02, 0.17, 0.12, 0.26, 1.69, 5.73, 0, 20.26],
      [0.01, 0, 0.46, 1.49, 2.9, 7.22, 0, 36.17],
      [0.65, 0.14, 1.04, 4.06, 3.15, 15.01, 0, 44.18],
    ],
  },
};

/** Cumulative maximum over both axes: a larger code or a denser syndrome never costs less per cell. */
function envelope(measured: number[][]): number[][] {
  const out = DECODE_COST_DISTANCE_EDGES.map(() => DECODE_COST_DENSITY_EDGES.map(() => 0));
  for (let i = 0; i < out.length; i++) {
    for (let j = 0; j < out[i]!.length; j++) {
      const own = measured[i]?.[j] ?? 0;
      out[i]![j] = Math.max(own * DECODE_COST_MARGIN, i > 0 ? out[i - 1]![j]! : 0, j > 0 ? out[i]![j - 1]! : 0);
    }
  }
  return out;
}

export const DECODE_COST_US_PER_CELL: Record<DecoderVariant, { multiRound: number[][]; fewRounds: number[][] }> = {
  fast: { multiRound: envelope(MEASURED_US_PER_CELL.fast.multiRound), fewRounds: envelope(MEASURED_US_PER_CELL.fast.fewRounds) },
  accurate: { multiRound: envelope(MEASURED_US_PER_CELL.accurate.multiRound), fewRounds: envelope(MEASURED_US_PER_CELL.accurate.fewRounds) },
};

export interface DecodeCostEstimate {
  seconds: number;
  events: number;
  detectors: number;
}

/** Estimated decoding time of every shot of a validated tensor with one variant (an upper envelope, not a forecast). */
export function estimateDecodeCost(tensor: SyndromeTensor, variant: DecoderVariant): DecodeCostEstimate {
  const { batch, rounds, distance, code } = tensor;
  const tables = DECODE_COST_US_PER_CELL[variant];
  const dBin = DECODE_COST_DISTANCE_EDGES.findIndex((edge) => distance <= edge);
  const row = (rounds >= 3 ? tables.multiRound : tables.fewRounds)[dBin < 0 ? DECODE_COST_DISTANCE_EDGES.length - 1 : dBin]!;
  const cellsPerShot = rounds * distance * distance;
  const sizes = [rounds * code.stabilizers[0].length, rounds * code.stabilizers[1].length] as const;
  const detectorsPerShot = sizes[0] + sizes[1];
  let microseconds = 0;
  let events = 0;
  for (let b = 0; b < batch; b++) {
    let fired = 0;
    for (const type of [0, 1] as const) {
      const shot = tensor.events[type];
      for (let i = b * sizes[type]; i < (b + 1) * sizes[type]; i++) fired += shot[i]!;
    }
    events += fired;
    const density = fired / detectorsPerShot;
    let bin = 0;
    while (density > DECODE_COST_DENSITY_EDGES[bin]!) bin++;
    microseconds += cellsPerShot * row[bin]!;
  }
  return { seconds: microseconds / 1e6, events, detectors: batch * detectorsPerShot };
}
