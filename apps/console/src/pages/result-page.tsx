import type { StoredModelResult, Vote } from '@qdc/client';
import { useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { ConfirmButton } from '../components/confirm-button.js';
import { ErrorNote, Loading } from '../components/error-note.js';
import { OutputView } from '../components/output-view.js';
import { formatBytes, formatTime } from '../format.js';
import { useAsync, useTitle } from '../hooks.js';
import { navigate } from '../router.js';
import { saveZip } from '../save-file.js';

/** One stored result: plot, output, input file; vote (with feedback), download the zip, delete. */
export function ResultPage({ resultId }: { resultId: string }) {
  useTitle('Result');
  const { api, announce } = useApp();
  const result = useAsync((signal) => api.client.results.get(resultId, { signal }), [resultId]);
  const [feedback, setFeedback] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const act = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await what();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const current = result.value;
  const vote = current && 'user_vote' in current ? current.user_vote : null;
  const setVote = (value: Vote | null) =>
    act(async () => {
      if (!current) return;
      if (value === null) await api.client.results.unvote(resultId);
      else await api.client.results.vote(resultId, value, feedback.trim() ? feedback.trim() : undefined);
      result.set({ ...current, user_vote: value } as StoredModelResult);
      announce(value === 1 ? 'Voted up.' : value === -1 ? 'Voted down.' : 'Vote removed.');
    });
  const download = (event: Event) => {
    event.preventDefault();
    act(async () => {
      saveZip(await api.client.results.download(resultId), `model-result-${resultId}.zip`);
      announce('Download started.');
    });
  };
  const remove = () =>
    act(async () => {
      await api.client.results.delete(resultId);
      announce('Result deleted.');
      navigate('/results');
    });

  const output = current?.output as Record<string, unknown> | undefined;
  const plot = typeof output?.plot === 'string' && output.plot.startsWith('data:image/') ? output.plot : undefined;
  return (
    <>
      <p class="breadcrumb">
        <a href="/results">← Back to the list</a>
      </p>
      <h1 tabIndex={-1}>{current ? `Result of ${current.model}` : 'Result'}</h1>
      {result.loading && <Loading what="the result" />}
      <ErrorNote error={result.error} context="Could not load the result" />
      {current && output && (
        <>
          <dl class="facts">
            <dt>Result id</dt>
            <dd>
              <code>{current.id}</code>
            </dd>
            <dt>Model</dt>
            <dd>{current.model}</dd>
            <dt>Created</dt>
            <dd>
              <time dateTime={current.created_at}>{formatTime(current.created_at)}</time>
            </dd>
            <dt>Input</dt>
            <dd>
              {current.input_file_name}
              {'input_file_size' in current
                ? ` (${formatBytes(current.input_file_size)}, ${current.input_file_size} bytes)`
                : ` (batch of ${current.batch_size})`}
            </dd>
          </dl>
          {plot && <img class="plot" src={plot} alt={`Plot of ${current.model} on ${current.input_file_name}, with its detections drawn`} />}
          <OutputView output={output} />
          <section aria-labelledby="vote-heading" class="panel">
            <h2 id="vote-heading">Your vote</h2>
            {'user_vote' in current ? (
              <>
                <p role="status">
                  {vote === 1 ? 'You voted this result up.' : vote === -1 ? 'You voted this result down.' : 'You have not voted on this result.'}
                </p>
                <div class="field">
                  <label for="vote-feedback">Feedback (optional)</label>
                  <textarea id="vote-feedback" rows={2} maxLength={4000} value={feedback} onInput={(e) => setFeedback(e.currentTarget.value)} />
                </div>
                <div class="buttons">
                  <button type="button" aria-pressed={vote === 1} disabled={busy} onClick={() => setVote(1)}>
                    Vote up
                  </button>
                  <button type="button" aria-pressed={vote === -1} disabled={busy} onClick={() => setVote(-1)}>
                    Vote down
                  </button>
                  {vote !== null && (
                    <button type="button" disabled={busy} onClick={() => setVote(null)}>
                      Remove vote
                    </button>
                  )}
                </div>
              </>
            ) : (
              <p>Batch results take no votes.</p>
            )}
          </section>
          <section aria-labelledby="actions-heading" class="panel">
            <h2 id="actions-heading">Keep or remove</h2>
            <div class="buttons">
              <a
                class="button"
                href={`/v0/control/model-results/${encodeURIComponent(resultId)}/download`}
                download={`model-result-${resultId}.zip`}
                onClick={download}
              >
                Download
              </a>
              <ConfirmButton
                label="Delete"
                question="Delete this result, its votes and its stored input? This cannot be undone."
                onConfirm={remove}
                busy={busy}
              />
            </div>
            <p class="hint">The download is a zip of result.json and the input file under its original name.</p>
          </section>
          <ErrorNote error={error} />
        </>
      )}
    </>
  );
}
