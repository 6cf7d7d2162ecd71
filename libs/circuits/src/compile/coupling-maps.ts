/**
 * Coupling maps of common device layouts, for device files, tests and benchmarks.
 * Heavy-hex: IBM's 16-qubit Falcon r4 layout (ibmq_guadalupe), degree ≤ 3.
 */
export type CouplingMap = [number, number][];

/** 0–1–2–…–(n−1). */
export function lineCouplingMap(n: number): CouplingMap {
  return Array.from({ length: Math.max(0, n - 1) }, (_, i) => [i, i + 1] as [number, number]);
}

/** rows × cols nearest-neighbour grid, qubit r·cols + c. */
export function gridCouplingMap(rows: number, cols: number): CouplingMap {
  const edges: CouplingMap = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const q = r * cols + c;
      if (c + 1 < cols) edges.push([q, q + 1]);
      if (r + 1 < rows) edges.push([q, q + cols]);
    }
  return edges;
}

/** The 16-qubit heavy-hex map (two hexagons with their 12 + 4 qubits). */
export function heavyHex16CouplingMap(): CouplingMap {
  return [
    [0, 1],
    [1, 2],
    [1, 4],
    [2, 3],
    [3, 5],
    [4, 7],
    [5, 8],
    [6, 7],
    [7, 10],
    [8, 9],
    [8, 11],
    [10, 12],
    [11, 14],
    [12, 13],
    [12, 15],
    [13, 14],
  ];
}
