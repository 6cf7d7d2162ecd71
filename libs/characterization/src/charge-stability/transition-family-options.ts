// Parameters of the transition-line detector pipeline (transition-family-detector.model.ts) and the four served
// versions' settings; what each setting changed on the tuning maps is in docs/models/charge-stability.md.

export interface TransitionFamilyOptions {
  /** Gaussian smoothing σ before differentiation, pixels. */
  smoothing: number;
  /** Half-length of the averaging along the line, pixels. */
  alongHalfLength: number;
  /** Hysteresis thresholds, robust-noise units of the per-family evidence. */
  high: number;
  low: number;
  /** Shortest segment reported, pixels. */
  minLength: number;
  /** Largest gap bridged along a line, pixels. */
  gap: number;
  /** A chain must reach this fraction of the map's typical strong-line score (its step or ridge height). */
  relative: number;
  /** Offset jump (across the line) that splits a chain, pixels. */
  offsetJump: number;
  levelRows: boolean;
  splitAtTriplePoints: boolean;
  robust: boolean;
  /** Power of the Hessian strength that weights the orientation histogram (2: strongest family dominates; 1: weaker families keep their share). */
  histogramPower: number;
  /** A secondary family needs at least this share of the strongest family's histogram mass. */
  familyShare: number;
  /** Smallest angle between two families, degrees (transport, sensor). */
  familySeparation: [number, number];
  /** Sensor read-out: a chain whose evidence 2 px either side is above this fraction of its centre is a broad crest of the sensor's ramp, not a step (0: no test). */
  crestWidth: number;
  /** Passes that re-estimate each family direction from the total-least-squares directions of its long chains (0: none). */
  reestimatePasses: number;
  /** Shortest segment reported when one end is at the map's border, pixels (0: `minLength`). */
  borderMinLength: number;
  /**
   * Transport: Gaussian σ of the ridge evidence, pixels (empty: `smoothing`); with several, the whole detection runs
   * at each and the result whose weaker family has the longest total segment length is kept.
   */
  transportScales: number[];
}

/**
 * The classical pipeline with every later addition off: no averaging along the lines, no strength filter, no
 * levelling, splitting, re-estimation or crest test. Not served; the versions below are built on it.
 */
export const TRANSITION_FAMILY_CLASSICAL: TransitionFamilyOptions = {
  smoothing: 1,
  alongHalfLength: 0,
  high: 7,
  low: 3,
  minLength: 10,
  gap: 2,
  relative: 0,
  offsetJump: 0.5,
  levelRows: false,
  splitAtTriplePoints: false,
  robust: false,
  histogramPower: 2,
  familyShare: 0.12,
  familySeparation: [12, 12],
  crestWidth: 0,
  reestimatePasses: 0,
  borderMinLength: 0,
  transportScales: [],
};
/**
 * v0: the full pipeline (scan-line levelling, in-row jump removal, linear-weight histogram, crest test, triple-point
 * splitting, one re-estimation pass, ±3 px matched filter, 7 px pieces at the border). v1 and v2 differ in the
 * re-estimation passes and the matched-filter length, v3 adds the transport scale choice; v0–v2's tuning F1
 * differ by less than the sampling error (docs/models/charge-stability.md).
 */
export const TRANSITION_FAMILY_V0: TransitionFamilyOptions = {
  ...TRANSITION_FAMILY_CLASSICAL,
  alongHalfLength: 3,
  levelRows: true,
  splitAtTriplePoints: true,
  robust: true,
  histogramPower: 1,
  familyShare: 0.06,
  familySeparation: [20, 12],
  crestWidth: 0.6,
  reestimatePasses: 1,
  borderMinLength: 7,
};
/** v1: v0 with a second pass re-estimating the family directions from the long chains. */
export const TRANSITION_FAMILY_V1: TransitionFamilyOptions = { ...TRANSITION_FAMILY_V0, reestimatePasses: 2 };
/** v2: v1 with a shorter matched filter (±2 px along the lines): less blur where a line ends at a triple point. */
export const TRANSITION_FAMILY_V2: TransitionFamilyOptions = { ...TRANSITION_FAMILY_V1, alongHalfLength: 2 };
/** v3: v2 with the transport ridge scale chosen per map from σ = 1 and 2 px (thermally broadened lines). */
export const TRANSITION_FAMILY_V3: TransitionFamilyOptions = { ...TRANSITION_FAMILY_V2, transportScales: [1, 2] };
