import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { metricsRegistry } from './metrics.js';
import {
  dashboardExpressions,
  mergeReferences,
  metricReferences,
  parseExposition,
  ruleExpressions,
  unmetReferences,
  type MetricReference,
} from './metric-references.js';
// The services' own series register on the same registry when their modules load.
import '../../../../apps/assistant/src/assistant/assistant.metrics.js';
import '../../../../apps/lab-streams/src/lab-stream.metrics.js';
import '../../../../apps/qpu-broker/src/jobs/qpu-job.metrics.js';
import '../../../../apps/qpu-broker/src/webhooks/webhook.metrics.js';

const component = resolve(process.cwd(), 'deploy/components/monitoring');

interface Panel {
  id: number;
  type: string;
  title: string;
  targets?: { expr: string }[];
}
interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

const dashboard = JSON.parse(readFileSync(resolve(component, 'dashboard.json'), 'utf8')) as { uid: string; panels: Panel[] };
const ruleDocument = parse(readFileSync(resolve(component, 'prometheusrule.yaml'), 'utf8')) as { spec: { groups: { name: string; rules: Rule[] }[] } };
const rules = ruleDocument.spec.groups.flatMap((g) => g.rules);
const dashboardExprs = dashboardExpressions(dashboard);

/** The series names and labels the registry exports (histograms as _bucket/_count/_sum; every series has `service`). */
function registrySeries(): Map<string, Set<string>> {
  const series = new Map<string, Set<string>>();
  for (const { name, type } of metricsRegistry.getMetricsAsArray()) {
    // prom-client keeps the label names on the metric object (not in its public type).
    const metric = metricsRegistry.getSingleMetric(name) as { labelNames?: readonly string[] } | undefined;
    const labels = [...(metric?.labelNames ?? []), 'service'];
    if (String(type) === 'histogram') {
      series.set(`${name}_bucket`, new Set([...labels, 'le']));
      series.set(`${name}_count`, new Set(labels));
      series.set(`${name}_sum`, new Set(labels));
    } else {
      series.set(name, new Set(labels));
    }
  }
  return series;
}

describe('metricReferences', () => {
  it('gives each series its selector labels and the expression’s grouping labels, without target labels', () => {
    expect(
      metricReferences(
        'histogram_quantile(0.95, sum by (route, le) (rate(qdc_http_request_duration_seconds_bucket{namespace="$namespace",status=~"5.."}[$__rate_interval])))',
      ),
    ).toEqual([{ metric: 'qdc_http_request_duration_seconds_bucket', labels: ['le', 'route', 'status'] }]);
    expect(metricReferences('max by (namespace, queue) (qdc_queue_jobs{state="waiting"}) > 0 and max by (namespace, queue) (qdc_queue_workers) == 0')).toEqual([
      { metric: 'qdc_queue_jobs', labels: ['queue', 'state'] },
      { metric: 'qdc_queue_workers', labels: ['queue'] },
    ]);
    // A label value that looks like a metric or holds a brace is not read as one; `up` is not QDC's.
    expect(metricReferences('up{job="qdc_x"} == 0 or qdc_a{x="}qdc_b"}')).toEqual([{ metric: 'qdc_a', labels: ['x'] }]);
  });

  it('finds the references no exposed series satisfies', () => {
    const exposed = parseExposition(
      '# HELP qdc_queue_workers x\n# TYPE qdc_queue_workers gauge\nqdc_queue_workers{queue="inference",service="gateway"} 2\nqdc_up 1\n',
    );
    expect(exposed).toEqual([
      { metric: 'qdc_queue_workers', labels: { queue: 'inference', service: 'gateway' } },
      { metric: 'qdc_up', labels: {} },
    ]);
    const wanted: MetricReference[] = [
      { metric: 'qdc_queue_workers', labels: ['queue', 'service'] },
      { metric: 'qdc_queue_workers', labels: ['state'] },
      { metric: 'qdc_queue_jobs', labels: [] },
    ];
    expect(unmetReferences(wanted, exposed)).toEqual(wanted.slice(1));
  });
});

