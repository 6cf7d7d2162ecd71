import { useTitle } from '../hooks.js';

export function NotFoundPage({ path, reason }: { path: string; reason?: string }) {
  useTitle('Not found');
  return (
    <>
      <h1 tabIndex={-1}>Page not found</h1>
      <p>{reason ?? `The console has no page at ${path}.`}</p>
      <p>
        <a href="/models">Go to the catalogue</a>
      </p>
    </>
  );
}
