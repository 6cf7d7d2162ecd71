// A small fully connected network (multilayer perceptron, ReLU hidden layers, logistic output) evaluated in
// plain TypeScript on a preallocated workspace, and its reproducible training: mini-batch Adam (Kingma & Ba,
// ICLR 2015) on the binary cross-entropy, He initialisation from a seeded generator, inputs standardised with
// the training set's mean and std (stored with the weights).

export interface DenseNetworkWeights {
  /** Layer sizes, input first, 1 output last. */
  sizes: number[];
  /** Per layer: weights (out × in, row-major) then biases (out). */
  layers: { w: number[]; b: number[] }[];
  inputMean: number[];
  inputStd: number[];
}

export interface DenseWorkspace {
  activations: Float64Array[];
}

export function createDenseWorkspace(sizes: number[]): DenseWorkspace {
  return { activations: sizes.map((s) => new Float64Array(s)) };
}

export interface PackedNetwork {
  sizes: number[];
  w: Float64Array[];
  b: Float64Array[];
  mean: Float64Array;
  invStd: Float64Array;
}

export function packNetwork(weights: DenseNetworkWeights): PackedNetwork {
  return {
    sizes: weights.sizes,
    w: weights.layers.map((l) => Float64Array.from(l.w)),
    b: weights.layers.map((l) => Float64Array.from(l.b)),
    mean: Float64Array.from(weights.inputMean),
    invStd: Float64Array.from(weights.inputStd, (s) => (s > 0 ? 1 / s : 0)),
  };
}

/** Output logit (log-odds) of the network for `input` (raw features; standardised here). */
export function denseLogit(net: PackedNetwork, input: Float64Array, ws: DenseWorkspace): number {
  const a0 = ws.activations[0]!;
  for (let i = 0; i < a0.length; i++) a0[i] = (input[i]! - net.mean[i]!) * net.invStd[i]!;
  const L = net.w.length;
  for (let l = 0; l < L; l++) {
    const inp = ws.activations[l]!;
    const out = ws.activations[l + 1]!;
    const w = net.w[l]!;
    const b = net.b[l]!;
    const nIn = inp.length;
    for (let o = 0; o < out.length; o++) {
      let s = b[o]!;
      const base = o * nIn;
      for (let i = 0; i < nIn; i++) s += w[base + i]! * inp[i]!;
      out[o] = l < L - 1 ? Math.max(s, 0) : s;
    }
  }
  return ws.activations[L]![0]!;
}
