import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createConsoleApi, probeKey } from './api/console-api.js';
import { AppContext, type AppContextValue } from './app-context.js';
import { AdminPage } from './pages/admin-page.js';
import { AssistantPage } from './pages/assistant-page.js';
import { LabStreamPage } from './pages/lab-stream-page.js';
import { LabStreamsPage } from './pages/lab-streams-page.js';
import { ModelPage } from './pages/model-page.js';
import { ModelsPage } from './pages/models-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { QpusPage } from './pages/qpus-page.js';
import { ResultPage } from './pages/result-page.js';
import { ResultsPage } from './pages/results-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { matchRoute, navigate, onNavigate, sectionOf, type Route } from './router.js';
import { clearSession, keyHint, loadSession, saveSession, type StoredSession } from './session.js';
import { applyTheme, storeTheme, storedTheme, systemPrefersDark, type ThemeChoice } from './theme.js';

const SECTIONS = [
  { id: 'models', href: '/models', name: 'Models' },
  { id: 'results', href: '/results', name: 'Results' },
  { id: 'qpus', href: '/qpus', name: 'QPUs' },
  { id: 'assistant', href: '/assistant', name: 'Assistant' },
  { id: 'lab-streams', href: '/lab-streams', name: 'Lab streams' },
  { id: 'admin', href: '/admin', name: 'Admin', admin: true },
] as const;

const REVOKED_NOTICE = 'You were signed out: the server no longer accepts this API key (revoked or unknown). Sign in with a valid key.';

/** A link click that the console handles itself (same origin, a console path, no modifier, no download). */
function consoleLinkTarget(event: MouseEvent): string | undefined {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return undefined;
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return undefined;
  // An in-page link (the skip link) is the browser's to follow.
  if (anchor.hash && anchor.pathname === location.pathname) return undefined;
  if (/^\/(v0|docs|health|metrics)(\/|$)/.test(anchor.pathname)) return undefined;
  return anchor.pathname + anchor.search;
}

export function App() {
  const [session, setSession] = useState<StoredSession | undefined>(() => loadSession());
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [route, setRoute] = useState<Route>(() => matchRoute(location.pathname));
  const [theme, setTheme] = useState<ThemeChoice>(() => storedTheme());
  const [systemDark, setSystemDark] = useState(() => systemPrefersDark());
  const [announcement, setAnnouncement] = useState('');
  const firstRoute = useRef(true);

  const signOut = useCallback((message?: string) => {
    clearSession();
    setSession(undefined);
    setNotice(message);
  }, []);

  // A new page only when the path or query changed: a fragment (the skip link's #main) is not a navigation.
  const shownAt = useRef(location.pathname + location.search);
  useEffect(
    () =>
      onNavigate(() => {
        const at = location.pathname + location.search;
        if (at === shownAt.current) return;
        shownAt.current = at;
        setRoute(matchRoute(location.pathname));
      }),
    [],
  );

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const to = consoleLinkTarget(event);
      if (to === undefined) return;
      event.preventDefault();
      navigate(to);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, []);

  // After a navigation (not the first load), focus goes to the new page's heading, as a full page load would.
  useEffect(() => {
    if (firstRoute.current) {
      firstRoute.current = false;
      return;
    }
    requestAnimationFrame(() => document.querySelector<HTMLElement>('main h1')?.focus());
  }, [route]);

  useEffect(() => {
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    const onChange = () => setSystemDark(media.matches);
    media?.addEventListener('change', onChange);
    return () => media?.removeEventListener('change', onChange);
  }, []);
  const dark = theme ? theme === 'dark' : systemDark;
  const toggleTheme = () => {
    const next: ThemeChoice = dark ? 'light' : 'dark';
    setTheme(next);
    storeTheme(next);
    applyTheme(next);
  };

  // A reloaded tab checks its stored key again: a key revoked meanwhile signs out at once.
  useEffect(() => {
    if (!session) return;
    probeKey(session.token).then((probe) => {
      if (probe.ok) {
        if (probe.admin !== session.admin) {
          const updated = { ...session, admin: probe.admin };
          saveSession(updated);
          setSession(updated);
        }
      } else if (/not accepted/.test(probe.message)) signOut(REVOKED_NOTICE);
    });
  }, []);

  const announce = useCallback((message: string) => {
    // Cleared first so the same message twice is announced twice.
    setAnnouncement('');
    setTimeout(() => setAnnouncement(message), 50);
  }, []);

  const token = session?.token;
  const api = useMemo(() => (token ? createConsoleApi(token, () => signOut(REVOKED_NOTICE)) : undefined), [token, signOut]);
  const context: AppContextValue | undefined = useMemo(
    () => (api && session ? { api, admin: session.admin, dark, announce } : undefined),
    [api, session, dark, announce],
  );

  const themeToggle = (
    <button type="button" class="theme-toggle" aria-pressed={dark} onClick={toggleTheme}>
      Dark mode
    </button>
  );

  if (!session || !context) {
    return (
      <>
        <header class="site-header">
          <span class="brand">QDC console</span>
          <div class="session">{themeToggle}</div>
        </header>
        <SignInPage
          notice={notice}
          onSignedIn={(signedIn) => {
            saveSession(signedIn);
            setNotice(undefined);
            setSession(signedIn);
          }}
        />
        <LiveRegion text={announcement} />
      </>
    );
  }

  const section = sectionOf(route);
  return (
    <AppContext.Provider value={context}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <a class="brand" href="/models">
          QDC console
        </a>
        <nav aria-label="Main">
          <ul>
            {SECTIONS.filter((s) => !('admin' in s) || session.admin).map((s) => (
              <li key={s.id}>
                <a href={s.href} aria-current={section === s.id ? 'page' : undefined}>
                  {s.name}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="session">
          {themeToggle}
          <span class="key-hint" title="The API key this tab is signed in with">
            Key {keyHint(session.token)}
            {session.admin ? ' (admin)' : ''}
          </span>
          <button type="button" onClick={() => signOut('You signed out.')}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} admin={session.admin} />
      </main>
      <footer class="site-footer">
        <a href="/docs">API documentation</a>
      </footer>
      <LiveRegion text={announcement} />
    </AppContext.Provider>
  );
}

function Page({ route, admin }: { route: Route; admin: boolean }) {
  switch (route.page) {
    case 'models':
      return <ModelsPage />;
    case 'model':
      return <ModelPage key={route.modelId} modelId={route.modelId} />;
    case 'results':
      return <ResultsPage />;
    case 'result':
      return <ResultPage key={route.resultId} resultId={route.resultId} />;
    case 'qpus':
      return <QpusPage />;
    case 'assistant':
      return <AssistantPage />;
    case 'lab-streams':
      return <LabStreamsPage />;
    case 'lab-stream':
      return <LabStreamPage key={`${route.lab}/${route.name}`} lab={route.lab} name={route.name} />;
    case 'admin':
      return admin ? <AdminPage /> : <NotFoundPage path="/admin" reason="The Admin page needs an API key with the admin scope." />;
    default:
      return <NotFoundPage path={route.path} />;
  }
}

function LiveRegion({ text }: { text: string }) {
  return (
    <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {text}
    </div>
  );
}
