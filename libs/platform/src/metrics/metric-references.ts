/**
 * The QDC series a PromQL expression reads, and the labels it reads them by: a dashboard or an alert rule checked
 * against what the processes export (deploy/components/monitoring; its unit and medium tests). A reader of the
 * expressions QDC ships, not a PromQL parser: selector labels belong to their metric; labels of `by`, `without`,
 * `on`, `ignoring` and `group_*` clauses belong to every QDC metric of the expression (so an expression joins
 * metrics on labels all of them carry).
 */

/** Labels Prometheus adds to every series when it scrapes a pod (PodMonitor): not exported by the process. */
export const TARGET_LABELS: ReadonlySet<string> = new Set(['namespace', 'pod', 'instance', 'job', 'container', 'endpoint']);

export interface MetricReference {
  /** The series name as written (`qdc_job_duration_seconds_bucket`). */
  metric: string;
  /** Labels the expression reads on it (sorted; target labels left out; `le` only on a `_bucket` series). */
  labels: string[];
}

/** A string literal (skipped: a label value is not a metric) or a QDC series with its selector. */
const METRIC_OR_STRING = /"(?:[^"\\]|\\.)*"|\b(qdc_[a-zA-Z0-9_:]+)\b\s*(\{(?:[^}"]|"(?:[^"\\]|\\.)*")*\})?/g;
const MATCHER = /([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"/g;
const GROUPING = /\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g;

/** Every QDC series an expression names, with the labels it reads on each (one entry per series name). */
export function metricReferences(expr: string): MetricReference[] {
  const withoutStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const grouping = new Set<string>();
  for (const [, list] of withoutStrings.matchAll(GROUPING)) {
    for (const label of list!.split(',').map((l) => l.trim())) if (label) grouping.add(label);
  }
  const found = new Map<string, Set<string>>();
  for (const [, metric, selector] of expr.matchAll(METRIC_OR_STRING)) {
    if (!metric) continue;
    const labels = found.get(metric!) ?? new Set<string>();
    for (const [, label] of (selector ?? '').matchAll(MATCHER)) labels.add(label!);
    for (const label of grouping) labels.add(label);
    found.set(metric!, labels);
  }
  return [...found].map(([metric, labels]) => ({
    metric,
    labels: [...labels].filter((l) => !TARGET_LABELS.has(l) && (l !== 'le' || metric.endsWith('_bucket'))).sort(),
  }));
}

/** The references of many expressions, merged per series name. */
export function mergeReferences(exprs: readonly string[]): MetricReference[] {
  const merged = new Map<string, Set<string>>();
  for (const expr of exprs) {
    for (const { metric, labels } of metricReferences(expr)) {
      const all = merged.get(metric) ?? new Set<string>();
      for (const label of labels) all.add(label);
      merged.set(metric, all);
    }
  }
  return [...merged].sort(([a], [b]) => a.localeCompare(b)).map(([metric, labels]) => ({ metric, labels: [...labels].sort() }));
}

/** One series of a Prometheus text exposition. */
export interface ExposedSeries {
  metric: string;
  labels: Record<string, string>;
}

/** The series of a `/metrics` answer (text format 0.0.4). */
export function parseExposition(text: string): ExposedSeries[] {
  const series: ExposedSeries[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[^}"]|"(?:[^"\\]|\\.)*")*\})?\s/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[name!] = value!;
    series.push({ metric: match[1]!, labels });
  }
  return series;
}

/** The references no exposed series satisfies (a series of that name carrying every label read on it). */
export function unmetReferences(references: readonly MetricReference[], exposed: readonly ExposedSeries[]): MetricReference[] {
  return references.filter(({ metric, labels }) => !exposed.some((s) => s.metric === metric && labels.every((l) => l in s.labels)));
}

/** The queries of a Grafana dashboard (its panels' targets and its query variables). */
export function dashboardExpressions(dashboard: { panels?: { targets?: { expr?: string }[] }[]; templating?: { list?: { query?: unknown }[] } }): string[] {
  const panels = (dashboard.panels ?? []).flatMap((p) => (p.targets ?? []).flatMap((t) => (t.expr ? [t.expr] : [])));
  const variables = (dashboard.templating?.list ?? []).flatMap((v) => {
    const query = typeof v.query === 'object' && v.query ? (v.query as { query?: unknown }).query : v.query;
    return typeof query === 'string' ? [query] : [];
  });
  return [...panels, ...variables];
}

/** The expressions of a PrometheusRule (its alerts and recording rules). */
export function ruleExpressions(rule: { spec?: { groups?: { rules?: { expr?: string }[] }[] } }): string[] {
  return (rule.spec?.groups ?? []).flatMap((g) => (g.rules ?? []).flatMap((r) => (r.expr ? [r.expr] : [])));
}
