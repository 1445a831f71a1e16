/**
 * The Runs view in Chromium against the real server: a job every minute shows up on time, a webhook call runs
 * its pipeline as a run with trigger webhook, a failed run is re-run from its failed step after the fix (the
 * earlier step not again), and a pinned step is not executed. Side effects are counters in properties.
 */
import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { EditorWindow } from './support/editor';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';
import { editorReady, screenshotsWideAndNarrow } from './support/workbench';

/** Generous waits: the CI machine is shared and slow at times; the list polls every 2 s. */
const expect = baseExpect.configure({ timeout: 20_000 });
const APP = `global/app/e2eruns${Date.now()}`;

interface RunJson {
  id: string;
  status: string;
  started: number | null;
  trigger: { kind: string; source?: string };
}

async function storePipeline(request: APIRequestContext, token: string, key: string, text: string) {
  await callCommand(
    request,
    token,
    'property.schema.put',
    { key, type: 'application/x-yaml', evalValue: 'false' },
    text,
  );
}

async function counter(request: APIRequestContext, token: string, key: string): Promise<number> {
  const url = `/api/v3/command/property.value.get?key=${encodeURIComponent(key)}`;
  // A read, so it may be asked again: a kept-alive socket the server closed meanwhile answers ECONNRESET.
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
      expect(response.ok()).toBe(true);
      return Number(await response.text());
    } catch (error) {
      if (attempt >= 3 || !/ECONNRESET|socket hang up/.test(String(error))) throw error;
    }
  }
}

/** A step that counts how often it ran in the property `key`. */
const countStep = (key: string) =>
  `  - property.put:\n      key: ${key}\n      value: "#{@property.value('${key}') + 1}"\n`;

async function openRuns(page: Page, filter: { pipeline?: string; trigger?: string; status?: string }) {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Runs' }).click();
  const search = page.getByRole('search', { name: 'Filter runs' });
  await expect(search).toBeVisible();
  await search.getByLabel('Pipeline', { exact: true }).fill(filter.pipeline ?? '');
  await search.getByLabel('Trigger', { exact: true }).selectOption(filter.trigger ?? '');
  await search.getByLabel('Status', { exact: true }).selectOption(filter.status ?? '');
}

const runRows = (page: Page) => page.getByRole('list', { name: 'Runs' }).getByTestId('run-row');

async function cursorLine(page: Page): Promise<number | undefined> {
  return page.evaluate(
    () => (window as unknown as EditorWindow).monaco.editor.getEditors()[0]?.getPosition()?.lineNumber,
  );
}

test('a job every minute appears in the Runs view on time', async ({ page, request }) => {
  test.setTimeout(180_000);
  const token = await accessTokenFor(request);
  const key = `${APP}/pipeline/tick`;
  await storePipeline(
    request,
    token,
    key,
    'pipeline:\n  - job:\n      schedule: EVERY_1_MIN\n  - log:\n      message: tick\n',
  );
  const storedAt = Date.now();
  await page.goto('/#/runs');
  await signIn(page);
  await openRuns(page, { pipeline: key, trigger: 'job' });
  // The next minute boundary is at most 60 s away; the list polls every 2 s. (Until the typed filter
  // applies, the list still shows other runs: look for this pipeline's rows.)
  const jobRows = runRows(page).filter({ hasText: key });
  await expect(jobRows.first()).toBeVisible({ timeout: 150_000 });
  await expect(jobRows.first().getByTestId('run-trigger')).toHaveText('job');
  const runId = await jobRows.first().getAttribute('data-run-id');
  const run = (await (
    await request.get(`/api/v3/runs/${runId}`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as RunJson;
  expect(run.trigger).toEqual({ kind: 'job', source: key });
  // On time: started at a minute boundary after the pipeline was stored (a generous bound for a busy machine).
  const started = run.started ?? 0;
  expect(started).toBeGreaterThan(storedAt);
  expect(started % 60_000).toBeLessThan(20_000);
  await jobRows.first().click();
  await expect(page.getByTestId('detail-trigger')).toHaveText('job');
  await callCommand(request, token, 'job.stop', { pipelineKey: key });
});

test('a webhook call runs its pipeline and shows as a run with trigger webhook', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  const key = `${APP}/pipeline/hook`;
  await storePipeline(
    request,
    token,
    key,
    'pipeline:\n  - log:\n      message: "lead #{body.payload.name}"\n',
  );
  const hook = await callCommand<{ uuid: string; webhookUrl: string }>(request, token, 'webhook.put', {
    eventKey: 'webhook.lead.created',
    pipeline: key,
    payloadType: 'raw',
  });
  await page.goto('/#/runs');
  await signIn(page);
  await openRuns(page, { pipeline: key, trigger: 'webhook' });
  await expect(page.getByText('No runs match.')).toBeVisible();
  const status = await page.evaluate(async (url) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ada' }),
    });
    return response.status;
  }, hook.webhookUrl);
  expect(status).toBe(202);
  await expect(runRows(page)).toHaveCount(1, { timeout: 20_000 });
  await expect(runRows(page).first().getByTestId('run-trigger')).toHaveText('webhook');
  await runRows(page).first().click();
  await expect(page.getByTestId('detail-trigger')).toHaveText(`webhook (${hook.uuid})`);
  await expect(page.getByTestId('run-detail').getByTestId('run-status').first()).toHaveText('succeeded');
});

