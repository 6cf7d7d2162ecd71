// Steps 4–5 of the charge-region segmenter: markers inside the plateaus (chamfer distance to the lines, split at
// necks by h-maxima) and the marker-controlled watershed (Meyer, Signal Process. 38, 113 (1994); Beucher & Meyer,
// Mathematical Morphology in Image Processing (1993), ch. 12) by priority flooding.

/** Chamfer (3-4) distance, in px, from every pixel to the nearest pixel outside `inside`; the window border is not an edge. */
export function chamferDistance(inside: Uint8Array, rows: number, cols: number): Float64Array {
  const big = 1e9;
  const d = new Float64Array(rows * cols);
  for (let i = 0; i < d.length; i++) d[i] = inside[i] ? big : 0;
  const relax = (i: number, y: number, x: number, w: number): void => {
    if (y < 0 || y >= rows || x < 0 || x >= cols) return;
    const v = d[y * cols + x]! + w;
    if (v < d[i]!) d[i] = v;
  };
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      const i = y * cols + x;
      if (!d[i]) continue;
      relax(i, y, x - 1, 3);
      relax(i, y - 1, x, 3);
      relax(i, y - 1, x - 1, 4);
      relax(i, y - 1, x + 1, 4);
    }
  }
  for (let y = rows - 1; y >= 0; y--) {
    for (let x = cols - 1; x >= 0; x--) {
      const i = y * cols + x;
      if (!d[i]) continue;
      relax(i, y, x + 1, 3);
      relax(i, y + 1, x, 3);
      relax(i, y + 1, x + 1, 4);
      relax(i, y + 1, x - 1, 4);
    }
  }
  for (let i = 0; i < d.length; i++) d[i] = d[i]! >= big ? Infinity : d[i]! / 3;
  return d;
}

export function thresholdMarkers(distance: Float64Array, rows: number, cols: number, depth: number): { labels: Int32Array; count: number } {
  const core = new Uint8Array(rows * cols);
  for (let i = 0; i < core.length; i++) core[i] = distance[i]! >= depth ? 1 : 0;
  return components(core, rows, cols);
}

/**
 * Markers split at necks: the plateau interior (distance ≥ depth) is flooded from its distance maxima downwards and
 * two basins stay apart where both peaks rise ≥ `dynamics` px above the saddle (h-maxima, Soille, Morphological Image
 * Analysis (2003), Sec. 6.3.4): two charge states joined only through an invisible short transition (e.g. an
 * interdot line seen by an equally coupled sensor) are two convex cells touching at a neck.
 */
export function distanceMarkers(distance: Float64Array, rows: number, cols: number, depth: number, dynamics: number): { labels: Int32Array; count: number } {
  const n = rows * cols;
  const order: number[] = [];
  for (let i = 0; i < n; i++) if (distance[i]! >= depth) order.push(i);
  order.sort((a, b) => distance[b]! - distance[a]! || a - b);
  const basin = new Int32Array(n);
  const parent: number[] = [0];
  const peak: number[] = [0];
  const root = (c: number): number => {
    while (parent[c] !== c) c = parent[c] = parent[parent[c]!]!;
    return c;
  };
  const seen: number[] = [];
  for (const p of order) {
    const y = Math.floor(p / cols);
    const x = p - y * cols;
    seen.length = 0;
    for (const [dy, dx] of [
      [0, -1],
      [0, 1],
      [-1, 0],
      [1, 0],
    ] as const) {
      const yy = y + dy;
      const xx = x + dx;
      if (yy < 0 || yy >= rows || xx < 0 || xx >= cols) continue;
      const c = basin[yy * cols + xx]!;
      if (c > 0) {
        const r = root(c);
        if (!seen.includes(r)) seen.push(r);
      }
    }
    if (!seen.length) {
      parent.push(parent.length);
      peak.push(distance[p]!);
      basin[p] = parent.length - 1;
      continue;
    }
    seen.sort((a, b) => peak[b]! - peak[a]! || a - b);
    const level = distance[p]!;
    const keep = seen.filter((r, k) => k === 0 || peak[r]! - level >= dynamics);
    for (const r of seen) if (!keep.includes(r)) parent[r] = keep[0]!;
    if (keep.length === 1) basin[p] = keep[0]!;
  }
  const labels = new Int32Array(n);
  const ids = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (!basin[i]) continue;
    const r = root(basin[i]!);
    let id = ids.get(r);
    if (id === undefined) {
      id = ids.size + 1;
      ids.set(r, id);
    }
    labels[i] = id;
  }
  return { labels, count: ids.size };
}

