/**
 * The web console (apps/console, served by the gateway at /) in a real headless Chromium (Debian's, driven by
 * playwright-core; no browser download) against the real stack: one test per page's main flow, in the order a new
 * user would go. Each page's screenshot is saved under bench/out/console/ (gitignored). The page must never break
 * its CSP (no inline script or style): any violation or page error fails the run.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import { unzipSync } from 'fflate';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import puppeteer, { type Browser as FirefoxBrowser } from 'puppeteer-core';
import { encodeNpy } from '#qdc/arrays';
import { labFrameStream, labStreamSubjects } from '#qdc/contracts';
import { generateCoulombPeakTrace, generatePinchOffTrace } from '#qdc/device-physics';
import { addLab } from '#qdc/lab';
import { BELL_QISKIT, writeTestDevices } from './qpu.fixtures.js';
import { postSse } from './sse-client.js';
import { startSystem, type TestSystem } from './system.harness.js';

// The functions given to page.evaluate run in the page; this spec compiles with Node's types, so the page globals
// they touch are declared here (module scope).
declare const document: {
  body: { textContent: string | null };
  activeElement: { textContent: string | null; id: string; tagName: string } | null;
  documentElement: { dataset: Record<string, string | undefined> };
  querySelector(selector: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): { length: number };
};
declare const getComputedStyle: (element: unknown) => { backgroundColor: string };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const axe: {
  run(context: unknown, options: unknown): Promise<{ passes: unknown[]; violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
};

const CHROMIUM = process.env.QDC_CHROMIUM ?? '/usr/bin/chromium';
/** Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core (playwright-core drives only its own Firefox build). */
const FIREFOX = process.env.QDC_FIREFOX ?? '/usr/bin/firefox-esr';
/** The flags the machine notes give for Debian's Chromium here: no sandbox as root, and no calls home (refused on a closed network). */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SHOTS_DIR = 'bench/out/console';
const MODEL = 'coulomb-blockade-peak-detector-v2';
const LAB = 'lab-c';
const STREAM = 'sweep';

let sut: TestSystem;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let key: string;
let admin: string;
const problems: string[] = [];
const apiRequests: string[] = [];

const api = (path: string, token: string, init: RequestInit = {}) =>
  fetch(`${sut.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) } });
/** axe-core's rules for WCAG 2.1 A and AA (labels, names, contrast, landmarks, ARIA use), run in the page. */
const AXE_SOURCE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

/** Saves the page's screenshot, and checks the page as it is now with axe-core: no WCAG 2.1 A/AA violation. */
async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage: true });
  await page.evaluate(AXE_SOURCE); // evaluated by the driver, not by the page, so the page's CSP does not apply
  const { passed, violations } = await page.evaluate(async () => {
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return {
      passed: result.passes.length,
      violations: result.violations.map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    };
  });
  expect({ page: name, violations }).toEqual({ page: name, violations: [] });
  expect(passed).toBeGreaterThan(10); // the rules ran
}
/** As a user (or another test) would find a page: by the link's accessible name, nothing more specific. */
const nav = (name: string) => page.getByRole('link', { name });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run installs it), or set QDC_CHROMIUM`);
  mkdirSync(SHOTS_DIR, { recursive: true });
  const devices = writeTestDevices([{ id: 'console-bell', shotTimeUs: 2000, qubits: 2 }]);
  // Lab credentials are managed in a directory of their own (the shared nats-server does not include its auth.conf).
  const natsAuthDir = mkdtempSync(join(tmpdir(), 'qdc-console-nats-auth-'));
  sut = await startSystem({ env: { QDC_QPU_DEVICES_DIR: devices, QDC_QPU_TIME_SCALE: '1', QDC_NATS_AUTH_DIR: natsAuthDir } });
  addLab(natsAuthDir, sut.namespace, 'first-lab'); // what `qdc lab add` does once: the services user
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  // The session's key owns lab-c's streams (a lab's results belong to the owner named as the lab) and is admin.
  [key, admin] = await Promise.all([sut.createKey(LAB, 'control,coda,admin'), sut.createKey('ops', 'admin')]);
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 }, baseURL: sut.baseUrl });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sut.baseUrl });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 40[134]/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v0/')) apiRequests.push(`${request.method()} ${url.pathname}`);
  });
}, 150_000);

