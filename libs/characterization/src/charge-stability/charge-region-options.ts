// Parameters of charge-stability-diagram-segmenter-v0 (charge-region-segmenter.model.ts); how they were chosen is in
// docs/models/charge-stability.md.

export interface ChargeRegionOptions {
  /** Gaussian smoothing σ before the evidence, px: transport maps (and the read-out test) / charge-sensor maps. */
  smoothing: number;
  sensorSmoothing: number;
  /** Markers lie at least this far (px) inside the plateau interior. */
  markerDepth: number;
  /** Markers split where two interior distance peaks rise this far (px) above their saddle; 0 = plain components. */
  markerDynamics: number;
  /** Smallest region kept, px. */
  minRegionArea: number;
  /** Interior below, and merge across lines below, these fractions of the local line level. */
  interiorFraction: number;
  mergeFraction: number;
  /** Quantile of the evidence within ±LEVEL_REACH px taken as the local line level (transport / sensor). */
  levelQuantile: number;
  sensorLevelQuantile: number;
  /** Floor of the local line level, white-noise units (so that noise alone never reads as a line; transport / sensor). */
  levelFloor: number;
  sensorLevelFloor: number;
  /** Two regions are not merged across a weak line shorter than this multiple of the smaller one's √area (a neck). */
  neckRatio: number;
  /** Sensor: a shared line that runs this many px along one row boundary is an acquisition artefact; 0 = off. */
  rowArtefactPx: number;
  /** Weight of the lattice-averaged evidence (translates by the charge-lattice periods), 0 = off; per read-out. */
  latticeWeight: number;
  sensorLatticeWeight: number;
  /** Lattice translates m·u1 + n·u2 with |m|, |n| ≤ latticeReach are averaged. */
  latticeReach: number;
}

export const CHARGE_REGION_DEFAULTS: ChargeRegionOptions = {
  smoothing: 1.5,
  sensorSmoothing: 1,
  markerDepth: 2,
  markerDynamics: 1.5,
  minRegionArea: 40,
  interiorFraction: 0.4,
  mergeFraction: 0.15,
  levelQuantile: 0.9,
  sensorLevelQuantile: 0.95,
  levelFloor: 6,
  sensorLevelFloor: 8,
  neckRatio: 1,
  rowArtefactPx: 16,
  latticeWeight: 0.8,
  sensorLatticeWeight: 0.9,
  latticeReach: 2,
};
