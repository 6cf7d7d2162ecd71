import { useEffect, useRef, useState } from 'preact/hooks';
import { probeKey } from '../api/console-api.js';
import { useTitle } from '../hooks.js';
import type { StoredSession } from '../session.js';

/** Sign-in with an API key: checked against the server (and its admin scope found) before the console opens. */
export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: (session: StoredSession) => void }) {
  useTitle('Sign in');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [checking, setChecking] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const key = token.trim();
    if (!key) {
      setError('Enter an API key.');
      input.current?.focus();
      return;
    }
    setChecking(true);
    setError(undefined);
    const probe = await probeKey(key);
    setChecking(false);
    if (probe.ok) onSignedIn({ token: key, admin: probe.admin });
    else {
      setError(probe.message);
      input.current?.focus();
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>Sign in</h1>
      {notice && (
        <p class="note note-warning" role="alert">
          {notice}
        </p>
      )}
      <form onSubmit={submit} aria-describedby="key-help" noValidate>
        <label for="api-key">API key</label>
        <input
          ref={input}
          id="api-key"
          name="api-key"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-errormessage={error ? 'key-error' : undefined}
        />
        <button type="submit" disabled={checking}>
          Sign in
        </button>
        {checking && (
          <p class="note" role="status">
            Checking the key…
          </p>
        )}
        {error && (
          <p id="key-error" class="note note-error" role="alert">
            {error}
          </p>
        )}
      </form>
      <p id="key-help" class="hint">
        A key looks like <code>coda_…</code>. An administrator creates one with <code>npm run qdc -- keys create --name you --scopes control,coda</code>. The
        key is kept only in this tab (sessionStorage) and forgotten when the tab closes or you sign out.
      </p>
    </main>
  );
}
