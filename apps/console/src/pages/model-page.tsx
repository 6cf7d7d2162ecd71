import type { ModelResult } from '@qdc/client';
import { useRef, useState } from 'preact/hooks';
import { useApp } from '../app-context.js';
import { ErrorNote, Loading } from '../components/error-note.js';
import { OutputView } from '../components/output-view.js';
import { formatBytes, formatTime } from '../format.js';
import { useAsync, useTitle, useUnmountSignal } from '../hooks.js';
import { pathOf } from '../router.js';

/** One model: what it expects, and a form that runs it on an uploaded file and shows the answer with its plot. */
export function ModelPage({ modelId }: { modelId: string }) {
  useTitle(modelId);
  const { api, dark, announce } = useApp();
  const model = useAsync((signal) => api.client.models.get(modelId, { signal }), [modelId]);
  const [file, setFile] = useState<File | undefined>(undefined);
  const [plot, setPlot] = useState(true);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [result, setResult] = useState<ModelResult | undefined>(undefined);
  const answerHeading = useRef<HTMLHeadingElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const signal = useUnmountSignal();

  const run = async (event: Event) => {
    event.preventDefault();
    if (!file) {
      setError(new Error('Choose a .npy or .pt file for Data.'));
      fileInput.current?.focus();
      return;
    }
    setRunning(true);
    setError(undefined);
    setResult(undefined);
    try {
      const answer = await api.client.models.run({ model: modelId, data: file, fileName: file.name, plot, darkMode: plot && dark }, { signal });
      setResult(answer);
      announce(`${modelId} finished.`);
      requestAnimationFrame(() => answerHeading.current?.focus());
    } catch (e) {
      if (!signal.aborted) setError(e);
    } finally {
      if (!signal.aborted) setRunning(false);
    }
  };

  const plotUrl = typeof result?.output.plot === 'string' && result.output.plot.startsWith('data:image/') ? result.output.plot : undefined;
  return (
    <>
      <p class="breadcrumb">
        <a href="/models">← Back to the catalogue</a>
      </p>
      <h1 tabIndex={-1}>{modelId}</h1>
      {model.loading && <Loading what="the model" />}
      <ErrorNote error={model.error} context="Could not load the model" />
      {model.value && (
        <>
          <p>{model.value.description}</p>
          <dl class="facts">
            <dt>Input</dt>
            <dd>{model.value.input_shape_requirements}</dd>
            <dt>Released</dt>
            <dd>{formatTime(model.value.released)}</dd>
            <dt>Runs (all users)</dt>
            <dd>{model.value.number_of_runs}</dd>
          </dl>
        </>
      )}
      <form class="run-form" onSubmit={run} aria-busy={running}>
        <h2>Run</h2>
        <div class="field">
          <label for="data-file">Data</label>
          <input
            ref={fileInput}
            id="data-file"
            name="data"
            type="file"
            accept=".npy,.pt,.pth,application/octet-stream"
            aria-describedby="data-hint"
            onChange={(e) => setFile(e.currentTarget.files?.[0])}
          />
          <p id="data-hint" class="hint">
            A NumPy .npy or PyTorch .pt file holding one array{model.value ? ` (${model.value.input_shape_requirements})` : ''}.
          </p>
        </div>
        <div class="field checkbox">
          <input id="plot" name="plot" type="checkbox" checked={plot} onChange={(e) => setPlot(e.currentTarget.checked)} />
          <label for="plot">Plot</label>
        </div>
        <button type="submit" disabled={running}>
          Run
        </button>
        {running && (
          <p class="note" role="status">
            Running {modelId}…
          </p>
        )}
      </form>
      <ErrorNote error={error} context="The run failed" />
      {result && (
        <section class="answer" aria-labelledby="answer-heading">
          <h2 id="answer-heading" ref={answerHeading} tabIndex={-1}>
            Answer
          </h2>
          <p>
            <a href={pathOf('results', result.id)}>Open the stored result</a> — {result.input_file_name} ({formatBytes(result.input_file_size)}), stored{' '}
            {formatTime(result.created_at)}.
          </p>
          {plotUrl && <img class="plot" src={plotUrl} alt={`Plot of ${result.model} on ${result.input_file_name}, with its detections drawn`} />}
          <OutputView output={result.output} />
        </section>
      )}
    </>
  );
}
