/**
 * `npm run eval:assistant` — the assistant's offline engine on the eval task set (tasks.ts): each
 * answer graded strictly by grader.ts; per category and framework the strict pass rate, then the
 * share of answers that say "checked" and how many of those are right (precision). EVAL_VERBOSE=1
 * lists every failure with its reason; EVAL_ONLY=<id substring> runs a subset. The held-out tasks
 * (held-out.ts, written after the engine was tuned on tasks.ts) are reported on their own line.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { KnowledgeBase, answerOffline } from '#qdc/assistant';
import { CATEGORIES, gradeAnswer, type EvalFramework, type Grade } from './grader.js';
import { HELD_OUT_TASKS } from './held-out.js';
import { EVAL_TASKS } from './tasks.js';

const knowledge = new KnowledgeBase(
  readdirSync('docs/knowledge')
    .filter((n) => n.endsWith('.md'))
    .map((n) => ({ path: `docs/knowledge/${n}`, text: readFileSync(`docs/knowledge/${n}`, 'utf8') })),
);
const only = process.env.EVAL_ONLY;
const tasks = EVAL_TASKS.filter((t) => !only || t.id.includes(only));
const results: { id: string; category: string; framework: EvalFramework; grade: Grade; ms: number }[] = [];
for (const task of tasks) {
  const t0 = performance.now();
  const answer = answerOffline([{ role: 'user', content: task.prompt }], { codeMode: 'inline', knowledge });
  const ms = performance.now() - t0;
  results.push({ id: task.id, category: task.category, framework: task.framework, grade: gradeAnswer(task, answer.text), ms });
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)} %` : '–');
const cell = (rows: typeof results) =>
  rows.length ? `${rows.filter((r) => r.grade.pass).length}/${rows.length} (${pct(rows.filter((r) => r.grade.pass).length, rows.length)})` : '–';
const lines: string[][] = [];
for (const category of CATEGORIES) {
  const rows = results.filter((r) => r.category === category);
  if (!rows.length) continue;
  lines.push([category, cell(rows.filter((r) => r.framework === 'qiskit')), cell(rows.filter((r) => r.framework === 'cirq')), cell(rows)]);
}
lines.push(['all', cell(results.filter((r) => r.framework === 'qiskit')), cell(results.filter((r) => r.framework === 'cirq')), cell(results)]);
const header = ['category', 'Qiskit', 'Cirq', 'both'];
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
const fmt = (l: string[]) => `| ${l.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(`assistant eval, offline engine: ${results.length} tasks, strict pass (right framework, the scaffold's function, every check)\n`);
console.log([fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt)].join('\n'));
const checked = results.filter((r) => r.grade.claimsChecked);
const checkedRight = checked.filter((r) => r.grade.pass);
const wrongFramework = results.filter((r) => r.grade.wrongFramework);
const times = results.map((r) => r.ms).sort((a, b) => a - b);
console.log(
  `\nanswers saying "checked": ${checked.length}/${results.length} (${pct(checked.length, results.length)}); precision of those claims: ${checkedRight.length}/${checked.length} (${pct(checkedRight.length, checked.length)})`,
);
console.log(`answers in another framework than asked: ${wrongFramework.length}`);
console.log(`engine time per task: p50 ${times[Math.floor(times.length / 2)].toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms`);
const wrongClaims = checked.filter((r) => !r.grade.pass);
if (wrongClaims.length) console.log(`\n"checked" but wrong:\n${wrongClaims.map((r) => `  ${r.id}: ${r.grade.reason}`).join('\n')}`);
if (process.env.EVAL_VERBOSE)
  console.log(
    `\nfailures:\n${results
      .filter((r) => !r.grade.pass)
      .map((r) => `  ${r.id}: ${r.grade.reason}`)
      .join('\n')}`,
  );

const heldOut = HELD_OUT_TASKS.filter((t) => !only || t.id.includes(only)).map((task) => {
  const answer = answerOffline([{ role: 'user', content: task.prompt }], { codeMode: 'inline', knowledge });
  return { task, grade: gradeAnswer(task, answer.text) };
});
if (heldOut.length) {
  const pass = (fw: EvalFramework) => heldOut.filter((r) => r.task.framework === fw && r.grade.pass).length;
  const total = (fw: EvalFramework) => heldOut.filter((r) => r.task.framework === fw).length;
  const claims = heldOut.filter((r) => r.grade.claimsChecked);
  console.log(
    `\nheld-out tasks (held-out.ts, not tuned on): Qiskit ${pass('qiskit')}/${total('qiskit')}, Cirq ${pass('cirq')}/${total('cirq')}; "checked" ${claims.length}, of which right ${claims.filter((r) => r.grade.pass).length}`,
  );
  if (process.env.EVAL_VERBOSE) for (const r of heldOut.filter((x) => !x.grade.pass)) console.log(`  ${r.task.id}: ${r.grade.reason}`);
}
