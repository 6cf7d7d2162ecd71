import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { ErrorNote, Loading } from '../components/error-note.js';
import { formatTime, outputSummary } from '../format.js';
import { useAsync, useTitle } from '../hooks.js';
import { navigate, pathOf } from '../router.js';

const PAGE_SIZE = 25;

interface ResultsQuery {
  model: string;
  from: string;
  to: string;
  page: number;
}

function readQuery(): ResultsQuery {
  const q = new URLSearchParams(location.search);
  const page = Number(q.get('page') ?? '1');
  return { model: q.get('model') ?? '', from: q.get('from') ?? '', to: q.get('to') ?? '', page: Number.isInteger(page) && page >= 1 ? page : 1 };
}

function queryPath(q: ResultsQuery): string {
  const params = new URLSearchParams();
  if (q.model) params.set('model', q.model);
  if (q.from) params.set('from', q.from);
  if (q.to) params.set('to', q.to);
  if (q.page > 1) params.set('page', String(q.page));
  const search = params.toString();
  return `/results${search ? `?${search}` : ''}`;
}

/** The caller's results, newest first: filtered by model and date range (in the URL, so a view can be shared), paged. */
export function ResultsPage() {
  useTitle('Results');
  const { api } = useApp();
  const query = readQuery();
  const [draft, setDraft] = useState(query);
  // The form follows the URL when it changes from outside (back/forward).
  useEffect(() => setDraft(query), [query.model, query.from, query.to]);
  const models = useAsync((signal) => api.client.models.list({ limit: 1000 }, { signal }), []);
  const results = useAsync(
    (signal) =>
      api.client.results.list(
        {
          skip: (query.page - 1) * PAGE_SIZE,
          limit: PAGE_SIZE + 1, // one more than shown: is there a next page?
          model_str_id: query.model || undefined,
          start_date: query.from || undefined,
          end_date: query.to || undefined,
        },
        { signal },
      ),
    [query.model, query.from, query.to, query.page],
  );
  const rows = results.value?.slice(0, PAGE_SIZE) ?? [];
  const hasNext = (results.value?.length ?? 0) > PAGE_SIZE;
  const filtered = Boolean(query.model || query.from || query.to);

  const apply = (event: Event) => {
    event.preventDefault();
    navigate(queryPath({ ...draft, page: 1 }));
  };
  const goTo = (page: number) => navigate(queryPath({ ...query, page }));

  return (
    <>
      <h1 tabIndex={-1}>Results</h1>
      <form class="filters" onSubmit={apply} aria-label="Filter results">
        <div class="field">
          <label for="filter-model">Model</label>
          {models.value ? (
            <select id="filter-model" value={draft.model} onChange={(e) => setDraft({ ...draft, model: e.currentTarget.value })}>
              <option value="">All models</option>
              {models.value.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.id}
                </option>
              ))}
            </select>
          ) : (
            <input id="filter-model" value={draft.model} onInput={(e) => setDraft({ ...draft, model: e.currentTarget.value })} />
          )}
        </div>
        <div class="field">
          <label for="filter-from">From</label>
          <input
            id="filter-from"
            type="date"
            value={draft.from}
            max={draft.to || undefined}
            onInput={(e) => setDraft({ ...draft, from: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for="filter-to">To</label>
          <input id="filter-to" type="date" value={draft.to} min={draft.from || undefined} onInput={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
        </div>
        <div class="buttons">
          <button type="submit">Apply filters</button>
          {filtered && (
            <button type="button" onClick={() => navigate('/results')}>
              Clear filters
            </button>
          )}
        </div>
      </form>
      {results.loading && <Loading what="results" />}
      <ErrorNote error={results.error} context="Could not load the results" />
      {results.value && rows.length === 0 && <p>{filtered ? 'No results match these filters.' : 'No results yet: run a model from the Models page.'}</p>}
      {rows.length > 0 && (
        <div class="table-scroll">
          <table>
            <caption>
              Results {(query.page - 1) * PAGE_SIZE + 1}–{(query.page - 1) * PAGE_SIZE + rows.length}
              {filtered ? ' (filtered)' : ''}, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Model</th>
                <th scope="col">Output</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <time dateTime={r.created_at}>{formatTime(r.created_at)}</time>
                  </td>
                  <td>{r.model}</td>
                  <td class="summary">{outputSummary(r.output)}</td>
                  <td>
                    <a href={pathOf('results', r.id)}>
                      <code>{r.id.slice(0, 8)}</code>
                      <span class="visually-hidden"> (result {r.id})</span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {(query.page > 1 || hasNext) && (
        <nav class="pagination" aria-label="Pages of results">
          <button type="button" onClick={() => goTo(query.page - 1)} disabled={query.page <= 1}>
            Previous page
          </button>
          <span aria-current="page">Page {query.page}</span>
          <button type="button" onClick={() => goTo(query.page + 1)} disabled={!hasNext}>
            Next page
          </button>
        </nav>
      )}
    </>
  );
}
