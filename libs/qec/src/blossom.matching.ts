// Maximum-weight matching in a general graph by Edmonds' blossom algorithm with Galil's O(n³) primal–dual
// bookkeeping (J. Edmonds, Can. J. Math. 17, 449 (1965); Z. Galil, ACM Comput. Surv. 18, 23 (1986)), following the
// structure of J. van Rantwijk's reference implementation (mwmatching.py, 2008). With integer weights every
// computation is exact. minWeightPerfectMatching reduces to it (maximum cardinality, weights W − w).

export interface WeightedEdge {
  u: number;
  v: number;
  /** Integer weight. */
  weight: number;
}

/** mate[v] = partner of v or -1. */
export function maxWeightMatching(vertexCount: number, edges: readonly WeightedEdge[], maxCardinality: boolean): Int32Array {
  const nvertex = vertexCount;
  const nedge = edges.length;
  const result = new Int32Array(nvertex).fill(-1);
  if (nedge === 0 || nvertex === 0) return result;
  let maxweight = 0;
  for (const e of edges) maxweight = Math.max(maxweight, e.weight);
  const eu = new Int32Array(nedge);
  const ev = new Int32Array(nedge);
  const ew = new Float64Array(nedge);
  edges.forEach((e, k) => {
    eu[k] = e.u;
    ev[k] = e.v;
    ew[k] = e.weight;
  });
  // endpoint[p]: vertex at endpoint p of edge p >> 1.
  const endpoint = new Int32Array(2 * nedge);
  for (let k = 0; k < nedge; k++) {
    endpoint[2 * k] = eu[k]!;
    endpoint[2 * k + 1] = ev[k]!;
  }
  const neighbend: number[][] = Array.from({ length: nvertex }, () => []);
  for (let k = 0; k < nedge; k++) {
    neighbend[eu[k]!]!.push(2 * k + 1);
    neighbend[ev[k]!]!.push(2 * k);
  }
  const n2 = 2 * nvertex;
  const mate = new Int32Array(nvertex).fill(-1);
  const label = new Int32Array(n2);
  const labelend = new Int32Array(n2).fill(-1);
  const inblossom = new Int32Array(nvertex);
  for (let v = 0; v < nvertex; v++) inblossom[v] = v;
  const blossomparent = new Int32Array(n2).fill(-1);
  const blossomchilds: (number[] | null)[] = new Array(n2).fill(null);
  const blossombase = new Int32Array(n2).fill(-1);
  for (let v = 0; v < nvertex; v++) blossombase[v] = v;
  const blossomendps: (number[] | null)[] = new Array(n2).fill(null);
  const bestedge = new Int32Array(n2).fill(-1);
  const blossombestedges: (number[] | null)[] = new Array(n2).fill(null);
  const unusedblossoms: number[] = [];
  for (let b = n2 - 1; b >= nvertex; b--) unusedblossoms.push(b);
  const dualvar = new Float64Array(n2);
  for (let v = 0; v < nvertex; v++) dualvar[v] = maxweight;
  const allowedge = new Uint8Array(nedge);
  let queue: number[] = [];

  const slack = (k: number): number => dualvar[eu[k]!]! + dualvar[ev[k]!]! - 2 * ew[k]!;
  const at = (list: number[], j: number): number => list[((j % list.length) + list.length) % list.length]!;

  const blossomLeaves = (b: number, out: number[]): number[] => {
    if (b < nvertex) out.push(b);
    else for (const t of blossomchilds[b]!) blossomLeaves(t, out);
    return out;
  };

  const assignLabel = (w: number, t: number, p: number): void => {
    const b = inblossom[w]!;
    label[w] = label[b] = t;
    labelend[w] = labelend[b] = p;
    bestedge[w] = bestedge[b] = -1;
    if (t === 1) {
      blossomLeaves(b, queue);
    } else if (t === 2) {
      const base = blossombase[b]!;
      assignLabel(endpoint[mate[base]!]!, 1, mate[base]! ^ 1);
    }
  };

  const scanBlossom = (v0: number, w0: number): number => {
    let v = v0;
    let w = w0;
    const path: number[] = [];
    let base = -1;
    while (v !== -1 || w !== -1) {
      let b = inblossom[v]!;
      if (label[b]! & 4) {
        base = blossombase[b]!;
        break;
      }
      path.push(b);
      label[b] = 5;
      if (labelend[b] === -1) {
        v = -1;
      } else {
        v = endpoint[labelend[b]!]!;
        b = inblossom[v]!;
        v = endpoint[labelend[b]!]!;
      }
      if (w !== -1) {
        const tmp = v;
        v = w;
        w = tmp;
      }
    }
    for (const b of path) label[b] = 1;
    return base;
  };

  const addBlossom = (base: number, k: number): void => {
    let v = eu[k]!;
    let w = ev[k]!;
    const bb = inblossom[base]!;
    let bv = inblossom[v]!;
    let bw = inblossom[w]!;
    const b = unusedblossoms.pop()!;
    blossombase[b] = base;
    blossomparent[b] = -1;
    blossomparent[bb] = b;
    const path: number[] = [];
    const endps: number[] = [];
    while (bv !== bb) {
      blossomparent[bv] = b;
      path.push(bv);
      endps.push(labelend[bv]!);
      v = endpoint[labelend[bv]!]!;
      bv = inblossom[v]!;
    }
    path.push(bb);
    path.reverse();
    endps.reverse();
    endps.push(2 * k);
    while (bw !== bb) {
      blossomparent[bw] = b;
      path.push(bw);
      endps.push(labelend[bw]! ^ 1);
      w = endpoint[labelend[bw]!]!;
      bw = inblossom[w]!;
    }
    blossomchilds[b] = path;
    blossomendps[b] = endps;
    label[b] = 1;
    labelend[b] = labelend[bb]!;
    dualvar[b] = 0;
    for (const leaf of blossomLeaves(b, [])) {
      if (label[inblossom[leaf]!] === 2) queue.push(leaf);
      inblossom[leaf] = b;
    }
    const bestedgeto = new Int32Array(n2).fill(-1);
    for (const child of path) {
      let nblists: number[][];
      if (blossombestedges[child] === null) {
        nblists = blossomLeaves(child, []).map((leaf) => neighbend[leaf]!.map((p) => p >> 1));
      } else {
        nblists = [blossombestedges[child]!];
      }
      for (const nblist of nblists) {
        for (const kk of nblist) {
          let j = ev[kk]!;
          if (inblossom[j] === b) j = eu[kk]!;
          const bj = inblossom[j]!;
          if (bj !== b && label[bj] === 1 && (bestedgeto[bj] === -1 || slack(kk) < slack(bestedgeto[bj]!))) bestedgeto[bj] = kk;
        }
      }
      blossombestedges[child] = null;
      bestedge[child] = -1;
    }
    const best: number[] = [];
    for (const kk of bestedgeto) if (kk !== -1) best.push(kk);
    blossombestedges[b] = best;
    bestedge[b] = -1;
    for (const kk of best) if (bestedge[b] === -1 || slack(kk) < slack(bestedge[b]!)) bestedge[b] = kk;
  };

  const expandBlossom = (b: number, endstage: boolean): void => {
    for (const s of blossomchilds[b]!) {
      blossomparent[s] = -1;
      if (s < nvertex) inblossom[s] = s;
      else if (endstage && dualvar[s] === 0) expandBlossom(s, endstage);
      else for (const leaf of blossomLeaves(s, [])) inblossom[leaf] = s;
    }
    if (!endstage && label[b] === 2) {
      const childs = blossomchilds[b]!;
      const endps = blossomendps[b]!;
      const entrychild = inblossom[endpoint[labelend[b]! ^ 1]!]!;
      let j = childs.indexOf(entrychild);
      let jstep: number;
      let endptrick: number;
      if (j & 1) {
        j -= childs.length;
        jstep = 1;
        endptrick = 0;
      } else {
        jstep = -1;
        endptrick = 1;
      }
      let p = labelend[b]!;
      while (j !== 0) {
        label[endpoint[p ^ 1]!] = 0;
        label[endpoint[at(endps, j - endptrick) ^ endptrick ^ 1]!] = 0;
        assignLabel(endpoint[p ^ 1]!, 2, p);
        allowedge[at(endps, j - endptrick) >> 1] = 1;
        j += jstep;
        p = at(endps, j - endptrick) ^ endptrick;
        allowedge[p >> 1] = 1;
        j += jstep;
      }
      const bv = at(childs, j);
      label[endpoint[p ^ 1]!] = label[bv] = 2;
      labelend[endpoint[p ^ 1]!] = labelend[bv] = p;
      bestedge[bv] = -1;
      j += jstep;
      while (at(childs, j) !== entrychild) {
        const child = at(childs, j);
        if (label[child] === 1) {
          j += jstep;
          continue;
        }
        let labelled = -1;
        for (const leaf of blossomLeaves(child, [])) {
          if (label[leaf] !== 0) {
            labelled = leaf;
            break;
          }
        }
        if (labelled !== -1) {
          label[labelled] = 0;
          label[endpoint[mate[blossombase[child]!]!]!] = 0;
          assignLabel(labelled, 2, labelend[labelled]!);
        }
        j += jstep;
      }
    }
    label[b] = labelend[b] = -1;
    blossomchilds[b] = blossomendps[b] = null;
    blossombase[b] = -1;
    blossombestedges[b] = null;
    bestedge[b] = -1;
    unusedblossoms.push(b);
  };

  const augmentBlossom = (b: number, v: number): void => {
    let t = v;
    while (blossomparent[t] !== b) t = blossomparent[t]!;
    if (t >= nvertex) augmentBlossom(t, v);
    const childs = blossomchilds[b]!;
    const endps = blossomendps[b]!;
    const i = childs.indexOf(t);
    let j = i;
    let jstep: number;
    let endptrick: number;
    if (i & 1) {
      j -= childs.length;
      jstep = 1;
      endptrick = 0;
    } else {
      jstep = -1;
      endptrick = 1;
    }
    while (j !== 0) {
      j += jstep;
      t = at(childs, j);
      const p = at(endps, j - endptrick) ^ endptrick;
      if (t >= nvertex) augmentBlossom(t, endpoint[p]!);
      j += jstep;
      t = at(childs, j);
      if (t >= nvertex) augmentBlossom(t, endpoint[p ^ 1]!);
      mate[endpoint[p]!] = p ^ 1;
      mate[endpoint[p ^ 1]!] = p;
    }
    blossomchilds[b] = [...childs.slice(i), ...childs.slice(0, i)];
    blossomendps[b] = [...endps.slice(i), ...endps.slice(0, i)];
    blossombase[b] = blossombase[blossomchilds[b]![0]!]!;
  };

  const augmentMatching = (k: number): void => {
    for (const [s0, p0] of [
      [eu[k]!, 2 * k + 1],
      [ev[k]!, 2 * k],
    ] as const) {
      let s = s0;
      let p = p0;
      for (;;) {
        const bs = inblossom[s]!;
        if (bs >= nvertex) augmentBlossom(bs, s);
        mate[s] = p;
        if (labelend[bs] === -1) break;
        const t = endpoint[labelend[bs]!]!;
        const bt = inblossom[t]!;
        s = endpoint[labelend[bt]!]!;
        const j = endpoint[labelend[bt]! ^ 1]!;
        if (bt >= nvertex) augmentBlossom(bt, j);
        mate[j] = labelend[bt]!;
        p = labelend[bt]! ^ 1;
      }
    }
  };

  for (let stage = 0; stage < nvertex; stage++) {
    label.fill(0);
    bestedge.fill(-1);
    for (let b = nvertex; b < n2; b++) blossombestedges[b] = null;
    allowedge.fill(0);
    queue = [];
    for (let v = 0; v < nvertex; v++) if (mate[v] === -1 && label[inblossom[v]!] === 0) assignLabel(v, 1, -1);
    let augmented = false;
    for (;;) {
      while (queue.length > 0 && !augmented) {
        const v = queue.pop()!;
        for (const p of neighbend[v]!) {
          const k = p >> 1;
          const w = endpoint[p]!;
          if (inblossom[v] === inblossom[w]) continue;
          let kslack = 0;
          if (!allowedge[k]) {
            kslack = slack(k);
            if (kslack <= 0) allowedge[k] = 1;
          }
          if (allowedge[k]) {
            if (label[inblossom[w]!] === 0) {
              assignLabel(w, 2, p ^ 1);
            } else if (label[inblossom[w]!] === 1) {
              const base = scanBlossom(v, w);
              if (base >= 0) {
                addBlossom(base, k);
              } else {
                augmentMatching(k);
                augmented = true;
                break;
              }
            } else if (label[w] === 0) {
              label[w] = 2;
              labelend[w] = p ^ 1;
            }
          } else if (label[inblossom[w]!] === 1) {
            const b = inblossom[v]!;
            if (bestedge[b] === -1 || kslack < slack(bestedge[b]!)) bestedge[b] = k;
          } else if (label[w] === 0) {
            if (bestedge[w] === -1 || kslack < slack(bestedge[w]!)) bestedge[w] = k;
          }
        }
      }
      if (augmented) break;
      let deltatype = -1;
      let delta = 0;
      let deltaedge = -1;
      let deltablossom = -1;
      if (!maxCardinality) {
        deltatype = 1;
        delta = Infinity;
        for (let v = 0; v < nvertex; v++) delta = Math.min(delta, dualvar[v]!);
      }
      for (let v = 0; v < nvertex; v++) {
        if (label[inblossom[v]!] === 0 && bestedge[v] !== -1) {
          const d = slack(bestedge[v]!);
          if (deltatype === -1 || d < delta) {
            delta = d;
            deltatype = 2;
            deltaedge = bestedge[v]!;
          }
        }
      }
      for (let b = 0; b < n2; b++) {
        if (blossomparent[b] === -1 && label[b] === 1 && bestedge[b] !== -1) {
          const d = slack(bestedge[b]!) / 2;
          if (deltatype === -1 || d < delta) {
            delta = d;
            deltatype = 3;
            deltaedge = bestedge[b]!;
          }
        }
      }
      for (let b = nvertex; b < n2; b++) {
        if (blossombase[b]! >= 0 && blossomparent[b] === -1 && label[b] === 2 && (deltatype === -1 || dualvar[b]! < delta)) {
          delta = dualvar[b]!;
          deltatype = 4;
          deltablossom = b;
        }
      }
      if (deltatype === -1) {
        deltatype = 1;
        let least = Infinity;
        for (let v = 0; v < nvertex; v++) least = Math.min(least, dualvar[v]!);
        delta = Math.max(0, least);
      }
      for (let v = 0; v < nvertex; v++) {
        const l = label[inblossom[v]!];
        if (l === 1) dualvar[v]! -= delta;
        else if (l === 2) dualvar[v]! += delta;
      }
      for (let b = nvertex; b < n2; b++) {
        if (blossombase[b]! >= 0 && blossomparent[b] === -1) {
          if (label[b] === 1) dualvar[b]! += delta;
          else if (label[b] === 2) dualvar[b]! -= delta;
        }
      }
      if (deltatype === 1) break;
      if (deltatype === 2) {
        allowedge[deltaedge] = 1;
        let i = eu[deltaedge]!;
        if (label[inblossom[i]!] === 0) i = ev[deltaedge]!;
        queue.push(i);
      } else if (deltatype === 3) {
        allowedge[deltaedge] = 1;
        queue.push(eu[deltaedge]!);
      } else {
        expandBlossom(deltablossom, false);
      }
    }
    if (!augmented) break;
    for (let b = nvertex; b < n2; b++) {
      if (blossomparent[b] === -1 && blossombase[b]! >= 0 && label[b] === 1 && dualvar[b] === 0) expandBlossom(b, true);
    }
  }
  for (let v = 0; v < nvertex; v++) if (mate[v]! >= 0) result[v] = endpoint[mate[v]!]!;
  return result;
}

/**
 * A minimum-weight perfect matching (mate[v]); throws if the graph has none. Weights are integers ≥ 0.
 */
export function minWeightPerfectMatching(vertexCount: number, edges: readonly WeightedEdge[]): Int32Array {
  let top = 0;
  for (const e of edges) top = Math.max(top, e.weight);
  const mate = maxWeightMatching(
    vertexCount,
    edges.map((e) => ({ u: e.u, v: e.v, weight: top + 1 - e.weight })),
    true,
  );
  for (let v = 0; v < vertexCount; v++) if (mate[v] === -1) throw new Error(`the graph of ${vertexCount} vertices has no perfect matching`);
  return mate;
}