describe('deploy/components/monitoring', () => {
  it('is a kustomize Component with the PodMonitor, the rules and the dashboard ConfigMap for Grafana’s sidecar', () => {
    const kustomization = parse(readFileSync(resolve(component, 'kustomization.yaml'), 'utf8'));
    expect(kustomization).toMatchObject({
      apiVersion: 'kustomize.config.k8s.io/v1alpha1',
      kind: 'Component',
      resources: ['podmonitor.yaml', 'prometheusrule.yaml'],
      configMapGenerator: [{ files: ['qdc-overview.json=dashboard.json'], options: { labels: { grafana_dashboard: '1' } } }],
    });
    // The ports deploy/base names: the gateway's `http`, every other process's `probes`.
    const monitor = parse(readFileSync(resolve(component, 'podmonitor.yaml'), 'utf8'));
    expect(monitor.spec.podMetricsEndpoints.map((e: { port: string; path: string }) => `${e.port} ${e.path}`)).toEqual(['http /metrics', 'probes /metrics']);
    const base = ['gateway', 'inference-worker', 'results', 'qpu-broker', 'simulation-worker', 'lab-streams', 'assistant'].map((name) =>
      readFileSync(resolve(process.cwd(), `deploy/base/${name}.yaml`), 'utf8'),
    );
    for (const manifest of base) {
      expect(manifest).toMatch(/app\.kubernetes\.io\/name: qdc/);
      expect(manifest).toMatch(/- name: (http|probes)\n\s+containerPort: \d+/);
    }
  });

  it('gives every alert a for, a severity, a summary and a description', () => {
    expect(rules.map((r) => r.alert)).toEqual([
      'QdcHighErrorRatio',
      'QdcNatsRequestErrors',
      'QdcQueueBacklogOld',
      'QdcQpuDeviceQueueStuck',
      'QdcQueueWithoutWorkers',
      'QdcFailedJobsGrowing',
      'QdcLabStreamDroppingFrames',
      'QdcLabStreamLagging',
      'QdcWebhookOutboxBacklog',
      'QdcServiceRestarting',
      'QdcTargetDown',
      'QdcDbPoolSaturated',
    ]);
    for (const rule of rules) {
      expect({ alert: rule.alert, for: rule.for }).toEqual({ alert: rule.alert, for: expect.stringMatching(/^\d+[smh]$/) });
      expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({ alert: rule.alert, severity: expect.stringMatching(/^(warning|critical)$/) });
      expect(rule.annotations?.summary?.length).toBeGreaterThan(10);
      expect(rule.annotations?.description?.length).toBeGreaterThan(80);
    }
  });

  it('has a dashboard with unique panel ids, every graph with a query', () => {
    expect(dashboard.uid).toBe('qdc-overview');
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row'))
      expect({ panel: panel.title, targets: panel.targets?.length }).toEqual({ panel: panel.title, targets: expect.any(Number) });
    // The panels the operations issue asks for, by what they read.
    const read = new Set(mergeReferences(dashboardExprs).map((r) => r.metric));
    for (const metric of [
      'qdc_http_request_duration_seconds_count',
      'qdc_http_request_duration_seconds_bucket',
      'qdc_queue_jobs',
      'qdc_queue_oldest_waiting_seconds',
      'qdc_queue_workers',
      'qdc_job_duration_seconds_bucket',
      'qdc_nats_request_duration_seconds_bucket',
      'qdc_nats_request_duration_seconds_count',
      'qdc_qpu_jobs',
      'qdc_assistant_runs_active',
      'qdc_lab_stream_pending_frames',
      'qdc_lab_stream_dropped_frames_total',
      'qdc_webhook_deliveries_total',
      'qdc_webhook_outbox_pending',
      'qdc_process_resident_memory_bytes',
    ])
      expect(read).toContain(metric);
  });

  it('reads only series the processes register, by labels they carry', () => {
    const exported = registrySeries();
    const references = mergeReferences([...dashboardExprs, ...ruleExpressions(ruleDocument)]);
    expect(dashboardExprs).toContain('label_values(qdc_process_start_time_seconds, namespace)');
    expect(references.length).toBeGreaterThan(20);
    const wrong = references.filter(({ metric, labels }) => !exported.has(metric) || labels.some((l) => !exported.get(metric)!.has(l)));
    expect(wrong).toEqual([]);
  });

  it('names only series the README documents', () => {
    const readme = readFileSync(resolve(process.cwd(), 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Metrics'), readme.indexOf('\n## ', readme.indexOf('## Metrics') + 1));
    const documented = (metric: string) =>
      [metric, metric.replace(/_(bucket|count|sum)$/, '')].some((name) => section.includes(`\`${name}`)) || /^qdc_(process|nodejs)_/.test(metric);
    expect(mergeReferences([...dashboardExprs, ...ruleExpressions(ruleDocument)]).filter((r) => !documented(r.metric))).toEqual([]);
  });
});
