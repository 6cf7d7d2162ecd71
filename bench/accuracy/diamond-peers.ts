// Peer baseline for the Coulomb-diamond detectors (issue 29): a re-implementation of the method of diamondminer
// (mainCSG/diamondminer, https://github.com/mainCSG/diamondminer): edge detection on the map, Hough-transform lines,
// and diamonds from the intersections of lines of the two slope signs. Not their code (none copied): same steps, our
// choices where their parameters are tuned per device — Gaussian blur σ = 1 px, Sobel magnitude with non-maximum
// suppression, edges above the 85th percentile, Hough over 1° × 1 px with peaks suppressed ±3 px / ±5°, up to 30
// lines of ≥ 15 votes, near-horizontal/vertical lines (within 8°) dropped. Zero bias = the most frequent row of
// crossings of a rising and a falling line (the degeneracy points); consecutive crossings on it are the left/right
// vertices, and the lines through them meet at the top/bottom vertices (line extrapolation: the T = 0 tips).
// Runs on the map resampled (area average / nearest) to 128 × 128; answers in the caller's pixels.
import type { DiamondVertices } from '#qdc/characterization';

const SIZE = 128;

function resample(data: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(SIZE * SIZE);
  for (let v = 0; v < SIZE; v++) {
    const y0 = Math.floor((v * rows) / SIZE);
    const y1 = Math.max(y0 + 1, Math.floor(((v + 1) * rows) / SIZE));
    for (let u = 0; u < SIZE; u++) {
      const x0 = Math.floor((u * cols) / SIZE);
      const x1 = Math.max(x0 + 1, Math.floor(((u + 1) * cols) / SIZE));
      let s = 0;
      for (let y = y0; y < Math.min(rows, y1); y++) for (let x = x0; x < Math.min(cols, x1); x++) s += data[y * cols + x]!;
      out[v * SIZE + u] = s / ((Math.min(rows, y1) - y0) * (Math.min(cols, x1) - x0));
    }
  }
  return out;
}

function blur(img: Float64Array): Float64Array {
  const k = [0.054, 0.244, 0.403, 0.244, 0.054];
  const pass = (src: Float64Array, dx: number, dy: number): Float64Array => {
    const out = new Float64Array(src.length);
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++) {
        let s = 0;
        for (let i = -2; i <= 2; i++) {
          const xx = Math.max(0, Math.min(SIZE - 1, x + i * dx));
          const yy = Math.max(0, Math.min(SIZE - 1, y + i * dy));
          s += k[i + 2]! * src[yy * SIZE + xx]!;
        }
        out[y * SIZE + x] = s;
      }
    return out;
  };
  return pass(pass(img, 1, 0), 0, 1);
}

interface Line {
  m: number;
  b: number;
}

