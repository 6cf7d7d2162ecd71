// Visibility of the simulator's truth segments on TUNING seeds only (TUNE_FIRST, TUNE_COUNT, TUNE_VERSION): for the
// counted segments (not interdot, ≥ MIN_TRUTH_LENGTH px), the distribution of their contrast over the white-noise σ
// (`visibility`, set by the simulator) for segments the version finds and for those it misses, per read-out.
import { generateChargeStabilityDiagram } from '../libs/device-physics/src/charge-stability/index.js';
import { transitionLineSegments, TRANSITION_DETECTOR_VERSIONS } from '#qdc/characterization';
import { countLineMatches, MIN_TRUTH_LENGTH } from '#qdc/characterization/evaluation';

const first = Number(process.env.TUNE_FIRST ?? 5001);
const count = Number(process.env.TUNE_COUNT ?? 40);
const versionName = process.env.TUNE_VERSION ?? 'v3';
const version = TRANSITION_DETECTOR_VERSIONS.find((v) => v.id.endsWith(versionName))!;
const edges = [0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 10, Infinity];
const table: Record<string, { hit: number[]; miss: number[] }> = {};
for (let seed = first; seed < first + count; seed++) {
  const d = generateChargeStabilityDiagram(seed, { rows: 128, cols: 128, kind: 'double' });
  const segments = transitionLineSegments(version, d.data, 128, 128);
  for (const t of d.segments) {
    if (t.kind === 'interdot' || t.kind === 'other' || Math.hypot(t.x2 - t.x1, t.y2 - t.y1) < MIN_TRUTH_LENGTH) continue;
    table[d.readout] ??= { hit: edges.slice(1).map(() => 0), miss: edges.slice(1).map(() => 0) };
    const row = table[d.readout]!;
    const bin = edges.findIndex((e, k) => t.visibility >= e && t.visibility < edges[k + 1]!);
    row[countLineMatches(segments, [t]).hits ? 'hit' : 'miss'][bin]!++;
    if (process.env.VIS_VERBOSE === '1' && t.visibility < Number(process.env.VIS_BELOW ?? 1))
      console.log(
        seed,
        d.readout,
        t.kind,
        `vis ${t.visibility.toFixed(2)}`,
        `len ${Math.hypot(t.x2 - t.x1, t.y2 - t.y1).toFixed(0)}`,
        countLineMatches(segments, [t]).hits ? 'hit' : 'miss',
        [t.x1, t.y1, t.x2, t.y2].map((v) => v.toFixed(0)).join(','),
      );
  }
}
for (const [readout, row] of Object.entries(table)) {
  console.log(readout);
  edges.slice(1).forEach((e, k) => {
    console.log(`  visibility ${edges[k]}–${e}: found ${row.hit[k]}, missed ${row.miss[k]}`);
  });
}
