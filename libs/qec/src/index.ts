export { rotatedSurfaceCode, standardMask, isValidDistance, type RotatedSurfaceCode, type Stabilizer, type StabilizerType } from './rotated-surface-code.js';
export { seededRandom, flipBernoulli, type Random } from './seeded-random.js';
export {
  sampleMemoryExperiment,
  pureNoiseSyndromes,
  writePhenomenologicalShot,
  emptyPhenomenologicalFaults,
  surfaceCodeCircuit,
  runCircuitShot,
  randomCircuitNoise,
  type NoiseModel,
  type MemoryExperiment,
  type MemorySamples,
  type PhenomenologicalFaults,
  type SurfaceCodeCircuit,
  type CircuitNoise,
} from './pauli-frame.sampler.js';
export { maxWeightMatching, minWeightPerfectMatching, type WeightedEdge } from './blossom.matching.js';
export {
  DEFAULT_DECODING_WEIGHTS,
  edgeLengths,
  matchingLengths,
  spatialGraph,
  type DecodingWeights,
  type MatchingLengths,
  type SpatialGraph,
} from './decoding-graph.js';
export { matchingDecoder, matchDetectionEvents, MAX_EXACT_COMPONENT, type MatchingDecoder, type MatchingDecoderOptions } from './matching.decoder.js';
export { unionFindDecoder, MAX_LOCAL_COMPONENT, type UnionFindOptions } from './union-find.decoder.js';
export type { SyndromeDecoder } from './syndrome-decoder.js';
export {
  readSyndromeTensor,
  decodeSyndromeTensor,
  createDecoder,
  SyndromeTensorError,
  MAX_DECODING_DISTANCE,
  type SyndromeTensor,
  type BatchDecoding,
  type DecoderVariant,
} from './syndrome-tensor.js';
export {
  estimateDecodeCost,
  DECODE_COST_DENSITY_EDGES,
  DECODE_COST_DISTANCE_EDGES,
  DECODE_COST_MARGIN,
  DECODE_COST_US_PER_CELL,
  type DecodeCostEstimate,
} from './decode-cost.js';
