// Flags where a VLM's free text contradicts the built-in assessment: the experiment it names (by the same
// keyword rules as family detection) and the verdict words it uses. A VLM's reading is not a measurement, so
// disagreements are reported next to the fit, never used to change it.
import type { CalibrationAssessment } from './calibration.types.js';
import { familyFromText } from './family-detection.js';

const VERDICTS: [RegExp, CalibrationAssessment['status']][] = [
  [/no (visible )?(signal|oscillation|fringes|resonance|peak|dip)|only noise|noise only/i, 'no-signal'],
  [/(fit|calibration) (has )?failed|could not (be )?fit|unsuccessful/i, 'failed'],
  [/(needs?|requires?) (an )?adjust|out(side)? of (the )?(scan|range)|extend the (scan|range)|re-?cent(er|re)/i, 'needs-adjustment'],
  [/\b(successful|succeeded|well[- ]calibrated|good fit|calibration (is|looks) good)\b/i, 'success'],
];

export function compareWithVlm(assessment: CalibrationAssessment, vlmText: string): string[] {
  const out: string[] = [];
  const named = familyFromText({ title: vlmText });
  if (named && assessment.experiment !== 'unknown' && named !== assessment.experiment) {
    out.push(`the VLM describes a ${named} experiment; the built-in reader fitted ${assessment.experiment}`);
  }
  const verdict = VERDICTS.find(([pattern]) => pattern.test(vlmText))?.[1];
  if (verdict && verdict !== assessment.status) out.push(`the VLM's verdict reads as "${verdict}"; the built-in status is "${assessment.status}"`);
  return out;
}
