/**
 * The Kubernetes manifests and the compose file, checked as an operator's cluster would see them:
 * every kustomize overlay renders (`kubectl kustomize`), every Deployment has probes, resources and
 * a non-root, read-only security context, every Service selects pods of a Deployment, and every
 * setting the manifests pass exists in the services' config schema.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { CONFIG_KEYS, SERVICE_PROCESSES } from '#qdc/platform';

/** The parts of the manifests the checks read (the YAML itself is untyped; a missing field fails the check that reads it). */
interface Container {
  name: string;
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
  env?: { name: string }[];
  ports?: { name?: string; containerPort: number }[];
}

interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  /** Deployment, StatefulSet or Service spec. */
  spec: {
    template: { metadata: { labels?: Record<string, string> }; spec: { securityContext?: { runAsNonRoot?: boolean }; containers: Container[] } };
    selector: Record<string, string>;
    ports: { port: number; targetPort?: number | string }[];
    replicas?: number;
    serviceName?: string;
    volumeClaimTemplates?: { metadata: { name: string } }[];
  };
  data?: Record<string, string>;
}

interface ComposeService {
  image?: string;
  command?: string[];
  depends_on?: Record<string, unknown>;
  healthcheck?: unknown;
  environment?: Record<string, string>;
}

const root = process.cwd();
const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
const overlays = ['base', ...readdirSync(join(root, 'deploy/overlays')).map((name) => `overlays/${name}`)];
/** Pods of QDC's own and of the NATS cluster (overlays/nats-cluster): the checks of workloads cover both. */
const isWorkload = (o: K8sObject): boolean => o.kind === 'Deployment' || o.kind === 'StatefulSet';
/** Settings read by something other than the config schema (the Node runtime itself). */
const RUNTIME_SETTINGS = new Set(['NODE_ENV', 'NODE_OPTIONS']);

function render(dir: string, overlay: string): K8sObject[] {
  const yaml = execFileSync('kubectl', ['kustomize', join(dir, overlay)], { encoding: 'utf8' });
  return parseAllDocuments(yaml)
    .map((doc) => doc.toJSON() as K8sObject)
    .filter(Boolean);
}

