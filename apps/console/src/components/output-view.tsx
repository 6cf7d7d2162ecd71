import { formatValue, outputFields } from '../format.js';

/** A model's output: each field in words, then the whole JSON (without the plot) to read or select. */
export function OutputView({ output }: { output: Record<string, unknown> }) {
  const fields = outputFields(output);
  const json = JSON.stringify(Object.fromEntries(fields), null, 2);
  return (
    <div class="output">
      <h3>Output</h3>
      {fields.length === 0 ? (
        <p>No fields.</p>
      ) : (
        <dl class="facts">
          {fields.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{formatValue(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      <details>
        <summary>Output as JSON</summary>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be reachable by keyboard (WCAG 2.1.1) */}
        <pre class="json" tabIndex={0}>
          {json.length > 100_000 ? `${json.slice(0, 100_000)}\n… (${json.length} characters; download the result for all of it)` : json}
        </pre>
      </details>
    </div>
  );
}
