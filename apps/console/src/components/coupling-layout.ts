/**
 * Positions for a coupling graph in the unit square: qubits start on a circle and a fixed number of
 * Fruchterman–Reingold steps (attraction along couplings, repulsion between all qubits, a cooling step size)
 * untangle lines, grids and heavy-hex lattices. Deterministic: the same map is always drawn the same way.
 */
export function couplingLayout(qubits: number, edges: readonly (readonly [number, number])[] | null): [number, number][] {
  const n = Math.max(0, Math.floor(qubits));
  const pos: [number, number][] = Array.from({ length: n }, (_, i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, n) - Math.PI / 2;
    return [Math.cos(angle), Math.sin(angle)];
  });
  if (n <= 2 || !edges || edges.length === 0 || n > 400) return normalise(pos);
  const k = Math.sqrt(4 / n);
  const iterations = 300;
  for (let step = 0; step < iterations; step++) {
    const temperature = 0.1 * (1 - step / iterations) + 0.002;
    const shift = pos.map(() => [0, 0] as [number, number]);
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const dx = pos[a]![0] - pos[b]![0];
        const dy = pos[a]![1] - pos[b]![1];
        const d2 = Math.max(1e-6, dx * dx + dy * dy);
        const f = (k * k) / d2;
        shift[a]![0] += dx * f;
        shift[a]![1] += dy * f;
        shift[b]![0] -= dx * f;
        shift[b]![1] -= dy * f;
      }
    }
    for (const [a, b] of edges) {
      if (a >= n || b >= n || a === b) continue;
      const dx = pos[a]![0] - pos[b]![0];
      const dy = pos[a]![1] - pos[b]![1];
      const d = Math.max(1e-3, Math.hypot(dx, dy));
      const f = d / k;
      shift[a]![0] -= dx * f;
      shift[a]![1] -= dy * f;
      shift[b]![0] += dx * f;
      shift[b]![1] += dy * f;
    }
    for (let i = 0; i < n; i++) {
      const length = Math.max(1e-9, Math.hypot(shift[i]![0], shift[i]![1]));
      const move = Math.min(length, temperature);
      pos[i]![0] += (shift[i]![0] / length) * move;
      pos[i]![1] += (shift[i]![1] / length) * move;
    }
  }
  return normalise(pos);
}

/** Scales positions into [0, 1]² keeping the aspect ratio, centred. */
function normalise(pos: [number, number][]): [number, number][] {
  if (pos.length === 0) return pos;
  if (pos.length === 1) return [[0.5, 0.5]];
  const xs = pos.map((p) => p[0]);
  const ys = pos.map((p) => p[1]);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(maxX - minX, maxY - minY, 1e-9);
  const offX = (span - (maxX - minX)) / 2;
  const offY = (span - (maxY - minY)) / 2;
  return pos.map(([x, y]) => [(x - minX + offX) / span, (y - minY + offY) / span]);
}