(kubectl ? describe : describe.skip)('deploy/ manifests (kubectl kustomize)', () => {
  let dir: string;
  const rendered = new Map<string, K8sObject[]>();

  beforeAll(() => {
    // The base reads secrets.env, which operators create from the committed example.
    dir = mkdtempSync(join(tmpdir(), 'qdc-deploy-'));
    cpSync(join(root, 'deploy'), dir, { recursive: true });
    cpSync(join(dir, 'base/secrets.env.example'), join(dir, 'base/secrets.env'));
    for (const overlay of overlays) rendered.set(overlay, render(dir, overlay));
    // deploy/components/monitoring as deploy/README.md tells an operator to include it.
    mkdirSync(join(dir, 'with-monitoring'));
    writeFileSync(
      join(dir, 'with-monitoring/kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../base\ncomponents:\n  - ../components/monitoring\n',
    );
    rendered.set('with-monitoring', render(dir, 'with-monitoring'));
    // deploy/components/backup as docs/operations/backup.md tells an operator to include it.
    mkdirSync(join(dir, 'with-backup'));
    writeFileSync(
      join(dir, 'with-backup/kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../base\ncomponents:\n  - ../components/backup\n',
    );
    rendered.set('with-backup', render(dir, 'with-backup'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(overlays)('%s renders a Deployment for every service', (overlay) => {
    const names = rendered
      .get(overlay)!
      .filter((o) => o.kind === 'Deployment')
      .map((o) => o.metadata.name);
    expect(names).toEqual(expect.arrayContaining(SERVICE_PROCESSES.map((service) => service.name)));
  });

  it('deploy/README.md and the Dockerfile header name every process the image runs, and the README counts what base renders', () => {
    const readme = readFileSync(join(root, 'deploy/README.md'), 'utf8');
    const dockerfileHeader = readFileSync(join(root, 'Dockerfile'), 'utf8').split('\n\n')[0]!;
    for (const service of SERVICE_PROCESSES) {
      expect(readme).toContain(`\`node ${service.entry}\``);
      expect(dockerfileHeader).toContain(`node ${service.entry}`);
    }
    const deployments = rendered.get('base')!.filter((o) => o.kind === 'Deployment').length;
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    expect(deployments).toBe(SERVICE_PROCESSES.length);
    expect(readme).toContain(`all ${words[deployments]} services`);
  });

  it.each(overlays)('%s: every container has probes, resources and a non-root read-only security context', (overlay) => {
    const problems: string[] = [];
    for (const deployment of rendered.get(overlay)!.filter(isWorkload)) {
      const pod = deployment.spec.template.spec;
      if (pod.securityContext?.runAsNonRoot !== true) problems.push(`${deployment.metadata.name}: pod securityContext.runAsNonRoot is not true`);
      for (const container of pod.containers) {
        const where = `${deployment.metadata.name}/${container.name}`;
        if (!container.livenessProbe) problems.push(`${where}: no livenessProbe`);
        if (!container.readinessProbe) problems.push(`${where}: no readinessProbe`);
        if (!container.resources?.requests?.cpu || !container.resources?.requests?.memory) problems.push(`${where}: no cpu/memory requests`);
        if (!container.resources?.limits?.memory) problems.push(`${where}: no memory limit`);
        if (container.securityContext?.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation is not false`);
        if (container.securityContext?.readOnlyRootFilesystem !== true) problems.push(`${where}: root filesystem is writable`);
      }
    }
    expect(problems).toEqual([]);
  });

  it.each(overlays)('%s: every Service selects the pods of a Deployment or StatefulSet, on a port the pod exposes', (overlay) => {
    const objects = rendered.get(overlay)!;
    const deployments = objects.filter(isWorkload);
    const services = objects.filter((o) => o.kind === 'Service');
    expect(services.length).toBeGreaterThan(0);
    for (const service of services) {
      const selector: Record<string, string> = service.spec.selector;
      const matches = deployments.filter((d) => Object.entries(selector).every(([k, v]) => d.spec.template.metadata.labels?.[k] === v));
      expect({ service: service.metadata.name, matches: matches.length }).toEqual({ service: service.metadata.name, matches: 1 });
      const ports = matches[0].spec.template.spec.containers.flatMap((c: { ports?: { name?: string; containerPort: number }[] }) => c.ports ?? []);
      for (const port of service.spec.ports) {
        const target = port.targetPort ?? port.port;
        expect(ports.some((p: { name?: string; containerPort: number }) => p.containerPort === target || p.name === target)).toBe(true);
      }
    }
  });

  it('the monitoring component scrapes every Deployment on a port it names, with its rules and dashboard', () => {
    const objects = rendered.get('with-monitoring')!;
    const monitor = objects.find((o) => o.kind === 'PodMonitor') as unknown as {
      spec: { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: { port: string }[] };
    };
    const ports = new Set(monitor.spec.podMetricsEndpoints.map((e) => e.port));
    const deployments = objects.filter((o) => o.kind === 'Deployment');
    expect(deployments.length).toBeGreaterThanOrEqual(7);
    for (const deployment of deployments) {
      const selected = Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => deployment.spec.template.metadata.labels?.[k] === v);
      const named = deployment.spec.template.spec.containers.flatMap((c) => c.ports ?? []).filter((p) => p.name && ports.has(p.name));
      expect({ deployment: deployment.metadata.name, selected, ports: named.length }).toEqual({
        deployment: deployment.metadata.name,
        selected: true,
        ports: 1,
      });
    }
    expect(objects.filter((o) => o.kind === 'PrometheusRule').map((o) => o.metadata.name)).toEqual(['qdc']);
    const dashboard = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.labels?.grafana_dashboard === '1')!;
    expect(JSON.parse(dashboard.data!['qdc-overview.json']!).uid).toBe('qdc-overview');
  });

  it('the backup component runs qdc backup create nightly with the settings of the services into its PVC, non-root and read-only', () => {
    const objects = rendered.get('with-backup')!;
    const cron = objects.find((o) => o.kind === 'CronJob') as unknown as {
      spec: {
        concurrencyPolicy: string;
        jobTemplate: {
          spec: {
            template: {
              spec: {
                securityContext: { runAsNonRoot: boolean };
                containers: (Omit<Container, 'env'> & {
                  image: string;
                  command: string[];
                  envFrom: { configMapRef: { name: string } }[];
                  env: { name: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[];
                  volumeMounts: { name: string; mountPath: string }[];
                })[];
                volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[];
              };
            };
          };
        };
      };
    };
    const pod = cron.spec.jobTemplate.spec.template.spec;
    const [container] = pod.containers;
    const gateway = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'gateway') as unknown as {
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    expect(cron.spec.concurrencyPolicy).toBe('Forbid');
    expect(container!.image).toBe(gateway.spec.template.spec.containers[0]!.image);
    expect(container!.command.join(' ')).toContain('node dist/apps/cli/src/main.js backup create "$dir"');
    const configMaps = objects.filter((o) => o.kind === 'ConfigMap').map((o) => o.metadata.name);
    expect(configMaps).toContain(container!.envFrom[0]!.configMapRef.name);
    const secret = container!.env.find((e) => e.name === 'DATABASE_URL')!.valueFrom!.secretKeyRef;
    expect(objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name)).toContain(secret.name);
    const claim = pod.volumes.find((v) => v.name === container!.volumeMounts.find((m) => m.mountPath === '/backups')!.name)!.persistentVolumeClaim!.claimName;
    expect(objects.filter((o) => o.kind === 'PersistentVolumeClaim').map((o) => o.metadata.name)).toEqual([claim]);
    expect([pod.securityContext.runAsNonRoot, container!.securityContext?.readOnlyRootFilesystem, container!.resources?.limits?.memory]).toEqual([
      true,
      true,
      '1Gi',
    ]);
  });

  it('overlays/nats-cluster runs NATS as a 3-server JetStream cluster and has the services replicate on 3; base keeps 1', () => {
    const objects = rendered.get('overlays/nats-cluster')!;
    const nats = objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'qdc-nats')!;
    expect(nats.spec.replicas).toBe(3);
    expect(nats.spec.volumeClaimTemplates?.map((t) => t.metadata.name)).toEqual(['data']);
    const headless = objects.find((o) => o.kind === 'Service' && o.metadata.name === nats.spec.serviceName) as unknown as { spec: { clusterIP: string } };
    expect(headless.spec.clusterIP).toBe('None');
    const conf = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('qdc-nats-config'))!.data!['nats.conf']!;
    expect(conf).toMatch(/^jetstream \{/m);
    expect(conf).toMatch(/^server_name: \$POD_NAME$/m);
    for (const pod of ['qdc-nats-0', 'qdc-nats-1', 'qdc-nats-2']) expect(conf).toContain(`nats://${pod}.${nats.spec.serviceName}:6222`);
    const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('qdc-config'))!.data!;
    expect(config.QDC_NATS_REPLICAS).toBe('3');
    expect(config.NATS_URL!.split(',')).toHaveLength(3);
    const baseConfig = rendered.get('base')!.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('qdc-config'))!.data!;
    expect(baseConfig.QDC_NATS_REPLICAS ?? '1').toBe('1');
  });

  it.each(overlays)('%s: every setting it passes exists in the config schema', (overlay) => {
    const known = new Set([...CONFIG_KEYS, ...RUNTIME_SETTINGS]);
    const passed = new Set<string>();
    for (const object of rendered.get(overlay)!) {
      // The services' settings (qdc-config-<hash>); other ConfigMaps hold files (nats.conf).
      if (object.kind === 'ConfigMap' && object.metadata.name.startsWith('qdc-config')) for (const key of Object.keys(object.data ?? {})) passed.add(key);
      if (object.kind === 'Deployment') {
        for (const container of object.spec.template.spec.containers) for (const env of container.env ?? []) passed.add(env.name);
      }
    }
    expect([...passed].filter((key) => !known.has(key))).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = Object.entries(compose.services);

  it('depends only on services it defines, and runs every QDC process from the one image', () => {
    for (const [name, service] of services) {
      for (const dependency of Object.keys(service.depends_on ?? {}))
        expect(`${name} → ${dependency}: ${dependency in compose.services}`).toBe(`${name} → ${dependency}: true`);
    }
    const entries = services.filter(([, s]) => s.image === 'qdc:local').map(([, s]) => s.command?.[1]);
    expect(entries).toEqual(
      expect.arrayContaining([
        'dist/apps/gateway/src/main.js',
        'dist/apps/inference-worker/src/main.js',
        'dist/apps/results/src/main.js',
        'dist/apps/qpu-broker/src/main.js',
        'dist/apps/qpu-broker/src/simulation-worker.js',
        'dist/apps/assistant/src/main.js',
      ]),
    );
  });

  it('gives every QDC service a health check and settings the config schema knows', () => {
    const known = new Set([...CONFIG_KEYS, ...RUNTIME_SETTINGS]);
    for (const [name, service] of services.filter(([, s]) => s.image === 'qdc:local')) {
      expect(`${name}: ${Boolean(service.healthcheck)}`).toBe(`${name}: true`);
      expect(Object.keys(service.environment ?? {}).filter((key) => !known.has(key))).toEqual([]);
    }
  });
});
