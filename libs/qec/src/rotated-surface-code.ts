// Geometry of the rotated surface code in the layout of SPEC.md §6 (Horsman et al., New J. Phys. 14, 123011 (2012);
// Tomita & Svore, Phys. Rev. A 90, 062320 (2014)): data qubits on a D × D grid (r, c); a plaquette (r, c) for
// r, c ∈ {-1 … D-1} has corners (r..r+1, c..c+1) inside the grid; bulk plaquettes are X-type when r + c is even,
// weight-2 plaquettes are X-type on the top/bottom edges and Z-type on the left/right edges (checkerboard parity).

/** 0 = X-type stabilizer (detects Z errors), 1 = Z-type stabilizer (detects X errors). */
export type StabilizerType = 0 | 1;

export interface Stabilizer {
  type: StabilizerType;
  /** Plaquette corner (r, c) ∈ {-1 … D-1}². */
  r: number;
  c: number;
  /** Storage cell of the SPEC tensors: (max(r, 0), max(c, 0)) as a flat index row * D + col. */
  cell: number;
  /** Data qubits (flat indices row * D + col), in the order NW, NE, SW, SE with absent corners dropped. */
  qubits: number[];
  /** Corners as (NW, NE, SW, SE), -1 where the corner lies outside the grid (used by the circuit schedule). */
  corners: [number, number, number, number];
}

export interface RotatedSurfaceCode {
  distance: number;
  /** D². */
  dataQubits: number;
  /** Stabilizers of each type, indexed [type][k]. */
  stabilizers: [Stabilizer[], Stabilizer[]];
  /** For each type: data qubit → indices (into stabilizers[type]) of the stabilizers of that type that contain it (1 or 2). */
  qubitStabilizers: [number[][], number[][]];
  /** For each type: grid cell → stabilizer index or -1 (the SPEC mask of that type is cellStabilizer[type][cell] >= 0). */
  cellStabilizer: [Int32Array, Int32Array];
  /**
   * Supports of the logical observables. logicalSupport[0] = support of X_L (column 0): the parity of net Z errors
   * on it is the flip of the X observable. logicalSupport[1] = support of Z_L (row 0): parity of net X errors there
   * flips the Z observable.
   */
  logicalSupport: [number[], number[]];
}

export function isValidDistance(distance: number): boolean {
  return Number.isInteger(distance) && distance >= 3 && distance % 2 === 1;
}

export function rotatedSurfaceCode(distance: number): RotatedSurfaceCode {
  if (!isValidDistance(distance)) throw new RangeError(`expected an odd distance ≥ 3; got ${distance}`);
  const d = distance;
  const inside = (r: number, c: number): boolean => r >= 0 && r < d && c >= 0 && c < d;
  const stabilizers: [Stabilizer[], Stabilizer[]] = [[], []];
  for (let r = -1; r <= d - 1; r++) {
    for (let c = -1; c <= d - 1; c++) {
      const bulk = r >= 0 && c >= 0 && r <= d - 2 && c <= d - 2;
      const even = (((r + c) % 2) + 2) % 2 === 0;
      let type: StabilizerType | undefined;
      if (bulk) type = even ? 0 : 1;
      else if ((r === -1 || r === d - 1) && c >= 0 && c <= d - 2 && even) type = 0;
      else if ((c === -1 || c === d - 1) && r >= 0 && r <= d - 2 && !even) type = 1;
      if (type === undefined) continue;
      const corner = (rr: number, cc: number): number => (inside(rr, cc) ? rr * d + cc : -1);
      const corners: [number, number, number, number] = [corner(r, c), corner(r, c + 1), corner(r + 1, c), corner(r + 1, c + 1)];
      stabilizers[type].push({ type, r, c, cell: Math.max(r, 0) * d + Math.max(c, 0), qubits: corners.filter((q) => q >= 0), corners });
    }
  }
  const qubitStabilizers: [number[][], number[][]] = [Array.from({ length: d * d }, () => []), Array.from({ length: d * d }, () => [])];
  const cellStabilizer: [Int32Array, Int32Array] = [new Int32Array(d * d).fill(-1), new Int32Array(d * d).fill(-1)];
  for (const type of [0, 1] as const) {
    stabilizers[type].forEach((s, k) => {
      for (const q of s.qubits) qubitStabilizers[type][q]!.push(k);
      if (cellStabilizer[type][s.cell] !== -1) throw new Error(`two ${type === 0 ? 'X' : 'Z'} stabilizers stored at cell ${s.cell}`);
      cellStabilizer[type][s.cell] = k;
    });
  }
  const column0 = Array.from({ length: d }, (_, r) => r * d);
  const row0 = Array.from({ length: d }, (_, c) => c);
  return { distance: d, dataQubits: d * d, stabilizers, qubitStabilizers, cellStabilizer, logicalSupport: [column0, row0] };
}

/** The standard mask of a type as a D × D 0/1 array (C order). */
export function standardMask(code: RotatedSurfaceCode, type: StabilizerType): Uint8Array {
  return Uint8Array.from(code.cellStabilizer[type], (k) => (k >= 0 ? 1 : 0));
}
