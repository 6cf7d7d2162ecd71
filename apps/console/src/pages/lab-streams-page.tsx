import { useState } from 'preact/hooks';
import { labStreams } from '../api/lab-streams.js';
import { useApp } from '../app-context.js';
import { ErrorNote, Loading } from '../components/error-note.js';
import { formatTime } from '../format.js';
import { useAsync, useTitle } from '../hooks.js';
import { navigate, pathOf } from '../router.js';

/**
 * Live instrument streams. Listing them needs an admin key; any key of a lab's owner can open that lab's streams
 * by name, which the form below does for everyone.
 */
export function LabStreamsPage() {
  useTitle('Lab streams');
  const { api, admin } = useApp();
  const streams = useAsync((_signal) => (admin ? labStreams.list(api) : Promise.resolve(undefined)), [admin]);
  const [lab, setLab] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const open = (event: Event) => {
    event.preventDefault();
    if (!lab.trim() || !name.trim()) {
      setError('Enter the lab and the stream name.');
      return;
    }
    navigate(pathOf('lab-streams', lab.trim(), name.trim()));
  };
  return (
    <>
      <h1 tabIndex={-1}>Lab streams</h1>
      <p>
        Frames an instrument publishes on a stream are analysed by the stream’s models as they arrive; open a stream to watch its frames and results live.
        Streams are declared by an administrator (Admin page, or <code>npm run qdc -- stream create</code>).
      </p>
      {admin ? (
        <section aria-labelledby="streams-heading">
          <h2 id="streams-heading">Declared streams</h2>
          {streams.loading && <Loading what="the streams" />}
          <ErrorNote error={streams.error} context="Could not list the streams" />
          {streams.value && streams.value.length === 0 && <p>No streams are declared.</p>}
          {streams.value && streams.value.length > 0 && (
            <div class="table-scroll">
              <table>
                <caption>{streams.value.length} streams</caption>
                <thead>
                  <tr>
                    <th scope="col">Stream</th>
                    <th scope="col">Models</th>
                    <th scope="col" class="numeric">
                      In flight
                    </th>
                    <th scope="col">Max lag</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {streams.value.map((s) => (
                    <tr key={`${s.lab}/${s.name}`}>
                      <th scope="row">
                        <a href={pathOf('lab-streams', s.lab, s.name)}>
                          {s.lab}/{s.name}
                        </a>
                      </th>
                      <td>{s.models.join(', ')}</td>
                      <td class="numeric">{s.max_in_flight}</td>
                      <td>{s.max_lag_ms === null ? 'none' : `${s.max_lag_ms} ms`}</td>
                      <td>
                        <time dateTime={s.created_at}>{formatTime(s.created_at)}</time>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : (
        <p class="note">Listing every stream needs an admin key. Open a stream of your lab by its name:</p>
      )}
      <form class="filters" onSubmit={open} aria-labelledby="open-heading">
        <h2 id="open-heading">Open a stream</h2>
        <div class="field">
          <label for="stream-lab">Lab</label>
          <input id="stream-lab" value={lab} onInput={(e) => setLab(e.currentTarget.value)} autocomplete="off" />
        </div>
        <div class="field">
          <label for="stream-name">Stream</label>
          <input id="stream-name" value={name} onInput={(e) => setName(e.currentTarget.value)} autocomplete="off" />
        </div>
        <div class="buttons">
          <button type="submit">Open stream</button>
        </div>
        {error && (
          <p class="note note-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </>
  );
}
