import { useApp } from '../app-context.js';
import { highlight, languageOf } from '../text/highlight.js';

const LANGUAGE_NAMES = { python: 'Python', qasm: 'OpenQASM', plain: 'Code' } as const;

/** Writes text to the clipboard; where the async Clipboard API is missing (plain http on a LAN), through a selection. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused to copy');
}

/** A highlighted code block with a Copy button (which copies the source, not the markup). */
export function CodeBlock({ code, info, title, streaming = false }: { code: string; info: string; title?: string; streaming?: boolean }) {
  const { announce } = useApp();
  const language = languageOf(info, code);
  const caption = title ?? (info.trim() ? info.trim().split(/\s+/)[0] : LANGUAGE_NAMES[language]);
  const copy = () =>
    copyText(code).then(
      () => announce('Code copied to the clipboard.'),
      (error: Error) => announce(`Could not copy: ${error.message}`),
    );
  return (
    <figure class="code-block" aria-busy={streaming}>
      <figcaption>
        <span>{caption}</span>
        <button type="button" class="small" onClick={copy} disabled={streaming}>
          Copy
        </button>
      </figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable block must be reachable by keyboard (WCAG 2.1.1) */}
      <pre tabIndex={0}>
        <code class={`language-${language}`}>
          {highlight(code, language).map((token, i) => (
            <span key={i} class={`tok-${token.kind}`}>
              {token.text}
            </span>
          ))}
        </code>
      </pre>
    </figure>
  );
}
