import type { NdArray } from '#qdc/arrays';
import { useEffect, useRef } from 'preact/hooks';
import { markerIndices } from './frame-markers.js';

/** One instrument frame: a 1-D trace as a line (detections as vertical markers) or a 2-D map as a heat map. */
export function FramePlot({
  array,
  label,
  outputs = [],
  compact = false,
}: {
  array: NdArray;
  label: string;
  outputs?: Record<string, unknown>[];
  compact?: boolean;
}) {
  if (array.shape.length === 2) return <HeatMap array={array} label={label} compact={compact} />;
  return <LinePlot values={array.data} label={label} markers={outputs.flatMap(markerIndices)} compact={compact} />;
}

function LinePlot({ values, label, markers, compact }: { values: Float64Array; label: string; markers: number[]; compact: boolean }) {
  const width = compact ? 160 : 640;
  const height = compact ? 48 : 240;
  const pad = compact ? 2 : 28;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (!Number.isFinite(min)) [min, max] = [0, 1];
  if (max === min) [min, max] = [min - 1, max + 1];
  const n = values.length;
  const x = (i: number) => pad + (n <= 1 ? 0 : (i / (n - 1)) * (width - 2 * pad));
  const y = (v: number) => height - pad - ((v - min) / (max - min)) * (height - 2 * pad);
  // At most ~2 points per pixel column: a long trace stays a light path.
  const stride = Math.max(1, Math.floor(n / (2 * width)));
  let path = '';
  for (let i = 0; i < n; i += stride) {
    const v = values[i]!;
    if (Number.isFinite(v)) path += `${path ? 'L' : 'M'}${x(i).toFixed(1)},${y(v).toFixed(1)}`;
  }
  const description = `${label}: ${n} points from ${fmt(min)} to ${fmt(max)}${markers.length ? `; ${markers.length} detections marked` : ''}`;
  return (
    <svg role="img" aria-label={description} viewBox={`0 0 ${width} ${height}`} class={compact ? 'frame-plot compact' : 'frame-plot'}>
      {!compact && (
        <>
          <line class="axis" x1={pad} y1={height - pad} x2={width - pad} y2={height - pad} />
          <line class="axis" x1={pad} y1={pad} x2={pad} y2={height - pad} />
          <text class="tick" x={pad - 4} y={pad + 4} text-anchor="end">
            {fmt(max)}
          </text>
          <text class="tick" x={pad - 4} y={height - pad} text-anchor="end">
            {fmt(min)}
          </text>
          <text class="tick" x={width - pad} y={height - pad + 16} text-anchor="end">
            {n - 1}
          </text>
        </>
      )}
      {markers
        .filter((m) => m >= 0 && m < n)
        .map((m, i) => (
          <line key={i} class="marker" x1={x(m)} y1={pad} x2={x(m)} y2={height - pad} />
        ))}
      <path class="trace" d={path} />
    </svg>
  );
}

function HeatMap({ array, label, compact }: { array: NdArray; label: string; compact: boolean }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [rows, cols] = array.shape as [number, number];
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context) return;
    const image = context.createImageData(cols, rows);
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (const v of array.data) {
      if (Number.isFinite(v)) {
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    const span = max > min ? max - min : 1;
    for (let i = 0; i < array.data.length; i++) {
      const t = Number.isFinite(array.data[i]!) ? (array.data[i]! - min) / span : 0;
      // A blue → yellow ramp (perceptually ordered, readable on light and dark pages).
      image.data[4 * i] = Math.round(40 + 215 * t);
      image.data[4 * i + 1] = Math.round(30 + 200 * t);
      image.data[4 * i + 2] = Math.round(120 - 90 * t);
      image.data[4 * i + 3] = 255;
    }
    context.putImageData(image, 0, 0);
  }, [array, rows, cols]);
  return (
    <canvas
      ref={canvas}
      width={cols}
      height={rows}
      role="img"
      aria-label={`${label}: a ${rows} × ${cols} map`}
      class={compact ? 'heat-map compact' : 'heat-map'}
    />
  );
}

function fmt(v: number): string {
  return Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(2) : String(Number(v.toPrecision(4)));
}
