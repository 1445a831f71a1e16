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
  ARM_FLOW_PROBE,
  ARM_PROBE,
  EDITOR_MOUNTED,
  EDITOR_TEXT,
  flowSteps,
  LOAD_TEXT,
  pipelineOf,
  WATCH_LONG_TASKS,
} from './page-probes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const KEYSTROKES = 12;
/** Tasks longer than this are 'long tasks' (they delay input); shorter ones are not reported, so count as 0. */
const LONG_TASK_MS = 50;
/** The goal for a keystroke to our validator's marker (the schema markers took about 500 ms before). */
const VALIDATOR_GOAL_MS = 150;
/** Steps of the pipeline the flow view redraws. */
const FLOW_STEPS = 200;

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

/**
 * Waits until `expression` is true in the page. Not `waitForFunction`: it evaluates a string predicate with
 * `eval` inside the page, which the workbench's Content-Security-Policy refuses.
 */
async function until(page: Page, expression: string, timeout: number): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await page.evaluate<boolean>(expression))) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeout} ms waiting for ${expression}`);
    await page.waitForTimeout(10);
  }
}

/** Waits until an editor is mounted and a typed character reaches its model. */
async function untilEditable(page: Page, timeout: number): Promise<void> {
  await until(page, EDITOR_MOUNTED, timeout);
  await page.locator('.monaco-editor textarea').first().focus();
  await page.keyboard.type('#');
  await until(page, `${EDITOR_TEXT}.includes('#')`, 20_000);
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
  /** Keystroke to our validator's marker (an unknown command typed, then fixed). */
  validator: number;
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
  return {
    paint: median(paint),
    marker: median(marker),
    validator: await validatorDelay(page, text, line - 1),
    longestTask,
  };
}

/** Keystroke to our validator's marker: 'log' becomes the unknown 'logx' on `line`, then 'log' again. */
async function validatorDelay(page: Page, text: string, line: number): Promise<number> {
  await page.evaluate(`${LOAD_TEXT}(${JSON.stringify({ text, line, column: 8 })})`);
  await page.waitForTimeout(300);
  const delays: number[] = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    const breaking = i % 2 === 0;
    await page.evaluate(
      `${ARM_PROBE}(${JSON.stringify({ kind: 'marker', line, expectError: breaking, owner: 'pipework' })})`,
    );
    await page.keyboard.press(breaking ? 'x' : 'Backspace');
    delays.push(await page.evaluate<number>('window.__probe'));
    await page.waitForTimeout(80);
  }
  return median(delays);
}

/**
 * The flow view of a 200-step pipeline beside the editor: keystroke to the redrawn node ('log' becomes
 * 'logx' in the middle step, then 'log' again), and the longest main-thread task meanwhile. The flow view
 * brings the step at the cursor into view (only the steps in view are drawn).
 */
async function flowRedraw(page: Page): Promise<{ redraw: number; longestTask: number }> {
  const lines = 2 * FLOW_STEPS + 5;
  const { text, line } = pipelineOf(lines);
  const commandLine = line - 1;
  // Line 4 is the first step's `- log:`, each step takes two lines.
  const step = (commandLine - 4) / 2 + 1;
  await page.evaluate(`${LOAD_TEXT}(${JSON.stringify({ text, line: commandLine, column: 8 })})`);
  await until(page, flowSteps(FLOW_STEPS), 60_000);
  await page.waitForTimeout(500);
  await page.evaluate(WATCH_LONG_TASKS);
  const delays: number[] = [];
  for (let i = 0; i < KEYSTROKES; i++) {
    const breaking = i % 2 === 0;
    await page.evaluate(`${ARM_FLOW_PROBE}(${JSON.stringify({ step, command: breaking ? 'logx' : 'log' })})`);
    await page.keyboard.press(breaking ? 'x' : 'Backspace');
    delays.push(await page.evaluate<number>('window.__probe'));
    await page.waitForTimeout(100);
  }
  const longestTask = await page.evaluate<number>('window.__longest()');
  return { redraw: median(delays), longestTask };
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
        name: `workbench: keystroke to validator marker, ${lines.toLocaleString('en-US')} lines`,
        value: delays.validator,
        unit: 'ms',
        baseline: 'goal',
        baselineValue: VALIDATOR_GOAL_MS,
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

    const flowPage = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await flowPage.goto(`${base}${HARNESS_PATH}?flow`);
    await untilEditable(flowPage, 20_000);
    const flow = await flowRedraw(flowPage);
    report.add({
      name: `workbench: flow view, longest task redrawing ${FLOW_STEPS} steps`,
      value: flow.longestTask,
      unit: 'ms',
      baseline: "Chromium's long-task threshold",
      baselineValue: LONG_TASK_MS,
    });
    report.add({
      name: `workbench: flow view, keystroke to redrawn step (${FLOW_STEPS} steps)`,
      value: flow.redraw,
      unit: 'ms',
      baseline: 'keystroke to paint, 20 lines',
      baselineValue: small.paint,
    });
    await flowPage.close();
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
