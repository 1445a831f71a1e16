/**
 * An app's list of 20,000 instances in Chromium: the longest main-thread task (PerformanceObserver `longtask`)
 * while scrolling through it, sorting it by a column and typing a filter, against Chromium's long-task
 * threshold of 50 ms. Builds its own dist and starts its own server on a free port.
 */
import { chromium, type Page } from 'playwright-core';
import type { BenchReport } from '../bench-report';
import { BENCH_ADMIN_PASSWORD } from '../support/bench-constants';
import { accessToken } from '../support/bench-auth';
import { startBenchServers } from '../support/load';
import { buildWorkbench } from './build-web';
import { WATCH_LONG_TASKS } from './page-probes';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/lib/chromium/chromium';
const LONG_TASK_MS = 50;
const INSTANCES = 20_000;
const IMPORT_BATCH = 10_000;
const OBJECT = 'global/app/benchlist/object/order/v1';

async function command(base: string, token: string, name: string, query: string, body: string) {
  const response = await fetch(`${base}/api/v3/command/${name}?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  if (!response.ok) throw new Error(`${name}: ${response.status} ${await response.text()}`);
}

/** The object's schema and 20,000 instances, imported in batches of 10,000 (one transaction each). */
async function seed(base: string): Promise<void> {
  const token = await accessToken(base, 'workbench');
  const schema = {
    type: 'object',
    properties: {
      customer: { type: 'string', title: 'Customer' },
      city: { type: 'string', title: 'City' },
      amount: { type: 'number', title: 'Amount' },
      placed: { type: 'string', format: 'date-time', title: 'Placed' },
    },
  };
  const cities = ['Berlin', 'Hamburg', 'München', 'Köln', 'Leipzig', 'Bremen', 'Dresden'];
  const entries = [{ key: `${OBJECT}/schema`, value: JSON.stringify(schema), type: 'application/json' }];
  for (let i = 0; i < INSTANCES; i++)
    entries.push({
      key: `${OBJECT}/instance/${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
      type: 'application/json',
      value: JSON.stringify({
        customer: `Customer ${(i * 7919) % INSTANCES}`,
        city: cities[i % cities.length]!,
        amount: (i * 37) % 1000,
        placed: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      }),
    });
  for (let start = 0; start < entries.length; start += IMPORT_BATCH)
    await command(
      base,
      token,
      'property.import',
      'strategy=update',
      JSON.stringify(entries.slice(start, start + IMPORT_BATCH)),
    );
}

async function longestTaskWhile(page: Page, action: () => Promise<void>): Promise<number> {
  await page.evaluate(WATCH_LONG_TASKS);
  await action();
  await page.waitForTimeout(500);
  return page.evaluate<number>('window.__longest()');
}

/**
 * With `PIPEWORK_LIST_TRACE=<file>`, a Chromium performance trace (with JavaScript samples) of the scroll phase
 * is written there, to find where its long tasks go; tracing slows the page, so its readings are not figures.
 */
const TRACE_FILE = process.env.PIPEWORK_LIST_TRACE;
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'blink.user_timing',
  'toplevel',
];

export default async function listBench(report: BenchReport): Promise<void> {
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
    await seed(base);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${base}/#/list?object=${encodeURIComponent(OBJECT)}`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(BENCH_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const total = page.getByTestId('list-total');
    await total.filter({ hasText: `${INSTANCES} instances` }).waitFor({ timeout: 60_000 });
    const rows = page.getByTestId('list-rows');
    await rows.getByRole('row').first().getByText('Customer', { exact: false }).waitFor();

    if (TRACE_FILE)
      await browser.startTracing(page, {
        path: TRACE_FILE,
        screenshots: false,
        categories: TRACE_CATEGORIES,
      });
    const scrolling = await longestTaskWhile(page, async () => {
      // Through the whole list in 40 jumps and back by wheel: each jump lands on rows not fetched yet.
      for (let step = 1; step <= 40; step++) {
        await rows.evaluate((el, f) => (el.scrollTop = el.scrollHeight * f), step / 40);
        await page.waitForTimeout(60);
      }
      for (let i = 0; i < 20; i++) {
        await page.mouse.wheel(0, -600);
        await page.waitForTimeout(30);
      }
    });
    if (TRACE_FILE) await browser.stopTracing();
    const sorting = await longestTaskWhile(page, async () => {
      for (const title of ['Amount', 'Amount', 'Customer', 'Placed']) {
        await page
          .getByRole('columnheader', { name: new RegExp(`^${title}`) })
          .getByRole('button')
          .click();
        await page.waitForTimeout(400);
      }
    });
    const filtering = await longestTaskWhile(page, async () => {
      await page.getByLabel('Filter City').pressSequentially('Leip', { delay: 40 });
      await total.filter({ hasNotText: `${INSTANCES} instances` }).waitFor({ timeout: 30_000 });
      await page.getByLabel('Filter Customer').pressSequentially('99', { delay: 40 });
      await page.waitForTimeout(800);
    });
    for (const [what, value] of [
      ['scrolling', scrolling],
      ['sorting', sorting],
      ['filtering', filtering],
    ] as const)
      report.add({
        name: `list of 20,000 instances: longest task ${what}`,
        value,
        unit: 'ms',
        baseline: "Chromium's long-task threshold",
        baselineValue: LONG_TASK_MS,
      });
    await page.close();
  } finally {
    await browser.close();
    servers.stop();
  }
}
