/**
 * The workbench in Chromium: JavaScript loaded before the sign-in page, time to an editable editor, and the
 * delay from a keystroke to the PEL marker in 500- and 2,000-line pipelines, each against a baseline measured
 * in the same run. Builds its own dist and starts its own server on a free port.
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { type BenchReport, median } from '../bench-report';
import { BENCH_ADMIN_PASSWORD } from '../support/bench-constants';
import { startBenchServers } from '../support/load';
import { BARE_REACT_PATH, buildWorkbench, HARNESS_PATH } from './build-web';
import {
  ARM_PROBE,
  EDITOR_MOUNTED,
  EDITOR_TEXT,
  LOAD_TEXT,
  pipelineOf,
  WATCH_LONG_TASKS,
} from './page-probes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const KEYSTROKES = 12;
/** Tasks longer than this are 'long tasks' (they delay input); shorter ones are not reported, so count as 0. */
const LONG_TASK_MS = 50;

async function signInPage(page: Page, base: string, path = '/'): Promise<void> {
  await page.goto(base + path);
  await page.getByLabel('Username').waitFor();
}

/** Gzipped bytes of the scripts the sign-in page loads before it shows; refuses if Monaco is among them. */
async function scriptsBeforeSignIn(browser: Browser, base: string, path = '/'): Promise<number> {
  const page = await browser.newPage();
  const scripts: Promise<{ url: string; size: number }>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    scripts.push(response.body().then((body) => ({ url: response.url(), size: gzipSync(body).length })));
  });
  await signInPage(page, base, path);
  const loaded = await Promise.all(scripts);
  await page.close();
  const monaco = loaded.find((s) => /monaco|editor\.api|PipelineEditorView/i.test(s.url));
  if (monaco) throw new Error(`The sign-in page loads the editor: ${monaco.url}`);
  return loaded.reduce((sum, s) => sum + s.size, 0);
}

/** Waits until an editor is mounted and a typed character reaches its model. */
async function untilEditable(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(EDITOR_MOUNTED, undefined, { timeout, polling: 'raf' });
  await page.locator('.monaco-editor textarea').first().focus();
  await page.keyboard.type('#');
  await page.waitForFunction(`${EDITOR_TEXT}.includes('#')`, undefined, { polling: 'raf' });
}

interface SignedInTimes {
  /** From pressing "Sign in" to an editable editor. */
  signIn: number;
  /** From reloading the page while signed in (the session restored) to an editable editor; null if not restored. */
  reload: number | null;
}

/** Times to an editable editor in the workbench; null when the workbench shows no editor. */
async function signedInToEditor(browser: Browser, base: string): Promise<SignedInTimes | null> {
  const page = await browser.newPage();
  // The typed test character makes the document "changed": leave without asking.
  page.on('dialog', (dialog) => void dialog.accept());
  try {
    await signInPage(page, base);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(BENCH_ADMIN_PASSWORD);
    const start = Date.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await untilEditable(page, 20_000);
    const signIn = Date.now() - start;
    const again = Date.now();
    await page.reload();
    const restored = await untilEditable(page, 20_000).then(
      () => true,
      () => false,
    );
    return { signIn, reload: restored ? Date.now() - again : null };
  } catch {
    return null;
  } finally {
    await page.close();
  }
}

async function navigationTo(
  browser: Browser,
  url: string,
  ready: (page: Page) => Promise<void>,
): Promise<number> {
  const page = await browser.newPage();
  const start = Date.now();
  await page.goto(url);
  await ready(page);
  const elapsed = Date.now() - start;
  await page.close();
  return elapsed;
}

interface Delays {
  paint: number;
  marker: number;
  /** The longest main-thread task while typing a 40-character burst (0: none over 50 ms). */
  longestTask: number;
}

