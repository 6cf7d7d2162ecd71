/**
 * NATS subjects, one place. A subject is `<namespace>.<service>.<entity>.<action>.v<N>`;
 * the namespace (QDC_NAMESPACE, default `qdc`) lets several QDC instances share one NATS.
 *
 * WARNING: subjects are a wire contract between separately deployed services.
 * Never rename one in place: add a `.v2` subject, serve both, then retire the old one.
 */
export const Subjects = {
  ResultsCreate: 'results.result.create.v1',
  ResultsCreateMany: 'results.result.create-many.v1',
  ResultsStageInput: 'results.input.stage.v1',
  ResultsList: 'results.result.list.v1',
  ResultsGet: 'results.result.get.v1',
  ResultsDelete: 'results.result.delete.v1',
  ResultsDownload: 'results.result.download.v1',
  VotesPut: 'results.vote.put.v1',
  VotesDelete: 'results.vote.delete.v1',
  RunCounts: 'results.run-counter.list.v1',
  KeysVerify: 'results.key.verify.v1',
  KeysCreate: 'results.key.create.v1',
  KeysList: 'results.key.list.v1',
  KeysRevoke: 'results.key.revoke.v1',
  CircuitsTranspile: 'qpu.tools.transpile.v1',
  CircuitsSimulate: 'qpu.tools.simulate.v1',
  CircuitsToQasm3: 'qpu.tools.to-openqasm3.v1',
  CircuitsResources: 'qpu.tools.estimate-resources.v1',
  CircuitsSplit: 'qpu.tools.split-circuit.v1',
  AssistantRunStart: 'assistant.run.start.v1',
  AssistantAgentsList: 'assistant.agents.list.v1',
  QpuDevices: 'qpu.device.list.v1',
  QpuSubmit: 'qpu.job.submit.v1',
  QpuEstimate: 'qpu.job.estimate-cost.v1',
  QpuStatus: 'qpu.job.status.v1',
  QpuCancel: 'qpu.job.cancel.v1',
  QpuJobs: 'qpu.job.list.v1',
  QpuJobHistory: 'qpu.job.history.v1',
  QpuExecutionStart: 'qpu.execution.start.v1',
  QpuExecutionComplete: 'qpu.execution.complete.v1',
  QpuExecutionFail: 'qpu.execution.fail.v1',
  QpuBudgetSet: 'qpu.budget.set.v1',
  QpuBudgetGet: 'qpu.budget.get.v1',
  AgentsList: 'assistant.control-agent.list.v1',
  AgentsRun: 'assistant.control-agent.run.v1',
  LabRemoveDevices: 'qpu.lab.devices.remove.v1',
  LabCredentialsList: 'qpu.lab.credentials.list.v1',
  LabCredentialsCreate: 'qpu.lab.credentials.create.v1',
  LabCredentialsRevoke: 'qpu.lab.credentials.revoke.v1',
  LabStreamCreate: 'lab-streams.stream.create.v1',
  LabStreamList: 'lab-streams.stream.list.v1',
  LabStreamDelete: 'lab-streams.stream.delete.v1',
  OwnerEnsure: 'results.owner.ensure.v1',
  WebhookCreate: 'qpu.webhook.create.v1',
  WebhookList: 'qpu.webhook.list.v1',
  WebhookDelete: 'qpu.webhook.delete.v1',
  WebhookRotateSecret: 'qpu.webhook.rotate-secret.v1',
  WebhookDeliveries: 'qpu.webhook.deliveries.v1',
} as const;

/** Events (publish, no reply). */
export const Events = {
  RunRecorded: 'results.run-counter.changed.v1',
  KeyRevoked: 'results.key.revoked.v1',
  AssistantRunControl: 'assistant.run.control.v1',
  AssistantRunsAlive: 'assistant.runs.alive.v1',
  QpuJobStatusChanged: 'qpu.job.status-changed.v1',
  /** A lab device registered or removed (every broker replica reloads its lab devices). */
  LabDeviceChanged: 'qpu.lab-device.registered.v1',
} as const;

/** Each service answers `<namespace>.<service>.health.v1` (readiness of its dependencies). */
export const ServiceNames = ['gateway', 'results', 'qpu-broker', 'assistant', 'inference-worker', 'simulation-worker', 'lab-streams'] as const;
export type ServiceName = (typeof ServiceNames)[number];

export const healthSubject = (service: ServiceName): string => `${service}.health.v1`;

/**
 * Where a queue worker publishes a job's outcome (JobOutcome) as soon as it is known, for the producer that added the
 * job (JobProducer): under the producer's own prefix (`jobOutcomeInbox`, named in the job's data), one subscription per
 * producer instead of one per job.
 */
export const jobOutcomeSubject = (inbox: string, jobId: string): string => `${inbox}.${jobId}`;

/** The outcome prefix of one producer instance: it subscribes to `<inbox>.*` once and names the prefix in its jobs. */
export const jobOutcomeInbox = (queue: string, instanceId: string): string => `jobs.${queue}.outcome.${instanceId}`;

export const qualify = (namespace: string, subject: string): string => `${namespace}.${subject}`;

/** NATS header carrying the request id through every hop. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The nats.js connection options of a `NATS_URL` (one URL or a comma-separated list): the servers without their
 * user info, and `user`/`pass` from the first `nats://user:password@host:port` (a NATS server with per-lab users,
 * docs/lab-integration.md). nats.js does not read credentials from a URL, and its server parser takes the port from
 * the first `:<digits>` of the string, so a password that starts with a digit became the port (1 run in 6 of
 * `qdc lab add` generates one): the credentials never reach its parser.
 */
export function natsServerOptions(url: string): { servers: string[]; user?: string; pass?: string } {
  const servers = url
    .split(',')
    .map((server) => server.trim())
    .filter(Boolean);
  let credentials: { user?: string; pass?: string } = {};
  try {
    const first = new URL(servers[0] ?? '');
    if (first.username) credentials = { user: decodeURIComponent(first.username), pass: decodeURIComponent(first.password) };
  } catch {
    // not a URL (e.g. `host:4222`): nats.js parses it as it is
  }
  return { servers: servers.map((server) => server.replace(/^([a-z]+:\/\/)?[^@/]*@/i, '$1')), ...credentials };
}
