// Peer baseline for the pinch-off models (issue 29): a re-implementation of qtt's `analyseGateSweep`
// (QuTech-Delft/qtt, src/qtt/algorithms/gatesweep.py, MIT licence, Copyright QuTech (TNO, TU Delft); read at commit
// 07afca7445f113c79c94dd87046d9c2dc34f5f25). Not their code: the same steps in the same order with the same constants,
// written again here (numpy's linear-interpolation percentiles, scipy's correlate1d with mode 'nearest', polyfit of
// degree 1 as least squares):
//   1. the sweep is put in order of rising gate voltage (qtt assumes the channel is closed at low voltage);
//   2. noise = median |first difference|; low = 1st percentile; high = 90th percentile of the samples at or above
//      (low + high₀)/2, high₀ = 90th percentile of all samples;
//   3. midpoint1 = mean voltage of the samples strictly between 20 % and 80 % of (low, high);
//   4. the trace is smoothed by a 3-point running mean applied 4 times; mp = first sample whose smoothed value reaches
//      30 % of (low, high) (at least sample 2); midpoint2 = its voltage; pinchoff_point = midpoint2 − 50 mV;
//   5. "not good" when (a) the smoothed value at mp exceeds the mean of the smoothed samples before it by less than
//      0.3 × their standard deviation (over the whole trace); (b) a straight line fitted to the smoothed samples before
//      mp, evaluated at the first sample, plus ¼ of its fall over that range, lies above the smoothed first sample; (c)
//      for steps over 150 mV with > 15 samples before mp, the smoothed side after mp + 6 rises by more than
//      (high − low)/750 per mV; (d) the raw samples before mp lie on average more than `noise` above the chord from
//      (first voltage, low) to the last sample before mp. The optional `minthr` check (|low| > minthr → not good) is
//      off by default in qtt and here.
// qtt returns no saturation point. What the bench compares (docs/models/one-d.md): goodgate ↔ classification;
// midpoint1 ↔ transition; midpoint2 (the 30 % crossing) ↔ cut-off, because the fixed −50 mV of pinchoff_point has no
// meaning on unit-less generated sweeps (on measured sweeps with a voltage axis pinchoff_point is reported too).
// qtt needs the channel closed at low gate voltage and a positive current: on generated traces the bench hands it the
// generator's sweep direction and current polarity (what the experimenter knows, and QDC is not told).

export interface QttGateSweepResult {
  goodgate: boolean;
  /** Why qtt said "not good" (first failed check), or null. */
  reason: string | null;
  lowvalue: number;
  highvalue: number;
  midvalue: number;
  /** Voltages, in the units of `x` (qtt overwrites both with the 0.5th percentile of x when the gate is not good). */
  midpoint1: number;
  midpoint2: number;
  pinchoff_point: number;
  /** Index (in the rising-voltage order) of the 30 % crossing. */
  mp: number;
}

