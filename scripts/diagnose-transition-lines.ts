// Diagnostics of the transition-line detector on TUNING seeds only (TUNE_FIRST, TUNE_COUNT, TUNE_VERSION, TUNE_OPTIONS,
// DIAG_VERBOSE=1): why each counted truth segment is missed (no detection with or without its family found, angle, offset, endpoint).
import { generateChargeStabilityDiagram } from '../libs/device-physics/src/charge-stability/index.js';
import { countLineMatches, isCountedTruth } from '#qdc/characterization/evaluation';
import type { Segment } from '#qdc/characterization';
import { detectTransitionFamilies } from '../libs/characterization/src/charge-stability/transition-family-detector.model.js';
import { transitionLineSegments, TRANSITION_DETECTOR_VERSIONS } from '#qdc/characterization';

const first = Number(process.env.TUNE_FIRST ?? 5001);
const count = Number(process.env.TUNE_COUNT ?? 40);
const versionName = process.env.TUNE_VERSION ?? 'v3';
const overrides = process.env.TUNE_OPTIONS ? JSON.parse(process.env.TUNE_OPTIONS) : {};
const version = TRANSITION_DETECTOR_VERSIONS.find((v) => v.id.endsWith(versionName))!;
const reasons: Record<string, number> = {};
const perpHist: number[] = [];
for (let seed = first; seed < first + count; seed++) {
  const d = generateChargeStabilityDiagram(seed, { rows: 128, cols: 128, kind: 'double' });
  const segments = transitionLineSegments({ ...version, options: { ...version.options, ...overrides } }, d.data, 128, 128);
  const dirs = detectTransitionFamilies(d.data, 128, 128, { ...version.options, ...overrides }).directions;
  const counted = d.segments.filter((t) => isCountedTruth(t));
  for (const t of counted) {
    const c = countLineMatches(segments, [t]);
    if (c.hits) continue;
    const lt = Math.hypot(t.x2 - t.x1, t.y2 - t.y1);
    const tx = (t.x2 - t.x1) / lt;
    const ty = (t.y2 - t.y1) / lt;
    let best: { ang: number; e1: number; e2: number; s: number; len: number; seg: Segment } | null = null;
    let bestScore = Infinity;
    for (const s of segments) {
      const ld = Math.hypot(s[2] - s[0], s[3] - s[1]);
      const ang = (Math.acos(Math.min(1, Math.abs(((s[2] - s[0]) * tx + (s[3] - s[1]) * ty) / ld))) * 180) / Math.PI;
      const perp = (x: number, y: number): number => -(x - t.x1) * ty + (y - t.y1) * tx;
      const e1 = perp(s[0], s[1]);
      const e2 = perp(s[2], s[3]);
      const sm = ((s[0] + s[2]) / 2 - t.x1) * tx + ((s[1] + s[3]) / 2 - t.y1) * ty;
      // overlap along the truth
      const a = (s[0] - t.x1) * tx + (s[1] - t.y1) * ty;
      const b = (s[2] - t.x1) * tx + (s[3] - t.y1) * ty;
      const overlap = Math.min(lt, Math.max(a, b)) - Math.max(0, Math.min(a, b));
      if (overlap < 0.3 * Math.min(lt, ld) || ang > 25) continue;
      const score = ang / 5 + Math.max(Math.abs(e1), Math.abs(e2)) / 3;
      if (score < bestScore) {
        bestScore = score;
        best = { ang, e1, e2, s: sm, len: ld, seg: s };
      }
    }
    let reason: string;
    if (!best) reason = 'none';
    else if (best.ang <= 5 && Math.max(Math.abs(best.e1), Math.abs(best.e2)) <= 3 && best.s >= -3 && best.s <= lt + 3) reason = 'taken';
    else if (best.ang > 5 && Math.abs((best.e1 + best.e2) / 2) <= 3) reason = 'angle';
    else if (best.ang <= 5 && Math.abs((best.e1 + best.e2) / 2) > 8) reason = 'none-far';
    else if (best.ang <= 5 && Math.abs((best.e1 + best.e2) / 2) > 3) reason = 'offset';
    else if (best.ang <= 5) reason = 'endpoint';
    else if (Math.abs((best.e1 + best.e2) / 2) > 8) reason = 'none-far';
    else reason = 'angle+offset';
    const truthAngle = Math.atan2(ty, tx);
    const familyFound = dirs.some((a) => {
      const g = Math.abs(a - truthAngle) % Math.PI;
      return Math.min(g, Math.PI - g) < (5 * Math.PI) / 180;
    });
    if (reason.startsWith('none')) reason = familyFound ? 'none-famok' : 'none-nofam';
    const key = `${d.readout}:${reason}`;
    reasons[key] = (reasons[key] ?? 0) + 1;
    if (best) perpHist.push((best.e1 + best.e2) / 2);
    if (process.env.DIAG_VERBOSE === '1')
      console.log(
        seed,
        d.readout,
        `snr ${d.snr.toFixed(1)}`,
        t.kind,
        `len ${lt.toFixed(0)}`,
        reason,
        best ? `ang ${best.ang.toFixed(1)} e ${best.e1.toFixed(1)} ${best.e2.toFixed(1)} s ${best.s.toFixed(0)} dlen ${best.len.toFixed(0)}` : '',
        `truth ${[t.x1, t.y1, t.x2, t.y2].map((v) => v.toFixed(0)).join(',')}`,
        JSON.stringify(d.nuisance),
      );
  }
}
console.log(JSON.stringify(reasons, null, 0));
