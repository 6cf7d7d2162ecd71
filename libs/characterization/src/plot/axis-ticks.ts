// "Nice numbers" for axis ticks: steps of 1, 2 or 5 × 10^k — P. S. Heckbert, "Nice numbers for graph labels",
// Graphics Gems (1990), pp. 61–63.

export interface AxisTicks {
  low: number;
  high: number;
  ticks: number[];
  step: number;
}

const TARGET_TICKS = 6;

function niceStep(rough: number): number {
  const exponent = Math.floor(Math.log10(rough));
  const fraction = rough / 10 ** exponent;
  const nice = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10;
  return nice * 10 ** exponent;
}

/**
 * Ticks covering [min, max]; a zero-width range is widened so that flat traces still get an axis. With `exact`,
 * the axis spans exactly [min, max] and only ticks inside it are kept (used for sample indices).
 */
export function axisTicks(min: number, max: number, exact = false): AxisTicks {
  let lo = min;
  let hi = max;
  if (!(hi > lo)) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const step = niceStep((hi - lo) / (TARGET_TICKS - 1));
  const low = Math.floor(lo / step) * step;
  const high = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let k = 0; low + k * step <= high + step * 1e-9; k++) ticks.push(low + k * step);
  if (!exact) return { low, high, ticks, step };
  return { low: lo, high: hi, ticks: ticks.filter((t) => t >= lo - step * 1e-9 && t <= hi + step * 1e-9), step };
}

/** Short label for a tick value: fixed digits matched to the step, exponent notation for very large or small numbers. */
export function formatTick(value: number, step: number): string {
  if (Math.abs(value) < step * 1e-9) return '0';
  const magnitude = Math.max(Math.abs(value), step);
  if (magnitude >= 1e5 || magnitude < 1e-3) {
    // Mantissa decimals: as many as the step resolves below the value's leading digit.
    const decimals = Math.max(0, Math.min(6, Math.floor(Math.log10(magnitude) + 1e-9) - Math.floor(Math.log10(step) + 1e-9)));
    return value.toExponential(decimals).replace('e+', 'e');
  }
  const decimals = Math.max(0, Math.min(10, -Math.floor(Math.log10(step) + 1e-9)));
  return value.toFixed(decimals);
}
