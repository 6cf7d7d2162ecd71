import type { NdArray } from '#qdc/arrays';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EventStreamState } from '../api/event-stream.js';
import { followLabStream, type LabStreamEvent, type LabStreamModelOutcome } from '../api/lab-streams.js';
import { fetchResultInput, fetchStreamResultInput } from '../api/result-input.js';
import { useApp } from '../app-context.js';
import { FramePlot } from '../components/frame-plot.js';
import { outputSummary } from '../format.js';
import { useTitle, useUnmountSignal } from '../hooks.js';
import { pathOf } from '../router.js';
import { saveZip } from '../save-file.js';

/** Events kept on the page (newest first); older ones are counted, not shown. */
const KEEP = 100;
/** Frames whose data is fetched for a plot: the newest few (each is one download of the stored input). */
const PLOTTED = 6;

const STATE_TEXT: Record<EventStreamState, string> = {
  connecting: 'Connecting…',
  open: 'Live',
  reconnecting: 'Reconnecting…',
  ended: 'Ended',
  failed: 'Not available',
};

function firstResultId(event: LabStreamEvent): string | undefined {
  if (event.type !== 'result') return undefined;
  for (const r of event.results) if ('result_id' in r) return r.result_id;
  return undefined;
}

/**
 * One live stream: every frame's event as it arrives (server push), the newest frames plotted with each model's
 * result beside them, dropped and refused frames marked. Resumes after a dropped connection from the last seq.
 */
export function LabStreamPage({ lab, name }: { lab: string; name: string }) {
  useTitle(`${lab}/${name}`);
  const { api, admin } = useApp();
  const signal = useUnmountSignal();
  const [events, setEvents] = useState<LabStreamEvent[]>([]);
  const [counts, setCounts] = useState({ result: 0, error: 0, dropped: 0 });
  const [connection, setConnection] = useState<{ state: EventStreamState; detail?: string }>({ state: 'connecting' });
  const [paused, setPaused] = useState(false);
  const [frames, setFrames] = useState<Map<string, NdArray | Error>>(new Map());
  const pausedRef = useRef(false);
  pausedRef.current = paused;
  const buffer = useRef<LabStreamEvent[]>([]);
  const fetching = useRef(new Set<string>());

  useEffect(() => {
    // Events are applied once per animation frame, so 100 frames/s do not mean 100 renders/s.
    let scheduled = 0;
    const tally = { result: 0, error: 0, dropped: 0 };
    const applyBuffered = () => {
      scheduled = 0;
      setCounts({ ...tally });
      if (pausedRef.current) return;
      const arrived = buffer.current.splice(0);
      if (arrived.length === 0) return;
      setEvents((current) => [...arrived.reverse(), ...current].slice(0, KEEP));
    };
    followLabStream(
      api,
      lab,
      name,
      signal,
      (event) => {
        tally[event.type]++;
        buffer.current.push(event);
        if (buffer.current.length > KEEP) buffer.current.splice(0, buffer.current.length - KEEP);
        scheduled ||= requestAnimationFrame(applyBuffered);
      },
      (state, detail) => setConnection({ state, detail }),
    );
    return () => cancelAnimationFrame(scheduled);
  }, [api, lab, name, signal]);

  // The newest frames' data, one download at a time; older frames than the newest PLOTTED are not fetched. An admin
  // reads them through the admin route, since the results belong to the lab's owner.
  useEffect(() => {
    const wanted = events
      .map(firstResultId)
      .filter((id): id is string => id !== undefined)
      .slice(0, PLOTTED);
    const next = wanted.find((id) => !frames.has(id) && !fetching.current.has(id));
    if (!next || fetching.current.size > 0) return;
    fetching.current.add(next);
    (admin ? fetchStreamResultInput(api, lab, name, next, signal) : fetchResultInput(api, next, signal))
      .then(
        (array) => array as NdArray | Error,
        (error: Error) => error,
      )
      .then((value) => {
        fetching.current.delete(next);
        if (signal.aborted) return;
        setFrames((current) => {
          const map = new Map(current);
          map.set(next, value);
          // Keep only what can still be shown.
          for (const key of map.keys()) if (map.size > 2 * PLOTTED) map.delete(key);
          return map;
        });
      });
  }, [api, admin, lab, name, events, frames, signal]);

  const dataOf = (event: LabStreamEvent): NdArray | undefined => {
    const data = frames.get(firstResultId(event) ?? '');
    return data instanceof Error ? undefined : data;
  };
  const latest = events.find((e) => dataOf(e) !== undefined);
  const latestData = latest && dataOf(latest);
  return (
    <>
      <p class="breadcrumb">
        <a href="/lab-streams">← Back to the streams</a>
      </p>
      <h1 tabIndex={-1}>
        Lab stream {lab}/{name}
      </h1>
      <div class="stream-status">
        <p>
          <span class={`live live-${connection.state}`}>{STATE_TEXT[connection.state]}</span>
          {connection.state === 'failed' && connection.detail ? `: ${connection.detail}` : ''}
        </p>
        <p>
          {counts.result} analysed, <span class="frame-error-text">{counts.error} refused</span>,{' '}
          <span class="frame-dropped-text">{counts.dropped} dropped</span>
        </p>
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)}>
          Pause display
        </button>
      </div>
      {latest && latestData && latest.type === 'result' && (
        <section class="panel latest-frame" aria-labelledby="latest-heading">
          <h2 id="latest-heading">
            Latest frame {latest.frame_id} (#{latest.seq})
          </h2>
          <div class="frame-with-results">
            <FramePlot array={latestData} label={`Frame ${latest.frame_id}`} outputs={latest.results.flatMap((r) => ('output' in r ? [r.output] : []))} />
            <Outcomes results={latest.results} lab={lab} name={name} />
          </div>
        </section>
      )}
      <section aria-labelledby="frames-heading">
        <h2 id="frames-heading">Frames</h2>
        {events.length === 0 ? (
          <p class="muted">{connection.state === 'open' ? 'Waiting for the next frame…' : STATE_TEXT[connection.state]}</p>
        ) : (
          <ol class="frames" aria-label={`The newest ${events.length} frames, newest first`}>
            {events.map((event) => (
              <FrameRow key={event.seq} event={event} data={frames.get(firstResultId(event) ?? '')} lab={lab} name={name} />
            ))}
          </ol>
        )}
      </section>
    </>
  );
}