/** Median milliseconds from keydown to the next paint and to the PEL marker, in a pipeline of `lines` lines. */
async function keystrokeDelays(page: Page, lines: number): Promise<Delays> {
  const { text, line, column } = pipelineOf(lines);
  await page.evaluate(`${LOAD_TEXT}(${JSON.stringify({ text, line, column })})`);
  await page.waitForTimeout(300);
  await page.evaluate(WATCH_LONG_TASKS);
  await page.keyboard.type(' + vars.n * 2 + body.items.size() - 1.5', { delay: 15 });
  await page.waitForTimeout(600);
  const longestTask = await page.evaluate<number>('window.__longest()');
  await page.evaluate(`${LOAD_TEXT}(${JSON.stringify({ text, line, column })})`);
  await page.waitForTimeout(300);
  const paint: number[] = [];
  const marker: number[] = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    const breaking = i % 2 === 0;
    await page.evaluate(`${ARM_PROBE}(${JSON.stringify({ kind: 'paint' })})`);
    await page.keyboard.press(breaking ? 'Shift+Equal' : 'Backspace');
    paint.push(await page.evaluate<number>('window.__probe'));
    await page.keyboard.press(breaking ? 'Backspace' : 'Shift+Equal');
    await page.waitForTimeout(120);
    await page.evaluate(`${ARM_PROBE}(${JSON.stringify({ kind: 'marker', line, expectError: breaking })})`);
    await page.keyboard.press(breaking ? 'Shift+Equal' : 'Backspace');
    marker.push(await page.evaluate<number>('window.__probe'));
    await page.waitForTimeout(80);
  }
  return { paint: median(paint), marker: median(marker), longestTask };
}

export default async function workbenchBench(report: BenchReport): Promise<void> {
  const dist = buildWorkbench();
  const previous = process.env.PIPEWORK_WEB_DIST;
  process.env.PIPEWORK_WEB_DIST = dist;
  const servers = await startBenchServers();
  if (previous === undefined) delete process.env.PIPEWORK_WEB_DIST;
  else process.env.PIPEWORK_WEB_DIST = previous;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--disable-gpu', '--no-first-run'],
  });
  try {
    const base = servers.pipework;
    report.add({
      name: 'workbench: JavaScript before the sign-in page (gzip)',
      value: (await scriptsBeforeSignIn(browser, base)) / 1024,
      unit: 'KiB',
      baseline: 'bare React page with a form',
      baselineValue: (await scriptsBeforeSignIn(browser, base, BARE_REACT_PATH)) / 1024,
    });

    const signInPageMs = median(
      await repeat(3, () => navigationTo(browser, base + '/', (p) => p.getByLabel('Username').waitFor())),
    );
    const signedIn = await signedInToEditor(browser, base);
    const alone = median(
      await repeat(3, () => navigationTo(browser, base + HARNESS_PATH, (p) => untilEditable(p, 20_000))),
    );
    if (signedIn?.reload != null) {
      report.add({
        name: 'workbench: navigation (signed in) to an editable editor',
        value: signedIn.reload,
        unit: 'ms',
        baseline: 'navigation to sign-in page',
        baselineValue: signInPageMs,
      });
    }
    if (signedIn !== null) {
      report.add({
        name: 'workbench: Sign in pressed to an editable editor',
        value: signedIn.signIn,
        unit: 'ms',
        baseline: 'navigation to sign-in page',
        baselineValue: signInPageMs,
      });
    }
    report.add({
      name: 'workbench: navigation to an editable editor (editor page)',
      value: alone,
      unit: 'ms',
      baseline: 'navigation to sign-in page',
      baselineValue: signInPageMs,
    });

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(base + HARNESS_PATH);
    await untilEditable(page, 20_000);
    const small = await keystrokeDelays(page, 20);
    for (const lines of [500, 2_000]) {
      const delays = await keystrokeDelays(page, lines);
      report.add({
        name: `workbench: longest task typing 40 keys, ${lines.toLocaleString('en-US')} lines`,
        value: delays.longestTask,
        unit: 'ms',
        baseline: "Chromium's long-task threshold",
        baselineValue: LONG_TASK_MS,
      });
      report.add({
        name: `workbench: keystroke to PEL marker, ${lines.toLocaleString('en-US')} lines`,
        value: delays.marker,
        unit: 'ms',
        baseline: 'keystroke to paint, same text',
        baselineValue: delays.paint,
      });
      report.add({
        name: `workbench: keystroke to paint, ${lines.toLocaleString('en-US')} lines`,
        value: delays.paint,
        unit: 'ms',
        baseline: 'keystroke to paint, 20 lines',
        baselineValue: small.paint,
      });
    }
    await page.close();
  } finally {
    await browser.close();
    servers.stop();
  }
}

async function repeat<T>(times: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < times; i++) out.push(await fn());
  return out;
}
