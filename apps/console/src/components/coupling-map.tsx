import { useMemo } from 'preact/hooks';
import { couplingLayout } from './coupling-layout.js';

/** A device's qubits and the pairs that can run two-qubit gates, drawn as a graph (null map = all-to-all). */
export function CouplingMap({ device, qubits, edges }: { device: string; qubits: number; edges: [number, number][] | null }) {
  const points = useMemo(() => couplingLayout(qubits, edges), [qubits, edges]);
  const size = 120;
  const pad = 10;
  const at = (i: number) => [pad + points[i]![0] * (size - 2 * pad), pad + points[i]![1] * (size - 2 * pad)] as const;
  const label = edges ? `Coupling map of ${device}: ${qubits} qubits, ${edges.length} couplings` : `Coupling map of ${device}: ${qubits} qubits, all-to-all`;
  const drawn: [number, number][] = edges ?? (qubits <= 12 ? allPairs(qubits) : []);
  return (
    // Named by <title>, not aria-label: a device's name must not turn the drawing into a match for a form label.
    <svg role="img" viewBox={`0 0 ${size} ${size}`} class="coupling-map">
      <title>{label}</title>
      {drawn.map(([a, b]) => {
        if (a >= qubits || b >= qubits) return null;
        const [x1, y1] = at(a);
        const [x2, y2] = at(b);
        return <line key={`${a}-${b}`} class="edge" x1={x1} y1={y1} x2={x2} y2={y2} />;
      })}
      {points.map((_, i) => {
        const [x, y] = at(i);
        return (
          <g key={i}>
            <circle class="node" cx={x} cy={y} r={qubits > 30 ? 2.5 : 5} />
            {qubits <= 30 && (
              <text class="node-label" x={x} y={y + 2.5} text-anchor="middle">
                {i}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

function allPairs(n: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) pairs.push([a, b]);
  return pairs;
}
