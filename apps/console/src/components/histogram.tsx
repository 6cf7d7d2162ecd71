/**
 * Measurement counts as bars (bitstrings in order, little-endian as the API writes them), with the numbers in a
 * table beside it for screen readers and for reading exact values.
 */
export function Histogram({ counts, label = 'Results histogram' }: { counts: Record<string, number>; label?: string }) {
  const entries = Object.entries(counts).sort(([a], [b]) => (a.length === b.length ? (a < b ? -1 : a > b ? 1 : 0) : a.length - b.length));
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  const shown = entries.slice(0, 64);
  const max = Math.max(1, ...shown.map(([, n]) => n));
  const barWidth = 36;
  const gap = 10;
  const height = 180;
  const top = 18;
  const bottom = 34;
  const width = Math.max(240, shown.length * (barWidth + gap) + gap);
  return (
    <div class="histogram">
      <svg role="img" aria-label={label} viewBox={`0 0 ${width} ${height + top + bottom}`} width={width} height={height + top + bottom} class="chart">
        <line class="axis" x1={0} y1={top + height} x2={width} y2={top + height} />
        {shown.map(([bits, n], i) => {
          const h = (n / max) * height;
          const x = gap + i * (barWidth + gap);
          return (
            <g key={bits}>
              <rect class="bar" x={x} y={top + height - h} width={barWidth} height={h} />
              <text class="bar-value" x={x + barWidth / 2} y={top + height - h - 4} text-anchor="middle">
                {n}
              </text>
              <text class="bar-label" x={x + barWidth / 2} y={top + height + 18} text-anchor="middle">
                {bits}
              </text>
            </g>
          );
        })}
      </svg>
      <table class="compact">
        <caption>
          Counts ({total} shots{entries.length > shown.length ? `; the chart shows the first ${shown.length} of ${entries.length} outcomes` : ''})
        </caption>
        <thead>
          <tr>
            <th scope="col">Bitstring</th>
            <th scope="col">Count</th>
            <th scope="col">Share</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([bits, n]) => (
            <tr key={bits}>
              <th scope="row">
                <code>{bits}</code>
              </th>
              <td>{n}</td>
              <td>{total ? `${((100 * n) / total).toFixed(1)} %` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
