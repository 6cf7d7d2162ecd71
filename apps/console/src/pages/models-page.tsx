import { useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { ErrorNote, Loading } from '../components/error-note.js';
import { useAsync, useTitle } from '../hooks.js';
import { pathOf } from '../router.js';

/** The catalogue: every model the server runs, with its input shape; a model's id opens its run form. */
export function ModelsPage() {
  useTitle('Models');
  const { api } = useApp();
  const models = useAsync((signal) => api.client.models.list({ limit: 1000 }, { signal }), []);
  const [filter, setFilter] = useState('');
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = (models.value ?? []).filter((m) => words.every((w) => `${m.id} ${m.description}`.toLowerCase().includes(w)));
  return (
    <>
      <h1 tabIndex={-1}>Models</h1>
      <p>Choose a model to run it on a measurement (.npy or .pt). Every run is stored under Results.</p>
      <div class="toolbar">
        <label for="model-filter">Filter models</label>
        <input id="model-filter" type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      </div>
      {models.loading && <Loading what="the models" />}
      <ErrorNote error={models.error} context="Could not load the models" />
      {models.value && (
        <div class="table-scroll">
          <table>
            <caption>
              {shown.length} of {models.value.length} models
            </caption>
            <thead>
              <tr>
                <th scope="col">Model</th>
                <th scope="col">Description</th>
                <th scope="col">Input shape</th>
                <th scope="col" class="numeric">
                  Runs
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((m) => (
                <tr key={m.id}>
                  <th scope="row">
                    <a href={pathOf('models', m.id)}>{m.id}</a>
                  </th>
                  <td>{m.description}</td>
                  <td>{m.input_shape_requirements}</td>
                  <td class="numeric">{m.number_of_runs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
