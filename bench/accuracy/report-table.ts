/** Rows of a fixed-width text table, and the count of targets met (rows with a PASS/FAIL result). */
export interface ReportRow {
  cells: string[];
  pass: boolean | null;
}

export function printTable(title: string, header: string[], rows: ReportRow[]): void {
  const full = [...header, 'result'];
  const body = rows.map((r) => [...r.cells, r.pass === null ? 'info' : r.pass ? 'PASS' : 'FAIL']);
  const widths = full.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => (c ?? '').padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n${title}\n${line(full)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of body) console.log(line(r));
}

export function countTargets(rows: ReportRow[]): { met: number; total: number } {
  const judged = rows.filter((r) => r.pass !== null);
  return { met: judged.filter((r) => r.pass).length, total: judged.length };
}

/** One printed table of the accuracy report. */
export interface AccuracySection {
  title: string;
  header: string[];
  rows: ReportRow[];
}