afterAll(async () => {
  await browser?.close();
  await sut?.stop();
});

afterEach(() => {
  // Every page stays within `default-src 'self'` (a violation is reported on the console) and throws nothing.
  expect(problems).toEqual([]);
});

describe('web console in Chromium', () => {
  it('signs in with an API key kept in sessionStorage only, and lists the pages by name', async () => {
    const response = await page.goto('/');
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.getByLabel('API key').fill('coda_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not accepted');
    await screenshot('sign-in');

    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    for (const name of ['Models', 'Results', 'QPUs', 'Assistant', 'Lab streams', 'Admin']) await nav(name).waitFor();
    expect(
      await page.evaluate(() => [
        Object.keys(localStorage).filter((k) => localStorage.getItem(k)?.startsWith('coda_')),
        sessionStorage.getItem('qdc.console.apiKey'),
      ]),
    ).toEqual([[], key]);
  });

  it('Models: runs the peak detector on an uploaded .npy, shows the plot, votes, downloads, and finds it in Results', async () => {
    await nav('Models').click();
    await page.getByRole('link', { name: MODEL, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: MODEL }).waitFor();
    const trace = generateCoulombPeakTrace(11, { length: 128 });
    await page
      .getByLabel('Data')
      .setInputFiles({ name: 'sweep-11.npy', mimeType: 'application/octet-stream', buffer: Buffer.from(encodeNpy({ shape: [128], data: trace.trace })) });
    expect(await page.getByLabel('Plot').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Run' }).click();
    const plot = page.getByRole('img', { name: new RegExp(MODEL) });
    await plot.waitFor({ timeout: 60_000 });
    expect(await plot.evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 100)).toBe(true);
    await expect(page.getByText('peak_indices').first().isVisible()).resolves.toBe(true);
    await screenshot('models');

    await page.getByRole('link', { name: 'Open the stored result' }).click();
    const resultId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    await page.getByRole('img', { name: new RegExp(MODEL) }).waitFor();
    await page.getByLabel('Feedback (optional)').fill('peaks look right');
    await page.getByRole('button', { name: 'Vote up' }).click();
    await page.waitForFunction(() => document.querySelector('button[aria-pressed="true"]')?.textContent === 'Vote up');
    const stored = (await (await api(`/v0/model-results/${resultId}`, key)).json()) as { user_vote: number; input_file_name: string };
    expect(stored).toMatchObject({ user_vote: 1, input_file_name: 'sweep-11.npy' });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download' }).click()]);
    const zip = unzipSync(new Uint8Array(readFileSync(await download.path())));
    expect(Object.keys(zip).sort()).toEqual(['result.json', 'sweep-11.npy']);
    await screenshot('result');

    await nav('Results').click();
    // The filter is a text field until the catalogue has loaded, then a select (role combobox): wait for the select.
    await page.getByRole('combobox', { name: 'Model' }).selectOption(MODEL);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: `${resultId.slice(0, 8)} (result ${resultId})` }).waitFor();
    expect(new URL(page.url()).search).toBe(`?model=${MODEL}`);
    await screenshot('results');

    // Delete asks first (the same name confirms), then the result is gone.
    await page.getByRole('link', { name: `${resultId.slice(0, 8)} (result ${resultId})` }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').waitFor();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/results$/);
    expect((await api(`/v0/model-results/${resultId}`, key)).status).toBe(404);
  });

  it('QPUs: submits a Bell circuit, watches it complete by server push (no polling), and shows the histogram', async () => {
    await nav('QPUs').click();
    await page.getByRole('img', { name: /Coupling map of Test device console-bell/ }).waitFor();
    await page.getByLabel('Circuit').fill(BELL_QISKIT);
    await page.getByLabel('Device').selectOption('console-bell');
    await page.getByLabel('Shots').fill('200');
    await page.getByRole('button', { name: 'Estimate cost' }).click();
    await page.getByText(/Estimated cost: \$/).waitFor();
    const before = apiRequests.length;
    await page.getByRole('button', { name: 'Submit' }).click();
    const histogram = page.getByRole('img', { name: 'Results histogram' });
    await histogram.waitFor({ timeout: 60_000 });
    const detail = page.getByRole('region', { name: /^Job / });
    await expect(detail.getByText('completed').first().isVisible()).resolves.toBe(true);
    const counts = await detail
      .locator('table tbody tr')
      .evaluateAll((rows) => rows.map((r) => [r.querySelector('th')?.textContent, Number(r.querySelector('td')?.textContent)]));
    expect(counts.map(([bits]) => bits).sort()).toEqual(['00', '11']);
    expect(counts.reduce((sum, [, n]) => sum + Number(n), 0)).toBe(200);
    // The states came by push: one events stream, and the job read once after submit and once at its end.
    const during = apiRequests.slice(before);
    expect(during.filter((r) => /\/qpus\/jobs\/[^/]+\/events$/.test(r))).toHaveLength(1);
    expect(during.filter((r) => r.endsWith('/qpus/status')).length).toBeLessThanOrEqual(2);
    await screenshot('qpus');
  });

  it('Assistant: a Bell-state question streams a highlighted Qiskit code block with Copy; a run left mid-answer resumes with Last-Event-ID', async () => {
    await nav('Assistant').click();
    await page.getByLabel('Message').fill('Write a Bell state circuit in Qiskit');
    await page.getByRole('button', { name: 'Send' }).click();
    const code = page.locator('figure.code-block code.language-python').first();
    await code.waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor({ timeout: 60_000 });
    expect(await code.textContent()).toMatch(/QuantumCircuit\(/);
    expect(await code.locator('span.tok-keyword').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Copy' }).first().click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.textContent());
    await screenshot('assistant');

    // A run whose page went away after its first token: the console kept the request and the last event id in
    // sessionStorage (written here from another page, as the Assistant page's own pagehide flush would have);
    // opening the page again asks only for what came after that event.
    const run = await postSse(`${sut.baseUrl}/v0/coda/agents`, key, { messages: [{ role: 'user', content: 'Make a GHZ state on 3 qubits in Qiskit' }] });
    const tokens = run.frames.filter((f) => f.event?.type === 'token');
    expect(tokens.length).toBeGreaterThan(1);
    const whole = tokens.map((f) => f.event!.content as string).join('');
    const body = { messages: [{ role: 'user', content: 'Make a GHZ state on 3 qubits in Qiskit' }] };
    await nav('Models').click();
    await page.evaluate(
      ([first, firstId, request]) => {
        const thread = {
          id: 'resumed',
          title: 'GHZ',
          updatedAt: new Date().toISOString(),
          messages: [
            { role: 'user', content: 'Make a GHZ state on 3 qubits in Qiskit' },
            { role: 'assistant', content: first, state: 'streaming' },
          ],
        };
        sessionStorage.setItem(
          'qdc.console.assistant',
          JSON.stringify({ threads: [thread], pending: { threadId: 'resumed', body: request, lastEventId: firstId } }),
        );
      },
      [tokens[0]!.event!.content as string, tokens[0]!.id!, body] as const,
    );
    const resumed = page.waitForRequest((r) => r.url().endsWith('/v0/coda/agents') && r.headers()['last-event-id'] === tokens[0]!.id);
    await page.goto('/assistant');
    await resumed;
    await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor({ timeout: 30_000 });
    const answer = await page.locator('.message-assistant').last().locator('code.language-python').first().textContent();
    expect(whole).toContain(answer!.trim());
  });

  it('Admin + Lab streams: declares a stream, and frames published by an instrument appear live with their results, refused ones marked', async () => {
    await nav('Admin').click();
    await page.getByLabel('Lab', { exact: true }).fill(LAB);
    await page.getByLabel('Stream name').fill(STREAM);
    await page.getByLabel('Models').selectOption(['pinch-off-classifier-v0']);
    await page.getByRole('button', { name: 'Declare stream' }).click();
    await page.getByRole('link', { name: `${LAB}/${STREAM}` }).waitFor();
    await screenshot('admin');

    const nc: NatsConnection = await connect({ servers: sut.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
    try {
      const js: JetStreamClient = jetstream(nc);
      const jsm = await jetstreamManager(nc);
      for (const deadline = Date.now() + 30_000; ; ) {
        const info = await jsm.consumers.info(labFrameStream(sut.namespace, LAB, STREAM), 'analyser').catch(() => null);
        if (info && info.num_waiting > 0) break;
        if (Date.now() > deadline) throw new Error(`the stream's consumer never pulled; logs in ${sut.logDir}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await nav('Lab streams').click();
      await page.getByRole('link', { name: `${LAB}/${STREAM}` }).click();
      await page.getByText('Live', { exact: true }).waitFor({ timeout: 30_000 });
      const publish = (id: string, body: unknown) => {
        const h = natsHeaders();
        h.set('Nats-Msg-Id', id);
        return js.publish(labStreamSubjects(sut.namespace, LAB, STREAM).frames, JSON.stringify(body), { headers: h });
      };
      for (let i = 0; i < 5; i++) {
        await publish(`f${i}`, { frame_id: `f${i}`, data: Array.from(generatePinchOffTrace(100 + i, { length: 100 }).trace) });
        await new Promise((r) => setTimeout(r, 200));
      }
      await publish('bad', { frame_id: 'bad', data: 'not an array' });
      const frames = page
        .getByRole('list', { name: /frames, newest first/ })
        .getByRole('listitem')
        .filter({ hasText: /^Frame / });
      await page.getByText('Frame bad').waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => document.querySelectorAll('ol.frames > li').length === 6, undefined, { timeout: 60_000 });
      expect(await frames.count()).toBe(6);
      expect(await page.locator('li.frame-error').textContent()).toContain('Refused (invalid_input)');
      expect(await page.locator('ol.frames > li:not(.frame-error)').first().textContent()).toContain('pinch-off-classifier-v0');
      // The newest frames are plotted (their input read back from the stored result) beside the model's answer.
      await page
        .getByRole('img', { name: /^Frame f4: 100 points/ })
        .first()
        .waitFor({ timeout: 30_000 });
      await screenshot('lab-stream');
    } finally {
      await nc.drain();
    }
    await nav('Lab streams').click();
    await screenshot('lab-streams');
  });

  it('Admin › Lab credentials: issues a lab’s credentials shown once with Copy, lists them, revokes them after confirmation', async () => {
    await nav('Admin').click();
    await page.getByRole('row', { name: /first-lab/ }).waitFor();
    await page.getByLabel('Lab id').fill('console-lab');
    await page.getByRole('button', { name: 'Create credentials' }).click();
    const shown = page.getByRole('status').filter({ hasText: 'Credentials of lab console-lab were issued' });
    await shown.waitFor();
    expect(await shown.locator('code').last().textContent()).toMatch(/"nkey_seed": "SU[A-Z0-9]+"/);
    await page.getByRole('button', { name: 'Copy credentials' }).click();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toMatchObject({ lab: 'console-lab', namespace: sut.namespace });
    await page.getByRole('row', { name: /console-lab/ }).waitFor();
    await screenshot('admin-lab-credentials');
    await page.getByRole('button', { name: 'Revoke credentials of console-lab' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke credentials of console-lab' }).click();
    await page.getByRole('row', { name: /console-lab/ }).waitFor({ state: 'detached' });
    expect(await shown.count()).toBe(0); // the seed is gone from the page with the revoked credentials
    expect(((await (await api('/v0/admin/lab-credentials', admin)).json()) as { lab: string }[]).map((c) => c.lab)).toEqual(['first-lab']);
  });

  it('keyboard: the skip link reaches the content, and focus moves to the new page’s heading after a navigation', async () => {
    await page.goto('/models');
    await page.getByRole('heading', { level: 1, name: 'Models' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await nav('QPUs').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'QPUs');
  });

  it('dark mode: the toggle switches the theme and the choice survives a reload', async () => {
    await nav('QPUs').click();
    await page.getByRole('button', { name: 'Dark mode' }).click();
    expect(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed')).toBe('true');
    await page.reload();
    expect(await page.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.documentElement).backgroundColor])).toEqual([
      'dark',
      'rgb(15, 20, 25)',
    ]);
    await screenshot('qpus-dark');
    await page.getByRole('button', { name: 'Dark mode' }).click();
  });

  it('a revoked key signs the session out at its next request, with a message', async () => {
    const keys = (await (await api(`/v0/admin/keys?owner=${LAB}`, admin)).json()) as { id: string }[];
    expect(keys).toHaveLength(1);
    expect((await api(`/v0/admin/keys/${keys[0]!.id}`, admin, { method: 'DELETE' })).status).toBe(200);
    await nav('Results').click();
    await page.getByLabel('API key').waitFor();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('no longer accepts this API key');
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('qdc.console.')))).toEqual([]);
    await screenshot('signed-out');
  });
});

/**
 * The same console in Firefox: the main flow of the Models page (sign in, upload, run, plot) and the QPUs page, with no
 * page error and no CSP report. A key of its own (the Chromium run ends by revoking its key).
 */
describe('web console in Firefox', () => {
  let firefox: FirefoxBrowser | undefined;
  afterAll(async () => firefox?.close());

  it('signs in, runs a model on an uploaded .npy and shows its plot, lists the QPUs', async () => {
    if (!existsSync(FIREFOX)) throw new Error(`no Firefox at ${FIREFOX}: apt-get install -y firefox-esr (.ci/run installs it), or set QDC_FIREFOX`);
    const ffKey = await sut.createKey('firefox-lab', 'control,coda');
    firefox = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
    const tab = await firefox.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(`page error: ${(error as Error).message}`));
    tab.on('console', (message) => {
      if (message.type() === 'error' && !/40[134]/.test(message.text())) errors.push(`console: ${message.text()}`);
    });
    const bodyText = () => tab.evaluate(() => document.body.textContent ?? '');
    await tab.goto(`${sut.baseUrl}/`);
    await tab.waitForSelector('input#api-key');
    // CSS and text selectors: puppeteer's ARIA queries need Chrome's accessibility tree (the Chromium run checks the names).
    await tab.type('input#api-key', ffKey);
    await tab.locator('button::-p-text(Sign in)').click();
    // Signed in: the catalogue is listed ("33 of 33 models").
    await tab.waitForFunction(() => /\d+ of \d+ models/.test(document.body.textContent ?? ''), { timeout: 30_000 });

    await tab.goto(`${sut.baseUrl}/models/${MODEL}`);
    const file = join(mkdtempSync(join(tmpdir(), 'qdc-firefox-')), 'sweep-12.npy');
    writeFileSync(file, encodeNpy({ shape: [128], data: generateCoulombPeakTrace(12, { length: 128 }).trace }));
    const data = await tab.waitForSelector('input#data-file');
    await (data as unknown as { uploadFile(path: string): Promise<void> }).uploadFile(file);
    await tab.locator('button::-p-text(Run)').click();
    const plot = await tab.waitForSelector(`img[alt*="${MODEL}"]`, { timeout: 60_000 });
    expect(await plot!.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 100)).toBe(true);
    expect(await bodyText()).toContain('peak_indices');
    await tab.screenshot({ path: join(SHOTS_DIR, 'firefox-models.png') });

    await tab.locator('nav a::-p-text(QPUs)').click();
    await tab.waitForFunction(() => (document.body.textContent ?? '').includes('console-bell'), { timeout: 30_000 });
    expect(errors).toEqual([]);
  });
});
