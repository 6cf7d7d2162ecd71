/**
 * Client-side routes (history API). The gateway answers any HTML GET outside /v0, /docs, /health and /metrics with
 * index.html, so each of these paths can be loaded, bookmarked and reloaded directly.
 */
export type Route =
  | { page: 'models' }
  | { page: 'model'; modelId: string }
  | { page: 'results' }
  | { page: 'result'; resultId: string }
  | { page: 'qpus' }
  | { page: 'assistant' }
  | { page: 'lab-streams' }
  | { page: 'lab-stream'; lab: string; name: string }
  | { page: 'admin' }
  | { page: 'not-found'; path: string };

const PATTERNS: [RegExp, (m: string[]) => Route][] = [
  [/^\/(?:models\/?)?$/, () => ({ page: 'models' })],
  [/^\/models\/([^/]+)\/?$/, (m) => ({ page: 'model', modelId: m[1]! })],
  [/^\/results\/?$/, () => ({ page: 'results' })],
  [/^\/results\/([^/]+)\/?$/, (m) => ({ page: 'result', resultId: m[1]! })],
  [/^\/qpus\/?$/, () => ({ page: 'qpus' })],
  [/^\/assistant\/?$/, () => ({ page: 'assistant' })],
  [/^\/lab-streams\/?$/, () => ({ page: 'lab-streams' })],
  [/^\/lab-streams\/([^/]+)\/([^/]+)\/?$/, (m) => ({ page: 'lab-stream', lab: m[1]!, name: m[2]! })],
  [/^\/admin\/?$/, () => ({ page: 'admin' })],
];

/** The route of a path (without query or hash); path segments are percent-decoded. */
export function matchRoute(pathname: string): Route {
  for (const [pattern, build] of PATTERNS) {
    const m = pattern.exec(pathname);
    if (!m) continue;
    try {
      return build(m.map((part) => (part === undefined ? part : decodeURIComponent(part))));
    } catch {
      break; // a malformed percent escape
    }
  }
  return { page: 'not-found', path: pathname };
}

/** The top-level section a route belongs to (the navigation link marked current). */
export function sectionOf(route: Route): string | undefined {
  switch (route.page) {
    case 'models':
    case 'model':
      return 'models';
    case 'results':
    case 'result':
      return 'results';
    case 'lab-streams':
    case 'lab-stream':
      return 'lab-streams';
    case 'not-found':
      return undefined;
    default:
      return route.page;
  }
}

/** Builds a path from segments, each percent-encoded. */
export function pathOf(...segments: string[]): string {
  return `/${segments.map(encodeURIComponent).join('/')}`;
}

const NAVIGATE_EVENT = 'qdc:navigate';

/** Goes to a path of the console without reloading (pushes a history entry, or replaces the current one). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** Calls `listener` after every navigation (links, back/forward). Returns the unsubscribe function. */
export function onNavigate(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(NAVIGATE_EVENT, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(NAVIGATE_EVENT, listener);
  };
}
