/**
 * `npm run bench:console` — first load of the web console in Chromium on localhost, against the gateway's own
 * `/docs` page (Swagger UI) loaded the same way in the same run: a private stack (startSystem), Debian's Chromium
 * (playwright-core), a fresh browser context per load (empty cache), the two pages alternated, median of 5 each
 * (BENCH_CONSOLE_RUNS). Times are the Performance API's navigation timing of the page itself (DOMContentLoaded and
 * load event end, from navigation start), plus "ready": when the page shows what it is for — the console's sign-in
 * field or, signed in, the models table; Swagger UI's first operation. Ends with the console's gzipped JS size.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSystem } from '../test/medium/system.harness.js';
import { consoleSize } from './console-size.js';

const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 5);
const CHROMIUM = process.env.QDC_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Load {
  domContentLoadedMs: number;
  loadMs: number;
  readyMs: number;
  transferredBytes: number;
  requests: number;
}

interface Target {
  name: string;
  path: string;
  /** Shown once the page is usable. */
  ready: string;
  /** Before the navigation (e.g. a key in sessionStorage for a signed-in load). */
  prepare?: (page: Page) => Promise<unknown>;
}

/** Navigation timing and the bytes of every response (transfer sizes: compressed, with headers), from the page. */
const TIMING_SCRIPT = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const resources = performance.getEntriesByType('resource');
  return {
    domContentLoadedMs: nav.domContentLoadedEventEnd,
    loadMs: nav.loadEventEnd,
    transferredBytes: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
    requests: 1 + resources.length,
  };
})()`;

/**
 * Runs in the page before its own scripts: notes `performance.now()` when `selector` first matches, from a
 * MutationObserver (called right after the DOM change, so the time is the page's, not the test driver's polling).
 */
function readyProbe(selector: string): string {
  return `(() => {
    const check = () => {
      if (window.__qdcReadyAt === undefined && document.querySelector(${JSON.stringify(selector)})) {
        window.__qdcReadyAt = performance.now();
        observer.disconnect();
      }
    };
    const observer = new MutationObserver(check);
    observer.observe(document, { childList: true, subtree: true });
  })()`;
}

async function firstLoad(browser: Browser, baseUrl: string, target: Target): Promise<Load> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await target.prepare?.(page);
    await page.addInitScript(readyProbe(target.ready));
    await page.goto(target.path, { waitUntil: 'load' });
    // Function predicates, not strings: the console's CSP (no 'unsafe-eval') refuses a string evaluated in the page.
    await page.waitForFunction(() => (globalThis as { __qdcReadyAt?: number }).__qdcReadyAt !== undefined, undefined, { timeout: 30_000 });
    const readyMs = (await page.evaluate('window.__qdcReadyAt')) as number;
    // loadEventEnd is set just after the load event's handlers return.
    await page.waitForFunction(
      () => (performance as unknown as { getEntriesByType(type: string): { loadEventEnd: number }[] }).getEntriesByType('navigation')[0]!.loadEventEnd > 0,
    );
    const timing = (await page.evaluate(TIMING_SCRIPT)) as Omit<Load, 'readyMs'>;
    return { ...timing, readyMs };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(): Promise<void> {
  const size = consoleSize();
  const sut = await startSystem({ env: { LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const key = await sut.createKey('bench-console', 'control,coda');
    const targets: Target[] = [
      { name: 'console /  (sign-in form)', path: '/', ready: '#api-key' },
      {
        name: 'console /models (signed in, catalogue)',
        path: '/models',
        ready: 'main table tbody tr',
        // The key as the sign-in form leaves it, before any script of the page runs.
        prepare: (page) => page.addInitScript(`sessionStorage.setItem('qdc.console.apiKey', ${JSON.stringify(key)})`),
      },
      { name: 'gateway /docs (Swagger UI)', path: '/docs', ready: '.opblock' },
    ];
    // One untimed load of each warms the gateway (routes, first openapi.json), not the browser (new context each time).
    for (const target of targets) await firstLoad(browser, sut.baseUrl, target);
    const loads = new Map<string, Load[]>(targets.map((t) => [t.name, []]));
    for (let run = 0; run < RUNS; run++) for (const target of targets) loads.get(target.name)!.push(await firstLoad(browser, sut.baseUrl, target));

    console.log(`first load on localhost, Chromium ${browser.version()}, fresh context each, median of ${RUNS} (alternating)\n`);
    const header = ['page', 'DOMContentLoaded ms', 'load ms', 'ready ms', 'transferred kB', 'requests'];
    const rows = targets.map((t) => {
      const l = loads.get(t.name)!;
      return [
        t.name,
        median(l.map((x) => x.domContentLoadedMs)).toFixed(0),
        median(l.map((x) => x.loadMs)).toFixed(0),
        median(l.map((x) => x.readyMs)).toFixed(0),
        (median(l.map((x) => x.transferredBytes)) / 1000).toFixed(1),
        String(median(l.map((x) => x.requests))),
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
    for (const row of rows) console.log(line(row));
    console.log(
      `\nconsole JavaScript: ${(size.jsGzipBytes / 1000).toFixed(1)} kB gzipped (${(size.jsBytes / 1000).toFixed(1)} kB raw), CSS ${(size.cssGzipBytes / 1000).toFixed(1)} kB gzipped`,
    );
  } finally {
    await browser.close();
    await sut.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
