// Accuracy sections for the surface-code decoders (issue #15): MODELS.md's metric, the logical error rate of each
// variant relative to minimum-weight matching on the same samples, run through the catalogue (runModel) on
// phenomenological memory experiments from libs/qec (p = q, T = d rounds, seeds 25 000+, never used by the tests).
// Threshold curves and timings are in `npm run bench:decoding`.
import { runModel } from '#qdc/characterization';
import { sampleMemoryExperiment } from '#qdc/qec';
import type { AccuracySection, ReportRow } from './report-table.js';

const HEADER = ['model', 'dataset (held-out seeds)', 'shots', 'metric', 'value', 'detail', 'target'];
const POINTS = [
  [3, 0.01],
  [5, 0.01],
  [7, 0.01],
  [5, 0.02],
  [7, 0.02],
] as const;
const SHOTS = 4000;
const CHUNK = 250;

function failures(id: string, d: number, p: number, seed: number): number {
  let count = 0;
  for (let done = 0; done < SHOTS; done += CHUNK) {
    const shots = Math.min(CHUNK, SHOTS - done);
    const samples = sampleMemoryExperiment({ distance: d, rounds: d, noise: { kind: 'phenomenological', p, q: p }, shots, seed: seed + done });
    const flips = runModel(id, { shape: [shots, 4, d, d, d], data: Float64Array.from(samples.syndromes) })['logical_flips'] as number[][];
    flips.forEach((pair, b) => {
      pair.forEach((flip, type) => {
        if (flip !== samples.logicalFlips[b * 2 + type]) count++;
      });
    });
  }
  return count;
}

export function accuracySections(): AccuracySection[] {
  const rows: ReportRow[] = [];
  POINTS.forEach(([d, p], index) => {
    const seed = 25_000 + 100_000 * index;
    const matching = failures('ising-decoding-v1-accurate', d, p, seed);
    const fast = failures('ising-decoding-v1-fast', d, p, seed);
    const dataset = `phenomenological p = q = ${p * 100} %, d = ${d}, T = ${d}`;
    const rate = (n: number) => (n / (2 * SHOTS)).toExponential(2);
    rows.push({
      cells: ['ising-decoding-v1-accurate', dataset, String(SHOTS), 'logical error / MWPM', '1.00', `P_L ${rate(matching)} (it is MWPM)`, '≤ 1.0×'],
      pass: true,
    });
    const ratio = matching > 0 ? fast / matching : fast === 0 ? 1 : Infinity;
    rows.push({
      cells: ['ising-decoding-v1-fast', dataset, String(SHOTS), 'logical error / MWPM', ratio.toFixed(2), `P_L ${rate(fast)} vs ${rate(matching)}`, '≤ 1.1×'],
      pass: ratio <= 1.1,
    });
  });
  rows.push(...largeBatchRows());
  return [{ title: 'Surface-code decoders (B, 4, T, D, D), logical error relative to minimum-weight matching', header: HEADER, rows }];
}

/** Issue 29: one request of 3 000 shots of d = 5, T = 5 (1.5 M elements; refused before), against its two halves. */
function largeBatchRows(): ReportRow[] {
  const [B, T, d] = [3000, 5, 5];
  const samples = sampleMemoryExperiment({ distance: d, rounds: T, noise: { kind: 'phenomenological', p: 0.01, q: 0.01 }, shots: B, seed: 925_000 });
  const data = Float64Array.from(samples.syndromes);
  const perShot = 4 * T * d * d;
  return (['ising-decoding-v1-fast', 'ising-decoding-v1-accurate'] as const).map((id) => {
    const started = performance.now();
    let answer: Record<string, unknown>;
    try {
      answer = runModel(id, { shape: [B, 4, T, d, d], data });
    } catch (error) {
      return {
        cells: [id, `one request (${B}, 4, ${T}, ${d}, ${d}), p = q = 1 %`, String(B), 'accepted', 'no', (error as Error).message.slice(0, 120), 'yes'],
        pass: false,
      };
    }
    const seconds = (performance.now() - started) / 1000;
    const halves = [0, 1].map((h) => runModel(id, { shape: [B / 2, 4, T, d, d], data: data.subarray((h * B * perShot) / 2, ((h + 1) * B * perShot) / 2) }));
    const same = JSON.stringify(answer['logits']) === JSON.stringify([...(halves[0]!['logits'] as unknown[]), ...(halves[1]!['logits'] as unknown[])]);
    return {
      cells: [
        id,
        `one request (${B}, 4, ${T}, ${d}, ${d}), p = q = 1 %`,
        String(B),
        'accepted, = its halves',
        same ? 'yes' : 'no',
        `${seconds.toFixed(2)} s in process`,
        'yes',
      ],
      pass: same,
    };
  });
}
