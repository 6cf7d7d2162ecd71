// The axes frame of a plot: the longest dark horizontal line low in the image is the x axis (bottom spine), the
// longest dark vertical line on the left is the y axis (left spine); the frame spans the x axis's extent and the
// y axis's height. Works for boxed axes (matplotlib's default) and open axes (top/right spines hidden).
import { isInk, type Box, type PixelPlanes } from './pixel-masks.js';

export interface PlotFrame extends Box {
  /** Outer edges of the spines (ticks pointing out start beyond them). */
  bottomOuter: number;
  leftOuter: number;
}

interface Run {
  at: number;
  from: number;
  to: number;
}

/** Longest run of ink along a row (horizontal) or column, allowing one-pixel gaps. */
function longestRun(planes: PixelPlanes, at: number, horizontal: boolean): Run {
  const length = horizontal ? planes.width : planes.height;
  let best: Run = { at, from: 0, to: 0 };
  let start = -1;
  let gap = 0;
  for (let k = 0; k <= length; k++) {
    const i = horizontal ? at * planes.width + k : k * planes.width + at;
    const ink = k < length && isInk(planes, i);
    if (ink) {
      if (start < 0) start = k;
      gap = 0;
    } else if (start >= 0) {
      gap++;
      if (gap > 1 || k === length) {
        const end = k - gap + 1;
        if (end - start > best.to - best.from) best = { at, from: start, to: end };
        start = -1;
        gap = 0;
      }
    }
  }
  return best;
}

/** Groups adjacent lines (thick spines are several pixels) and returns [inner, outer] per group. */
function groups(lines: Run[]): Run[][] {
  const out: Run[][] = [];
  for (const line of lines) {
    const last = out.at(-1);
    if (last && line.at - last.at(-1)!.at <= 1) last.push(line);
    else out.push([line]);
  }
  return out;
}

export function findPlotFrame(planes: PixelPlanes): PlotFrame | null {
  const { width, height } = planes;
  const rows: Run[] = [];
  for (let y = 0; y < height; y++) {
    const run = longestRun(planes, y, true);
    if (run.to - run.from >= 0.3 * width) rows.push(run);
  }
  const cols: Run[] = [];
  for (let x = 0; x < width; x++) {
    const run = longestRun(planes, x, false);
    if (run.to - run.from >= 0.25 * height) cols.push(run);
  }
  if (!rows.length || !cols.length) return null;
  const rowGroups = groups(rows);
  const colGroups = groups(cols);
  const bottom = rowGroups.at(-1)!;
  const left = colGroups[0]!;
  const bottomInner = bottom[0]!.at;
  const bottomOuter = bottom.at(-1)!.at;
  const leftOuter = left[0]!.at;
  const leftInner = left.at(-1)!.at;
  const xExtent = bottom[0]!;
  const yExtent = left[0]!;
  // The right edge: a right spine at the x axis's end, else the end of the axis line.
  let right = xExtent.to - 1;
  const rightGroup = colGroups.at(-1)!;
  if (colGroups.length > 1 && Math.abs(rightGroup.at(-1)!.at - right) <= 3) right = rightGroup[0]!.at;
  let top = yExtent.from;
  if (rowGroups.length > 1 && Math.abs(rowGroups[0]!.at(-1)!.at - top) <= 3) top = rowGroups[0]!.at(-1)!.at;
  if (right - leftInner < 0.2 * width || bottomInner - top < 0.2 * height) return null;
  return { x0: leftInner + 1, x1: right, y0: top + 1, y1: bottomInner, bottomOuter, leftOuter };
}