/** numpy.percentile with the default linear interpolation. */
export function percentile(values: ArrayLike<number>, q: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return Number.NaN;
  const pos = (q / 100) * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function mean(values: ArrayLike<number>, from = 0, to = values.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += values[i]!;
  return s / (to - from);
}

/** Least-squares line y = a·x + b over x[from..to). */
function lineFit(x: ArrayLike<number>, y: ArrayLike<number>, from: number, to: number): { a: number; b: number } {
  const mx = mean(x, from, to);
  const my = mean(y, from, to);
  let sxy = 0;
  let sxx = 0;
  for (let i = from; i < to; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
  }
  const a = sxx > 0 ? sxy / sxx : 0;
  return { a, b: my - a * mx };
}

/** qtt's smoothing: correlate with [⅓, ⅓, ⅓], edges repeated ('nearest'), four times. */
function smooth(value: Float64Array): Float64Array {
  let out = value;
  for (let pass = 0; pass < 4; pass++) {
    const next = new Float64Array(out.length);
    const n = out.length;
    for (let i = 0; i < n; i++) next[i] = (out[Math.max(0, i - 1)]! + out[i]! + out[Math.min(n - 1, i + 1)]!) / 3;
    out = next;
  }
  return out;
}

/**
 * analyseGateSweep on a sweep given as gate voltages `x` (any order; mV for the 150 mV and 50 mV constants) and the
 * measured values.
 */
export function analyseGateSweep(xIn: ArrayLike<number>, valueIn: ArrayLike<number>, options: { minthr?: number } = {}): QttGateSweepResult {
  const n = valueIn.length;
  if (n !== xIn.length || n < 4) throw new Error('analyseGateSweep: x and value must have the same length ≥ 4');
  let x = Float64Array.from(xIn);
  let value = Float64Array.from(valueIn);
  if (x[n - 1]! < x[0]!) {
    x = x.reverse();
    value = value.reverse();
  }
  let goodgate = true;
  let reason: string | null = null;
  const fail = (why: string): void => {
    if (reason === null) reason = why;
    goodgate = false;
  };

  const diffs = new Float64Array(n - 1);
  for (let i = 1; i < n; i++) diffs[i - 1] = Math.abs(value[i]! - value[i - 1]!);
  const noise = percentile(diffs, 50);
  const lowvalue = percentile(value, 1);
  let highvalue = percentile(value, 90);
  highvalue = percentile(
    value.filter((v) => v >= (lowvalue + highvalue) / 2),
    90,
  );
  const d = highvalue - lowvalue;

  let bandSum = 0;
  let bandCount = 0;
  for (let i = 0; i < n; i++)
    if (value[i]! > lowvalue + 0.2 * d && value[i]! < lowvalue + 0.8 * d) {
      bandSum += x[i]!;
      bandCount++;
    }
  let midpoint1 = bandCount ? bandSum / bandCount : Number.NaN;

  const smoothed = smooth(value);
  const midvalue = 0.7 * lowvalue + 0.3 * highvalue;
  let mp = smoothed.findIndex((v) => v >= midvalue);
  if (mp < 0) {
    // qtt raises IndexError here (nothing reaches 30 %); counted as "not good".
    mp = 2;
    fail('no sample reaches 30 % of the range');
  }
  mp = Math.max(mp, 2);
  let midpoint2 = x[mp]!;
  const atStart = percentile(x, 0.5);

  if (options.minthr !== undefined && Math.abs(lowvalue) > options.minthr) {
    midpoint1 = midpoint2 = atStart;
    fail('gate is not closed (minthr)');
  }

  // Fully open or fully closed: the smoothed side before mp against the smoothed value at mp.
  let sum = 0;
  for (let i = 0; i < n; i++) sum += smoothed[i]!;
  const m = sum / n;
  let sq = 0;
  for (let i = 0; i < n; i++) sq += (smoothed[i]! - m) ** 2;
  const st = Math.sqrt(sq / n);
  if (goodgate && smoothed[mp]! - mean(smoothed, 0, mp) < 0.3 * st) {
    midpoint1 = midpoint2 = atStart;
    fail('not closed or fully closed (level check)');
  }

  // Line fitted to the smoothed closed side.
  if (goodgate && mp > 5) {
    const { a, b } = lineFit(x, smoothed, 0, mp);
    const p0 = a * x[mp - 1]! + b;
    const pmid = a * x[0]! + b;
    if (pmid + (pmid - p0) * 0.25 > smoothed[0]!) {
      midpoint1 = midpoint2 = atStart;
      fail('not closed or fully closed (line fit check)');
    }
  }

  // Slope of the open side (only for coarse sweeps: steps over 150 mV).
  if (Math.abs(x[1]! - x[0]!) > 150 && mp > 15 && n - (mp + 6) >= 2) {
    const { a } = lineFit(x, smoothed, mp + 6, n);
    if (goodgate && (a / (highvalue - lowvalue)) * 750 > 1) {
      midpoint1 = midpoint2 = atStart;
      fail('not closed or fully closed (slope check)');
    }
  }

  // The raw closed side against the chord from (x[0], low) to the last sample before mp.
  const xa = x[0]!;
  const xb = x[mp - 1]!;
  const slope = xb !== xa ? (value[mp - 1]! - lowvalue) / (xb - xa) : 0;
  let excess = 0;
  for (let i = 0; i < mp; i++) excess += value[i]! - (lowvalue + slope * (x[i]! - xa));
  if (excess / mp > noise) {
    midpoint1 = midpoint2 = atStart;
    fail('not closed or fully closed (left region check)');
  }

  return { goodgate, reason, lowvalue, highvalue, midvalue, midpoint1, midpoint2, pinchoff_point: midpoint2 - 50, mp };
}

/** What the bench reads from qtt on a generated trace, in trace indices. */
export interface QttPinchOffAnswer {
  classification: boolean;
  transition_index: number | null;
  cut_off_index: number | null;
  reason: string | null;
}

/**
 * qtt on a generated trace: gate voltage rising towards the open side (x = −i for a closing sweep, i for an opening
 * one) and the current times its polarity, both from the generator. Indices are null when qtt says "not good".
 */
export function qttOnGeneratedTrace(trace: Float64Array, closing: boolean, polarity: 1 | -1): QttPinchOffAnswer {
  const x = Float64Array.from({ length: trace.length }, (_, i) => (closing ? -i : i));
  const value = polarity === 1 ? trace : trace.map((v) => -v);
  const r = analyseGateSweep(x, value);
  const toIndex = (voltage: number): number | null => (Number.isFinite(voltage) ? (closing ? -voltage : voltage) : null);
  return {
    classification: r.goodgate,
    transition_index: r.goodgate ? toIndex(r.midpoint1) : null,
    cut_off_index: r.goodgate ? toIndex(r.midpoint2) : null,
    reason: r.reason,
  };
}
