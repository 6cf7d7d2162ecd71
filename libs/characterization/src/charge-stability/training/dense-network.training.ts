// Reproducible training of the dense networks of dense-network.ts: mini-batch Adam (Kingma & Ba, ICLR 2015,
// Algorithm 1) on the binary cross-entropy with L2 weight decay, He-normal initialisation (He et al., ICCV 2015)
// from a seeded generator, a seeded shuffle each epoch. Used by scripts/train-*.ts only (never at runtime).
import { createSeededRandom } from '#qdc/device-physics';
import type { DenseNetworkWeights } from '../dense-network.js';

export interface TrainingSet {
  /** count × features, row-major. */
  inputs: Float64Array;
  labels: Uint8Array;
  count: number;
  features: number;
}

export interface TrainingOptions {
  hidden: number[];
  epochs: number;
  batch: number;
  learningRate: number;
  weightDecay: number;
  seed: number;
  log?: (message: string) => void;
}

export function trainDenseNetwork(set: TrainingSet, options: TrainingOptions): DenseNetworkWeights {
  const random = createSeededRandom(options.seed);
  const { count, features, inputs, labels } = set;
  const mean = new Float64Array(features);
  const std = new Float64Array(features);
  for (let s = 0; s < count; s++) for (let f = 0; f < features; f++) mean[f] += inputs[s * features + f]! / count;
  for (let s = 0; s < count; s++) for (let f = 0; f < features; f++) std[f] += (inputs[s * features + f]! - mean[f]!) ** 2 / count;
  for (let f = 0; f < features; f++) std[f] = Math.sqrt(std[f]!) || 1;
  const x = new Float64Array(count * features);
  for (let s = 0; s < count; s++) for (let f = 0; f < features; f++) x[s * features + f] = (inputs[s * features + f]! - mean[f]!) / std[f]!;

  const sizes = [features, ...options.hidden, 1];
  const L = sizes.length - 1;
  const W = Array.from({ length: L }, (_, l) => Float64Array.from({ length: sizes[l + 1]! * sizes[l]! }, () => random.normal() * Math.sqrt(2 / sizes[l]!)));
  const B = Array.from({ length: L }, (_, l) => new Float64Array(sizes[l + 1]!));
  const mW = W.map((w) => new Float64Array(w.length));
  const vW = W.map((w) => new Float64Array(w.length));
  const mB = B.map((b) => new Float64Array(b.length));
  const vB = B.map((b) => new Float64Array(b.length));
  const gW = W.map((w) => new Float64Array(w.length));
  const gB = B.map((b) => new Float64Array(b.length));
  const act = sizes.map((s) => new Float64Array(s));
  const delta = sizes.map((s) => new Float64Array(s));
  const order = Int32Array.from({ length: count }, (_, i) => i);
  const beta1 = 0.9;
  const beta2 = 0.999;
  let step = 0;
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = count - 1; i > 0; i--) {
      const j = random.integer(0, i);
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
    }
    // Cosine learning-rate decay to 5 % over the run.
    const lr = options.learningRate * (0.05 + 0.95 * 0.5 * (1 + Math.cos((Math.PI * epoch) / options.epochs)));
    let loss = 0;
    for (let start = 0; start < count; start += options.batch) {
      const end = Math.min(count, start + options.batch);
      for (const g of gW) g.fill(0);
      for (const g of gB) g.fill(0);
      for (let k = start; k < end; k++) {
        const s = order[k]!;
        act[0]!.set(x.subarray(s * features, (s + 1) * features));
        for (let l = 0; l < L; l++) {
          const inp = act[l]!;
          const out = act[l + 1]!;
          const w = W[l]!;
          for (let o = 0; o < out.length; o++) {
            let z = B[l]![o]!;
            const base = o * inp.length;
            for (let i = 0; i < inp.length; i++) z += w[base + i]! * inp[i]!;
            out[o] = l < L - 1 ? Math.max(z, 0) : z;
          }
        }
        const z = act[L]![0]!;
        const p = 1 / (1 + Math.exp(-z));
        const y = labels[s]!;
        loss += -(y ? Math.log(Math.max(p, 1e-12)) : Math.log(Math.max(1 - p, 1e-12)));
        delta[L]![0] = p - y;
        for (let l = L - 1; l >= 0; l--) {
          const inp = act[l]!;
          const dOut = delta[l + 1]!;
          const w = W[l]!;
          const dIn = delta[l]!;
          dIn.fill(0);
          for (let o = 0; o < dOut.length; o++) {
            const d = dOut[o]!;
            if (d === 0) continue;
            gB[l]![o] += d;
            const base = o * inp.length;
            for (let i = 0; i < inp.length; i++) {
              gW[l]![base + i] += d * inp[i]!;
              dIn[i] += d * w[base + i]!;
            }
          }
          if (l > 0) for (let i = 0; i < dIn.length; i++) if (inp[i]! <= 0) dIn[i] = 0;
        }
      }
      step++;
      const n = end - start;
      const c1 = 1 - beta1 ** step;
      const c2 = 1 - beta2 ** step;
      for (let l = 0; l < L; l++) {
        const update = (p: Float64Array, g: Float64Array, m: Float64Array, v: Float64Array, decay: number): void => {
          for (let i = 0; i < p.length; i++) {
            const grad = g[i]! / n + decay * p[i]!;
            m[i] = beta1 * m[i]! + (1 - beta1) * grad;
            v[i] = beta2 * v[i]! + (1 - beta2) * grad * grad;
            p[i] -= (lr * (m[i]! / c1)) / (Math.sqrt(v[i]! / c2) + 1e-8);
          }
        };
        update(W[l]!, gW[l]!, mW[l]!, vW[l]!, options.weightDecay);
        update(B[l]!, gB[l]!, mB[l]!, vB[l]!, 0);
      }
    }
    options.log?.(`epoch ${epoch + 1}/${options.epochs}: loss ${(loss / count).toFixed(4)}`);
  }
  const round = (a: Float64Array): number[] => Array.from(a, (v) => Number(v.toPrecision(6)));
  return {
    sizes,
    layers: W.map((w, l) => ({ w: round(w), b: round(B[l]!) })),
    inputMean: round(mean),
    inputStd: round(std),
  };
}