export function diamondminerLike(data: Float64Array, rows: number, cols: number): DiamondVertices[] {
  const img = blur(resample(data, rows, cols));
  const mag = new Float64Array(SIZE * SIZE);
  const dir = new Float64Array(SIZE * SIZE);
  for (let y = 1; y < SIZE - 1; y++)
    for (let x = 1; x < SIZE - 1; x++) {
      const at = (dx: number, dy: number): number => img[(y + dy) * SIZE + x + dx]!;
      const gx = at(1, -1) + 2 * at(1, 0) + at(1, 1) - at(-1, -1) - 2 * at(-1, 0) - at(-1, 1);
      const gy = at(-1, 1) + 2 * at(0, 1) + at(1, 1) - at(-1, -1) - 2 * at(0, -1) - at(1, -1);
      mag[y * SIZE + x] = Math.hypot(gx, gy);
      dir[y * SIZE + x] = Math.atan2(gy, gx);
    }
  const sorted = Float64Array.from(mag).sort();
  const threshold = sorted[Math.floor(0.85 * (sorted.length - 1))]!;
  const edges: [number, number][] = [];
  for (let y = 1; y < SIZE - 1; y++)
    for (let x = 1; x < SIZE - 1; x++) {
      const m = mag[y * SIZE + x]!;
      if (m <= threshold || m === 0) continue;
      const dx = Math.round(Math.cos(dir[y * SIZE + x]!));
      const dy = Math.round(Math.sin(dir[y * SIZE + x]!));
      if (m >= mag[(y + dy) * SIZE + x + dx]! && m >= mag[(y - dy) * SIZE + x - dx]!) edges.push([x, y]);
    }
  // Hough accumulator over θ ∈ [0°, 180°), ρ ∈ [−R, R].
  const R = Math.ceil(Math.SQRT2 * SIZE);
  const acc = new Int32Array(180 * (2 * R + 1));
  const cos = Array.from({ length: 180 }, (_, t) => Math.cos((t * Math.PI) / 180));
  const sin = Array.from({ length: 180 }, (_, t) => Math.sin((t * Math.PI) / 180));
  for (const [x, y] of edges) for (let t = 0; t < 180; t++) acc[t * (2 * R + 1) + Math.round(x * cos[t]! + y * sin[t]!) + R]!++;
  const lines: Line[] = [];
  for (let n = 0; n < 30; n++) {
    let best = -1;
    let bestVotes = 14;
    for (let i = 0; i < acc.length; i++) if (acc[i]! > bestVotes) [best, bestVotes] = [i, acc[i]!];
    if (best < 0) break;
    const t = Math.floor(best / (2 * R + 1));
    const rho = (best % (2 * R + 1)) - R;
    for (let dt = -5; dt <= 5; dt++)
      for (let dr = -3; dr <= 3; dr++) {
        const tt = (t + dt + 180) % 180;
        const rr = rho + dr + R;
        if (rr >= 0 && rr <= 2 * R) acc[tt * (2 * R + 1) + rr] = 0;
      }
    // x cosθ + y sinθ = ρ → y = m x + b; drop near-horizontal (θ ≈ 90°) and near-vertical (θ ≈ 0°/180°) lines.
    if (Math.abs(t - 90) < 8 || t < 8 || t > 172) continue;
    lines.push({ m: -cos[t]! / sin[t]!, b: rho / sin[t]! });
  }
  const rising = lines.filter((l) => l.m > 0);
  const falling = lines.filter((l) => l.m < 0);
  const cross = (p: Line, q: Line): [number, number] => {
    const x = (q.b - p.b) / (p.m - q.m);
    return [x, p.m * x + p.b];
  };
  const crossings: { x: number; y: number; r: Line; f: Line }[] = [];
  for (const r of rising)
    for (const f of falling) {
      const [x, y] = cross(r, f);
      if (x >= 0 && x <= SIZE - 1 && y >= 0 && y <= SIZE - 1) crossings.push({ x, y, r, f });
    }
  if (crossings.length < 2) return [];
  const hist = new Int32Array(SIZE);
  for (const c of crossings) for (let d = -1; d <= 1; d++) hist[Math.max(0, Math.min(SIZE - 1, Math.round(c.y) + d))]!++;
  let y0 = 0;
  for (let y = 1; y < SIZE; y++) if (hist[y]! > hist[y0]!) y0 = y;
  const points = crossings.filter((c) => Math.abs(c.y - y0) <= 3).sort((a, b) => a.x - b.x);
  const merged: typeof points = [];
  for (const p of points) if (!merged.length || p.x - merged[merged.length - 1]!.x > 4) merged.push(p);
  const out: DiamondVertices[] = [];
  for (let k = 0; k + 1 < merged.length; k++) {
    const a = merged[k]!;
    const c = merged[k + 1]!;
    // Image rows grow downwards: from the left point the upper edge falls (m < 0), from the right point it rises.
    const top = cross(a.f, c.r);
    const bottom = cross(a.r, c.f);
    if (!(top[1] < y0 && bottom[1] > y0 && top[0] > a.x && top[0] < c.x && bottom[0] > a.x && bottom[0] < c.x)) continue;
    const d: DiamondVertices = [[a.x, y0], top, [c.x, y0], bottom];
    if (!d.every(([x, y]) => x >= 0 && x <= SIZE - 1 && y >= 0 && y <= SIZE - 1)) continue;
    out.push(d.map(([x, y]) => [((x + 0.5) * cols) / SIZE - 0.5, ((y + 0.5) * rows) / SIZE - 0.5]) as DiamondVertices);
  }
  return out;
}