function FrameRow({ event, data, lab, name }: { event: LabStreamEvent; data: NdArray | Error | undefined; lab: string; name: string }) {
  const title = (
    <p class="frame-title">
      <strong>Frame {event.frame_id}</strong> <span class="muted">#{event.seq}</span>
      {event.type === 'result' && <span class="muted"> · {Math.round(event.latency_ms)} ms</span>}
    </p>
  );
  if (event.type === 'error') {
    return (
      <li class="frame frame-error">
        {title}
        <p>
          <span class="mark" aria-hidden="true">
            ✕
          </span>{' '}
          Refused ({event.error.code}): {event.error.message}
        </p>
      </li>
    );
  }
  if (event.type === 'dropped') {
    return (
      <li class="frame frame-dropped">
        {title}
        <p>
          <span class="mark" aria-hidden="true">
            ⚠
          </span>{' '}
          Dropped ({event.reason}): {event.message}
        </p>
      </li>
    );
  }
  return (
    <li class="frame">
      {title}
      <div class="frame-with-results">
        {data && !(data instanceof Error) ? (
          <FramePlot array={data} label={`Frame ${event.frame_id}`} outputs={event.results.flatMap((r) => ('output' in r ? [r.output] : []))} compact />
        ) : (
          <span class="frame-placeholder muted">{data instanceof Error ? 'data unavailable' : ''}</span>
        )}
        <Outcomes results={event.results} lab={lab} name={name} />
      </div>
    </li>
  );
}

/**
 * Each model's outcome with a way to its stored result: the result page for the stream's owner; for an admin (who may
 * be watching another owner's stream, whose results page would answer 404) the zip through the admin route.
 */
function Outcomes({ results, lab, name }: { results: LabStreamModelOutcome[]; lab: string; name: string }) {
  const { api, admin, announce } = useApp();
  const download = (event: Event, resultId: string) => {
    event.preventDefault();
    api.client.admin.labStreams.downloadResult(lab, name, resultId).then(
      (zip) => {
        saveZip(zip, `model-result-${resultId}.zip`);
        announce('Download started.');
      },
      (error: Error) => announce(`The download failed: ${error.message}`),
    );
  };
  return (
    <ul class="outcomes">
      {results.map((r) =>
        'error' in r ? (
          <li key={r.model} class="frame-error-text">
            <strong>{r.model}</strong>: refused ({r.error.code}) {r.error.message}
          </li>
        ) : (
          <li key={r.model}>
            <strong>{r.model}</strong>: {outputSummary(r.output, 4)}{' '}
            {admin ? (
              <a href={pathOf('results', r.result_id)} onClick={(event) => download(event, r.result_id)}>
                download result<span class="visually-hidden"> of {r.model}</span>
              </a>
            ) : (
              <a href={pathOf('results', r.result_id)}>
                stored result<span class="visually-hidden"> of {r.model}</span>
              </a>
            )}
          </li>
        ),
      )}
    </ul>
  );
}