/** 4-connected components of `mask`; labels 1…count, 0 outside. */
function components(mask: Uint8Array, rows: number, cols: number): { labels: Int32Array; count: number } {
  const labels = new Int32Array(rows * cols);
  let count = 0;
  const stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || labels[s]) continue;
    labels[s] = ++count;
    stack.push(s);
    while (stack.length) {
      const j = stack.pop()!;
      const y = Math.floor(j / cols);
      const x = j - y * cols;
      if (x > 0 && mask[j - 1] && !labels[j - 1]) {
        stack.push(j - 1);
        labels[j - 1] = count;
      }
      if (x < cols - 1 && mask[j + 1] && !labels[j + 1]) {
        stack.push(j + 1);
        labels[j + 1] = count;
      }
      if (y > 0 && mask[j - cols] && !labels[j - cols]) {
        stack.push(j - cols);
        labels[j - cols] = count;
      }
      if (y < rows - 1 && mask[j + cols] && !labels[j + cols]) {
        stack.push(j + cols);
        labels[j + cols] = count;
      }
    }
  }
  return { labels, count };
}

/** Binary min-heap of pixel indices keyed by evidence (ties: insertion order, for determinism). */
class PixelQueue {
  private keys: number[] = [];
  private items: number[] = [];
  private orders: number[] = [];
  private counter = 0;
  get size(): number {
    return this.items.length;
  }
  private less(a: number, b: number): boolean {
    return this.keys[a]! < this.keys[b]! || (this.keys[a] === this.keys[b] && this.orders[a]! < this.orders[b]!);
  }
  private swap(a: number, b: number): void {
    [this.keys[a], this.keys[b]] = [this.keys[b]!, this.keys[a]!];
    [this.items[a], this.items[b]] = [this.items[b]!, this.items[a]!];
    [this.orders[a], this.orders[b]] = [this.orders[b]!, this.orders[a]!];
  }
  push(item: number, key: number): void {
    this.keys.push(key);
    this.items.push(item);
    this.orders.push(this.counter++);
    let i = this.items.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }
  pop(): number {
    const top = this.items[0]!;
    const last = this.items.length - 1;
    this.swap(0, last);
    this.keys.pop();
    this.items.pop();
    this.orders.pop();
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.items.length && this.less(l, m)) m = l;
      if (r < this.items.length && this.less(r, m)) m = r;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
    return top;
  }
}

/** Step 4: every pixel takes the label of the marker whose flood reaches it first (lowest evidence first). */
export function watershed(evidence: Float64Array, markers: Int32Array, rows: number, cols: number): Int32Array {
  const labels = Int32Array.from(markers);
  const queue = new PixelQueue();
  const queued = new Uint8Array(rows * cols);
  const visit = (j: number, from: number): void => {
    if (labels[j] || queued[j]) return;
    queued[j] = 1;
    labels[j] = -labels[from]!;
    queue.push(j, evidence[j]!);
  };
  const spread = (i: number): void => {
    const y = Math.floor(i / cols);
    const x = i - y * cols;
    if (x > 0) visit(i - 1, i);
    if (x < cols - 1) visit(i + 1, i);
    if (y > 0) visit(i - cols, i);
    if (y < rows - 1) visit(i + cols, i);
  };
  for (let i = 0; i < labels.length; i++) if (labels[i]! > 0) spread(i);
  while (queue.size) {
    const i = queue.pop();
    labels[i] = -labels[i]!;
    spread(i);
  }
  return labels;
}