test('a failed run is re-run from its failed step after the fix and succeeds', async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const count = `${APP}/flaky-count`;
  const key = `${APP}/pipeline/flaky`;
  await callCommand(request, token, 'property.schema.put', { key: count, type: 'application/json' }, '0');
  const broken = `pipeline:\n${countStep(count)}  - error:\n      message: "not fixed yet"\n`;
  const fixed = `pipeline:\n${countStep(count)}  - set.body:\n      value: "fixed after #{body.value}"\n`;
  await storePipeline(request, token, key, broken);
  const failed = await request.post(`/api/v3/pipeline:${key}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(failed.ok()).toBe(false);
  expect(await counter(request, token, count)).toBe(1);

  await page.goto('/#/runs');
  await signIn(page);
  await openRuns(page, { pipeline: key, status: 'failed' });
  await expect(runRows(page)).toHaveCount(1, { timeout: 20_000 });
  await runRows(page).first().click();
  const error = page.getByTestId('run-error');
  await expect(error).toContainText('not fixed yet');
  await expect(error).toContainText('line 5');
  await screenshotsWideAndNarrow(page, 'runs-failed');

  // The error's jump opens the pipeline in the editor at its line.
  await error.getByRole('button', { name: 'Show in editor' }).click();
  await editorReady(page);
  await expect.poll(() => cursorLine(page)).toBe(5);

  await storePipeline(request, token, key, fixed);
  await openRuns(page, { pipeline: key, status: 'failed' });
  await expect(runRows(page)).toHaveCount(1);
  await runRows(page).first().click();
  await page
    .getByTestId('run-step')
    .filter({ hasText: 'error' })
    .getByRole('button', { name: 'Re-run from here' })
    .click();
  const detail = page.getByTestId('run-detail');
  await expect(detail.getByTestId('run-status').first()).toHaveText('succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('detail-trigger')).toContainText('workbench');
  // The step before the failed one did not run again.
  expect(await counter(request, token, count)).toBe(1);
  // A whole re-run does run it: the counter can move.
  // The view shows the new run once it is started: until then it may still show the last one's status.
  await detail.getByRole('button', { name: 'Re-run', exact: true }).click();
  await expect.poll(() => counter(request, token, count), { timeout: 20_000 }).toBe(2);
  await expect(detail.getByTestId('run-status').first()).toHaveText('succeeded', { timeout: 20_000 });
});

test('a pinned step is not executed when the workbench runs the pipeline', async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const count = `${APP}/pinned-count`;
  const key = `${APP}/pipeline/pinned`;
  await callCommand(request, token, 'property.schema.put', { key: count, type: 'application/json' }, '0');
  await storePipeline(
    request,
    token,
    key,
    `pipeline:\n${countStep(count)}  - set.body:\n      value: "#{body.value}"\n`,
  );

  await page.goto(`/#/editor?key=${encodeURIComponent(key)}`);
  await signIn(page);
  await editorReady(page);
  await expect(page.getByLabel('Use pinned outputs')).toBeChecked();
  const runInEditor = async () => {
    await page.getByTitle('Run (Ctrl+Enter)').click();
    await expect(page.getByTestId('run-summary')).toHaveText(/Done/);
  };
  await runInEditor();
  expect(await counter(request, token, count)).toBe(1);

  await openRuns(page, { pipeline: key, trigger: 'workbench' });
  await expect(runRows(page)).toHaveCount(1, { timeout: 20_000 });
  await runRows(page).first().click();
  const putStep = page.getByTestId('run-step').filter({ hasText: 'property.put' });
  await putStep.getByRole('button', { name: 'Pin output' }).click();
  await expect(putStep.getByRole('button', { name: 'Unpin' })).toBeVisible();
  await screenshotsWideAndNarrow(page, 'runs-pinned');

  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Editor' }).click();
  await editorReady(page);
  await runInEditor();
  await page.getByRole('tab', { name: /Trace/ }).click();
  await expect(page.getByTestId('trace-row').first().getByTestId('trace-status')).toHaveText('pinned');
  expect(await counter(request, token, count)).toBe(1);

  // Unpinned, the step runs again.
  await openRuns(page, { pipeline: key, trigger: 'workbench' });
  await expect(runRows(page)).toHaveCount(2);
  await runRows(page).last().click();
  await putStep.getByRole('button', { name: 'Unpin' }).click();
  await expect(putStep.getByRole('button', { name: 'Pin output' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Editor' }).click();
  await editorReady(page);
  await runInEditor();
  expect(await counter(request, token, count)).toBe(2);
});
