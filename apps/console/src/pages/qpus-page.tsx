import type { QpuDevice, QpuEstimateResponse, QpuJob, QpuJobEvent } from '@qdc/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { followQpuJob } from '../api/qpu-job-events.js';
import type { EventStreamState } from '../api/event-stream.js';
import { useApp } from '../app-context.js';
import { CouplingMap } from '../components/coupling-map.js';
import { ErrorNote, Loading } from '../components/error-note.js';
import { Histogram } from '../components/histogram.js';
import { formatCents, formatTime } from '../format.js';
import { useAsync, useTitle, useUnmountSignal } from '../hooks.js';

/** A job as the page shows it: the API's job, plus the state changes heard by server push. */
interface JobView {
  job: QpuJob;
  timeline: { status: string; at: string }[];
  live?: EventStreamState;
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/**
 * Jobs followed by server push at once. Each stream holds a connection, and a browser opens at most six to one
 * HTTP/1.1 server; the gateway also bounds streams per key. The selected job is always followed.
 */
const MAX_FOLLOWED = 3;

const BELL_QASM = `OPENQASM 2.0;
include "qelib1.inc";
qreg q[2];
creg c[2];
h q[0];
cx q[0],q[1];
measure q -> c;`;

/** QPU devices, a submit form with a cost estimate, and the caller's jobs with live status and results. */
export function QpusPage() {
  useTitle('QPUs');
  const { api, announce } = useApp();
  const signal = useUnmountSignal();
  const devices = useAsync((s) => api.client.qpus.list({ signal: s }), []);
  const [jobs, setJobs] = useState<JobView[]>([]);
  const [jobsError, setJobsError] = useState<unknown>(undefined);
  const [selected, setSelected] = useState<string | undefined>(undefined);

  useEffect(() => {
    api.client.qpus.jobs({ limit: 25 }, { signal }).then(
      (answer) => setJobs((current) => mergeJobs(current, answer.jobs)),
      (error) => !signal.aborted && setJobsError(error),
    );
  }, [api, signal]);

  const update = (jobId: string, change: (view: JobView) => JobView) => setJobs((current) => current.map((v) => (v.job.job_id === jobId ? change(v) : v)));

  // Server push: follow up to MAX_FOLLOWED unfinished jobs (the selected one first, then the newest). A stream
  // ends by itself after its job's outcome; it is only cut to make room for the job the user selected.
  const followed = useRef(new Map<string, AbortController>());
  const [followEnded, setFollowEnded] = useState(0);
  const active = jobs.filter((v) => !TERMINAL.has(v.job.status)).map((v) => v.job.job_id);
  const wanted = selected && active.includes(selected) ? [selected, ...active.filter((id) => id !== selected)] : active;
  const wantedKey = wanted.join(',');
  useEffect(() => {
    const map = followed.current;
    if (selected && wanted[0] === selected && !map.has(selected) && map.size >= MAX_FOLLOWED) {
      const [oldest] = [...map.keys()].filter((id) => id !== selected).slice(-1);
      if (oldest) {
        map.get(oldest)?.abort();
        map.delete(oldest);
      }
    }
    for (const id of wanted) {
      if (map.size >= MAX_FOLLOWED) break;
      if (map.has(id)) continue;
      const controller = new AbortController();
      map.set(id, controller);
      const onEvent = (event: QpuJobEvent) => {
        update(id, (view) => applyJobEvent(view, event));
        if (event.type === 'status') announce(`Job ${id.slice(0, 8)} is ${event.status}.`);
      };
      const onState = (state: EventStreamState) => update(id, (view) => ({ ...view, live: state }));
      followQpuJob(api, id, controller.signal, onEvent, onState).finally(() => {
        if (controller.signal.aborted) return;
        if (map.get(id) === controller) map.delete(id);
        setFollowEnded((n) => n + 1);
        // The final cost is set when the job ends: one read of the job (not a polling loop).
        api.client.qpus.status(id, { signal }).then(
          (status) => update(id, (view) => ({ ...view, job: { ...view.job, ...withoutSuccess(status), status: laterStatus(view.job.status, status.status) } })),
          () => undefined,
        );
      });
    }
  }, [wantedKey, followEnded]);
  useEffect(
    () => () => {
      for (const c of followed.current.values()) c.abort();
    },
    [],
  );

  const onSubmitted = (job: QpuJob) => {
    setJobs((current) => mergeJobs(current, [job]));
    setSelected(job.job_id);
  };

  const selectedView = jobs.find((v) => v.job.job_id === selected);
  return (
    <>
      <h1 tabIndex={-1}>QPUs</h1>
      <section aria-labelledby="devices-heading">
        <h2 id="devices-heading">Available QPUs</h2>
        {devices.loading && <Loading what="the devices" />}
        <ErrorNote error={devices.error} context="Could not load the devices" />
        {devices.value && <DeviceTable devices={devices.value.devices} />}
      </section>
      <SubmitForm devices={devices.value?.devices ?? []} onSubmitted={onSubmitted} />
      <section aria-labelledby="jobs-heading">
        <h2 id="jobs-heading">Jobs</h2>
        <ErrorNote error={jobsError} context="Could not load your jobs" />
        <JobTable
          jobs={jobs}
          selected={selected}
          onSelect={setSelected}
          onCancelled={(id, status) => update(id, (v) => ({ ...v, job: { ...v.job, status } }))}
        />
      </section>
      {selectedView && <JobDetail view={selectedView} />}
    </>
  );
}

function withoutSuccess<T extends { success?: unknown }>(answer: T): Omit<T, 'success'> {
  const { success: _, ...rest } = answer;
  return rest;
}

/** Statuses only move forward: a late answer never takes a job back from completed to running. */
const ORDER: Record<string, number> = { queued: 0, running: 1, completed: 2, failed: 2, cancelled: 2 };
function laterStatus<S extends string>(a: S, b: S): S {
  return (ORDER[b] ?? 0) >= (ORDER[a] ?? 0) ? b : a;
}

function mergeJobs(current: JobView[], incoming: QpuJob[]): JobView[] {
  const byId = new Map(current.map((v) => [v.job.job_id, v]));
  for (const job of incoming) {
    const known = byId.get(job.job_id);
    byId.set(job.job_id, known ? { ...known, job: { ...known.job, ...job, status: laterStatus(known.job.status, job.status) } } : { job, timeline: [] });
  }
  return [...byId.values()].sort((a, b) => (a.job.submitted_at < b.job.submitted_at ? 1 : a.job.submitted_at > b.job.submitted_at ? -1 : 0));
}

function applyJobEvent(view: JobView, event: QpuJobEvent): JobView {
  switch (event.type) {
    case 'status':
      return {
        ...view,
        job: { ...view.job, status: laterStatus(view.job.status, event.status) },
        timeline: view.timeline.some((t) => t.status === event.status) ? view.timeline : [...view.timeline, { status: event.status, at: event.at }],
      };
    case 'results':
      return { ...view, job: { ...view.job, results: event.results, status: 'completed' } };
    case 'error':
      return { ...view, job: { ...view.job, error: event.error, status: 'failed' } };
  }
}

function DeviceTable({ devices }: { devices: QpuDevice[] }) {
  if (devices.length === 0) return <p>No devices are registered.</p>;
  return (
    <div class="table-scroll">
      <table>
        <caption>{devices.length === 1 ? '1 device' : `${devices.length} devices`}</caption>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col" class="numeric">
              Qubits
            </th>
            <th scope="col">Native gates</th>
            <th scope="col">Status</th>
            <th scope="col" class="numeric">
              Queue depth
            </th>
            <th scope="col">Price</th>
            <th scope="col">Coupling map</th>
          </tr>
        </thead>
        <tbody>
          {devices.map((d) => (
            <tr key={d.id}>
              <th scope="row">
                {d.name}
                <br />
                <code class="muted">{d.id}</code> <span class="muted">({d.provider})</span>
              </th>
              <td class="numeric">{d.num_qubits}</td>
              <td>{d.native_gates.join(', ')}</td>
              <td>
                <span class={`status status-${d.status}`}>{d.status}</span>
              </td>
              <td class="numeric">{d.queue_depth}</td>
              <td>
                {formatCents(d.pricing.per_task_cents)} per task
                <br />+ {formatCents(d.pricing.per_shot_cents)} per shot
              </td>
              <td>
                <CouplingMap device={d.name} qubits={d.num_qubits} edges={d.coupling_map} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SubmitForm({ devices, onSubmitted }: { devices: QpuDevice[]; onSubmitted: (job: QpuJob) => void }) {
  const { api, announce } = useApp();
  const [code, setCode] = useState('');
  const [device, setDevice] = useState('');
  const [shots, setShots] = useState('100');
  const [estimate, setEstimate] = useState<QpuEstimateResponse | undefined>(undefined);
  const [busy, setBusy] = useState<'estimate' | 'submit' | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [acceptOverage, setAcceptOverage] = useState(false);
  const backend = device || devices.find((d) => d.status === 'online')?.id || devices[0]?.id || '';

  const body = () => ({ code, backend, shots: Number(shots) });
  const check = (): boolean => {
    if (!code.trim()) setError(new Error('Write a circuit in Circuit (Qiskit, Cirq, OpenQASM 2 or 3).'));
    else if (!backend) setError(new Error('Choose a device.'));
    else if (!Number.isInteger(Number(shots)) || Number(shots) < 10 || Number(shots) > 10_000)
      setError(new Error('Shots must be a whole number from 10 to 10 000.'));
    else return true;
    return false;
  };
  const run = async (what: 'estimate' | 'submit') => {
    setError(undefined);
    if (!check()) return;
    setBusy(what);
    try {
      if (what === 'estimate') {
        const answer = await api.client.qpus.estimate(body());
        setEstimate(answer);
        announce(`Estimated cost ${formatCents(answer.estimated_cost_cents)}.`);
      } else {
        // One key per press: a retried request is answered with the same job, never charged twice.
        const submitted = await api.client.qpus.submit(
          { ...body(), accept_overage: acceptOverage },
          { idempotencyKey: crypto.randomUUID?.() ?? `${Date.now()}-${Math.random()}` },
        );
        announce(`Job ${submitted.job_id.slice(0, 8)} submitted.`);
        const status = await api.client.qpus.status(submitted.job_id).catch(() => undefined);
        onSubmitted(
          status
            ? withoutSuccess(status)
            : {
                job_id: submitted.job_id,
                status: 'queued',
                device: submitted.backend,
                shots: submitted.shots,
                source_framework: '',
                compiled: { native_gate_count: 0, two_qubit_gate_count: 0, swap_count: 0, depth: 0 },
                estimated_cost_cents: submitted.estimated_cost_cents,
                cost_cents: null,
                submitted_at: new Date().toISOString(),
              },
        );
      }
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <form
      class="submit-form"
      aria-labelledby="submit-heading"
      aria-busy={busy !== undefined}
      onSubmit={(e) => {
        e.preventDefault();
        run('submit');
      }}
    >
      <h2 id="submit-heading">New job</h2>
      <div class="field">
        <label for="circuit">Circuit</label>
        <textarea
          id="circuit"
          rows={9}
          spellcheck={false}
          class="code-input"
          value={code}
          onInput={(e) => {
            setCode(e.currentTarget.value);
            setEstimate(undefined);
          }}
          aria-describedby="circuit-hint"
        />
        <p id="circuit-hint" class="hint">
          Qiskit or Cirq Python (parsed, never executed), OpenQASM 2 or 3.{' '}
          <button type="button" class="link-button" onClick={() => setCode(BELL_QASM)}>
            Use the Bell-state example
          </button>
        </p>
      </div>
      <div class="row">
        <div class="field">
          <label for="device">Device</label>
          <select
            id="device"
            value={backend}
            onChange={(e) => {
              setDevice(e.currentTarget.value);
              setEstimate(undefined);
            }}
          >
            {devices.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name} ({d.id}, {d.num_qubits} qubits, {d.status})
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="shots">Shots</label>
          <input
            id="shots"
            type="number"
            min={10}
            max={10000}
            step={1}
            value={shots}
            onInput={(e) => {
              setShots(e.currentTarget.value);
              setEstimate(undefined);
            }}
          />
        </div>
      </div>
      <div class="field checkbox">
        <input id="accept-overage" type="checkbox" checked={acceptOverage} onChange={(e) => setAcceptOverage(e.currentTarget.checked)} />
        <label for="accept-overage">Accept overage (charge what the budget does not cover)</label>
      </div>
      <div class="buttons">
        <button type="button" onClick={() => run('estimate')} disabled={busy !== undefined}>
          Estimate cost
        </button>
        <button type="submit" disabled={busy !== undefined}>
          Submit
        </button>
      </div>
      {estimate && (
        <p class="note" role="status">
          Estimated cost: <strong>{formatCents(estimate.estimated_cost_cents)}</strong> for {estimate.shots} shots on {estimate.device} (
          {estimate.compiled.native_gate_count} native gates, {estimate.compiled.two_qubit_gate_count} two-qubit, {estimate.compiled.swap_count} swaps, depth{' '}
          {estimate.compiled.depth}){estimate.remaining_cents !== null ? `; ${formatCents(estimate.remaining_cents)} of your budget left` : ''}.
        </p>
      )}
      <ErrorNote error={error} />
    </form>
  );
}

function JobTable({
  jobs,
  selected,
  onSelect,
  onCancelled,
}: {
  jobs: JobView[];
  selected: string | undefined;
  onSelect: (id: string) => void;
  onCancelled: (id: string, status: QpuJob['status']) => void;
}) {
  const { api, announce } = useApp();
  const [error, setError] = useState<unknown>(undefined);
  if (jobs.length === 0) return <p>No jobs yet.</p>;
  const cancel = async (id: string) => {
    setError(undefined);
    try {
      const answer = await api.client.qpus.cancel(id);
      onCancelled(id, answer.status);
      announce(`Job ${id.slice(0, 8)} is ${answer.status}.`);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <>
      <div class="table-scroll">
        <table>
          <caption>Your jobs, newest first; status changes arrive as they happen</caption>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Device</th>
              <th scope="col" class="numeric">
                Shots
              </th>
              <th scope="col">Status</th>
              <th scope="col">Submitted</th>
              <th scope="col" class="numeric">
                Cost
              </th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map(({ job, live }) => (
              <tr key={job.job_id} aria-current={job.job_id === selected ? 'true' : undefined}>
                <th scope="row">
                  <button type="button" class="link-button" onClick={() => onSelect(job.job_id)} aria-label={`Show job ${job.job_id}`}>
                    <code>{job.job_id.slice(0, 8)}</code>
                  </button>
                </th>
                <td>{job.device}</td>
                <td class="numeric">{job.shots}</td>
                <td>
                  <span class={`status status-${job.status}`}>{job.status}</span>
                  {live === 'reconnecting' && <span class="muted"> (reconnecting…)</span>}
                </td>
                <td>
                  <time dateTime={job.submitted_at}>{formatTime(job.submitted_at)}</time>
                </td>
                <td class="numeric">{formatCents(job.cost_cents ?? job.estimated_cost_cents)}</td>
                <td>
                  {!TERMINAL.has(job.status) && (
                    <button type="button" class="small" onClick={() => cancel(job.job_id)} aria-label={`Cancel job ${job.job_id.slice(0, 8)}`}>
                      Cancel
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorNote error={error} context="Could not cancel" />
    </>
  );
}

function JobDetail({ view }: { view: JobView }) {
  const { job, timeline } = view;
  const results = job.results ?? job.counts;
  return (
    <section class="panel" aria-labelledby="job-heading">
      <h2 id="job-heading">Job {job.job_id.slice(0, 8)}</h2>
      <p>
        Status: <span class={`status status-${job.status}`}>{job.status}</span>
        {job.queue_position !== undefined && job.status === 'queued' ? ` (position ${job.queue_position} in the queue)` : ''}
      </p>
      <dl class="facts">
        <dt>Job id</dt>
        <dd>
          <code>{job.job_id}</code>
        </dd>
        <dt>Device</dt>
        <dd>{job.device}</dd>
        <dt>Shots</dt>
        <dd>{job.shots}</dd>
        <dt>Compiled</dt>
        <dd>
          {job.compiled.native_gate_count} native gates, {job.compiled.two_qubit_gate_count} two-qubit, {job.compiled.swap_count} swaps, depth{' '}
          {job.compiled.depth}
        </dd>
        <dt>Cost</dt>
        <dd>{job.cost_cents !== null ? formatCents(job.cost_cents) : `${formatCents(job.estimated_cost_cents)} (estimate)`}</dd>
      </dl>
      {timeline.length > 0 && (
        <ol class="timeline" aria-label="Status changes">
          {timeline.map((t) => (
            <li key={t.status}>
              <span class={`status status-${t.status}`}>{t.status}</span> <time dateTime={t.at}>{formatTime(t.at)}</time>
            </li>
          ))}
        </ol>
      )}
      {job.error && (
        <p class="note note-error" role="alert">
          The job failed: {job.error}
        </p>
      )}
      {results && <Histogram counts={results} />}
    </section>
  );
}
