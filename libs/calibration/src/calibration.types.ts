/** Experiment families the calibration agent fits (SPEC §6 `assessment.experiment`). */
export const CALIBRATION_FAMILIES = ['rabi-amplitude', 'rabi-time', 'ramsey', 't1', 't2-echo', 'drag', 'resonator-spectroscopy', 'qubit-spectroscopy'] as const;
export type CalibrationFamily = (typeof CALIBRATION_FAMILIES)[number];

export type AssessmentStatus = 'success' | 'needs-adjustment' | 'failed' | 'no-signal';

/** One measured series: y against x (data units). */
export interface CalibrationSeries {
  x: number[];
  y: number[];
  label?: string;
}

export interface FitParameter {
  value: number;
  stderr: number;
  unit: string;
}

export interface FitSummary {
  model: string;
  parameters: Record<string, FitParameter>;
  r_squared: number;
}

/** SPEC §6 `assessment`. */
export interface CalibrationAssessment {
  experiment: CalibrationFamily | 'unknown';
  status: AssessmentStatus;
  fit: FitSummary | null;
  reliability: number;
  next_step: string;
  series: number;
}

/** What the caller told us about the data (all optional). */
export interface CalibrationContext {
  experiment?: string;
  prompt?: string;
  title?: string;
  xLabel?: string;
  yLabel?: string;
  xUnit?: string;
  yUnit?: string;
}
