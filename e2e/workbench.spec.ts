/**
 * The workbench shell in Chromium against the real server: token sign-in, runs with their trace and result,
 * errors that jump to their line, the expression console, runs from a chosen step, and a stored pipeline
 * opened by its route, saved, met by a conflicting change and run.
 */
import { expect, test, type Page } from '@playwright/test';
import { editorText, moveTo, type EditorWindow } from './support/editor';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';

const SHOTS = 'test-results/screenshots';

async function editorReady(page: Page): Promise<void> {
  await expect(page.locator('[data-testid="pipeline-editor"] .monaco-editor')).toBeVisible();
  await page.waitForFunction(() =>
    Boolean((window as unknown as EditorWindow).monaco?.editor.getEditors()[0]),
  );
}

/** Replaces the editor's text (as a paste would). */
async function setText(page: Page, text: string): Promise<void> {
  await page.evaluate((value) => {
    const editor = (window as unknown as EditorWindow).monaco.editor.getEditors()[0];
    editor.setValue(value);
    editor.focus();
  }, text);
}

function cursor(page: Page): Promise<{ lineNumber: number; column: number }> {
  return page.evaluate(() => {
    const position = (window as unknown as EditorWindow).monaco.editor.getEditors()[0].getPosition();
    return { lineNumber: position.lineNumber, column: position.column };
  });
}

/** Types at a line and column, as a user who clicked there would. */
async function typeAt(page: Page, line: number, column: number, text: string): Promise<void> {
  await moveTo(page, line, column);
  await page.keyboard.type(text);
}

test('sign-in refuses a wrong password, then opens the workbench; sign-out returns to sign-in', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  await expect(page.getByLabel('Username')).toBeVisible();
  // The sign-in page loads its own small bundle: no editor, no workbench.
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((path) => /monaco|Workbench|PipelineEditor|editor\.worker/i.test(path))).toEqual([]);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');
  await page.screenshot({ path: `${SHOTS}/sign-in-refused.png` });

  await signIn(page);
  await editorReady(page);
  expect(scripts.some((path) => /monaco/i.test(path))).toBe(true);
  // The token lives in memory: nothing but the (rotating) refresh token is kept in the tab's storage.
  const stored = await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage } }));
  expect(JSON.stringify(stored)).not.toContain('e2e-admin-password');
  expect(Object.keys(stored.session)).toEqual(['pipework.refresh']);
  expect(Object.values(stored.local).join(' ')).not.toMatch(/eyJ/);
  await page.screenshot({ path: `${SHOTS}/workbench.png` });

  // A reload continues the session from the refresh token.
  await page.reload();
  await editorReady(page);
  const refresh = await page.evaluate(() => sessionStorage.getItem('pipework.refresh'));

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Username')).toBeVisible();
  // Sign-out revoked the login: its refresh token is refused by the server.
  const answer = await page.request.post('/auth/realms/pipework/protocol/openid-connect/token', {
    form: { grant_type: 'refresh_token', client_id: 'workbench', refresh_token: refresh ?? '' },
  });
  expect(answer.status()).toBe(400);
});

test('runs a pipeline: result, trace rows, console, run from a step', async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await page.getByRole('button', { name: /Run/ }).first().click();
  await expect(page.getByTestId('run-summary')).toHaveText(/Done · 3 steps/);
  await expect(page.getByTestId('result-json')).toContainText('"Hello, world!"');
  await page.screenshot({ path: `${SHOTS}/run-result.png` });

  await page.getByRole('tab', { name: /Trace/ }).click();
  const rows = page.getByTestId('trace-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('set.var');
  await expect(rows.nth(1)).toContainText('log');
  await expect(rows.nth(2)).toContainText('set.body');
  await rows.nth(1).getByRole('button', { name: /log/ }).click();
  await expect(rows.nth(1)).toContainText('INFO Hello, world!');
  await expect(rows.nth(1).getByRole('group', { name: 'Parameters' })).toContainText('"Hello, world!"');
  await page.screenshot({ path: `${SHOTS}/run-trace.png` });

  // The console evaluates against the message step 3 saw.
  await rows.nth(2).getByRole('button', { name: 'Console' }).click();
  // Completion from the step's own values: vars.me -> vars.message.
  await page.getByLabel('Expression').pressSequentially('vars.me');
  await expect(page.getByRole('option', { name: /message/ })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/console-completion.png` });
  await page.getByLabel('Expression').press('Tab');
  await expect(page.getByLabel('Expression')).toHaveValue('vars.message');
  await page.getByLabel('Expression').press('Enter');
  await expect(page.getByTestId('console-result').first()).toContainText('"Hello, world!"');
  await page.getByLabel('Expression').fill('#{vars.message} (#{body.name})');
  await page.getByLabel('Expression').press('Enter');
  await expect(page.getByTestId('console-result').first()).toContainText('"Hello, world! (world)"');
  await page.getByLabel('Expression').fill('vars.message +');
  await page.getByLabel('Expression').press('Enter');
  await expect(page.getByTestId('console-result').first()).toContainText('PEL_SYNTAX');
  await page.screenshot({ path: `${SHOTS}/console.png` });

  // Change step 3 and run again from it: steps 1 and 2 are kept from the last run, not run again.
  await setText(
    page,
    (await editorText(page)).replace(
      'message: "#{vars.message}"\n        name',
      'message: "again: #{vars.message}"\n        name',
    ),
  );
  await page.getByRole('tab', { name: /Trace/ }).click();
  await rows.nth(2).getByRole('button', { name: 'Run from here' }).click();
  await expect(page.getByTestId('run-summary')).toHaveText(/Done · 1 step · .* from step 3/);
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('kept');
  await expect(rows.nth(1)).toContainText('kept');
  await expect(rows.nth(2)).not.toContainText('kept');
  await page.getByRole('tab', { name: 'Result' }).click();
  await expect(page.getByTestId('result-json')).toContainText('"again: Hello, world!"');
});

test("a run's error links to its line and column in the editor", async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await setText(page, 'pipeline:\n  - set.body: 1\n  - log:\n      message: "sum #{body +}"\n');
  await page.keyboard.press('Control+Enter');
  const error = page.getByTestId('run-error');
  await expect(error).toContainText('PEL_SYNTAX');
  const link = error.getByRole('button', { name: /line 4, column \d+/ });
  await expect(link).toBeVisible();
  const column = Number(/column (\d+)/.exec((await link.textContent()) ?? '')?.[1]);
  await page.screenshot({ path: `${SHOTS}/run-error.png` });
  await link.click();
  expect(await cursor(page)).toEqual({ lineNumber: 4, column });
});

test('a stored pipeline opens by its route, saves, shows a conflict, and runs', async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const key = `global/app/e2e-shell/pipeline/greet-${Date.now()}.pi.yaml`;
  const stored = 'body:\n  who: stored\npipeline:\n  - set.body:\n      value: "Hi #{body.who}"\n';
  await callCommand(
    request,
    token,
    'property.schema.put',
    { key, type: 'application/x-yaml', existStrategy: 'error' },
    stored,
  );

  // Not signed in: the route survives sign-in.
  await page.goto(`/#/editor?key=${encodeURIComponent(key)}`);
  await signIn(page);
  await editorReady(page);
  await expect(page.getByTestId('document-key')).toHaveText(key);
  await expect.poll(() => editorText(page)).toBe(stored);

  // Change and save: version 1 becomes 2.
  await typeAt(page, 2, 14, ' and edited');
  await expect.poll(() => editorText(page)).toContain('who: stored and edited');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('v2', { exact: true })).toBeVisible();

  // Someone changes it meanwhile through the API.
  const theirs = stored.replace('stored', 'theirs');
  await callCommand(request, token, 'property.put', { key }, theirs);

  await typeAt(page, 2, 25, '!');
  await page.keyboard.press('Control+s');
  const dialog = page.getByRole('dialog', { name: 'Changed meanwhile' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('conflict-theirs')).toContainText('who: theirs');
  await expect(dialog.getByTestId('conflict-mine')).toContainText('who: stored and edited!');
  await page.screenshot({ path: `${SHOTS}/conflict.png` });
  // Nothing was overwritten.
  const between = await callCommand<{ value: string; version: number }>(request, token, 'property.get', {
    key,
  });
  expect([between.value, between.version]).toEqual([theirs, 3]);

  await dialog.getByRole('button', { name: 'Overwrite with mine' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('v4', { exact: true })).toBeVisible();
  const after = await callCommand<{ value: string }>(request, token, 'property.get', { key });
  expect(after.value).toContain('who: stored and edited!');

  await page.getByRole('button', { name: /Run/ }).first().click();
  await expect(page.getByTestId('result-text')).toHaveText('Hi stored and edited!');
  await page.screenshot({ path: `${SHOTS}/stored-pipeline.png` });
});

test('an ended session returns to sign-in, then to the same pipeline with the unsaved change', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  const key = `global/app/e2e-shell/pipeline/expiry-${Date.now()}.pi.yaml`;
  const stored = 'pipeline:\n  - set.body: "first"\n';
  await callCommand(request, token, 'property.schema.put', { key, type: 'application/x-yaml' }, stored);
  await page.goto(`/#/editor?key=${encodeURIComponent(key)}`);
  await signIn(page);
  await editorReady(page);
  await expect.poll(() => editorText(page)).toBe(stored);
  await typeAt(page, 2, 22, ' and second');

  // The login ends on the server (as when its refresh token is revoked elsewhere): the next call is refused.
  const refresh = await page.evaluate(() => sessionStorage.getItem('pipework.refresh'));
  const logout = await request.post('/auth/realms/pipework/protocol/openid-connect/logout', {
    form: { client_id: 'workbench', refresh_token: refresh ?? '' },
  });
  expect(logout.status()).toBe(204);
  await page.getByRole('button', { name: /Run/ }).first().click();
  await expect(page.getByRole('status').filter({ hasText: 'Your session has ended' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/session-ended.png` });

  await signIn(page);
  expect(page.url()).toContain(`#/editor?key=${encodeURIComponent(key)}`);
  await expect(page.getByTestId('document-key')).toHaveText(key);
  await expect.poll(() => editorText(page)).toContain('"first" and second');
  await setText(page, (await editorText(page)).replace('"first" and second', '"first and second"'));
  await page.getByRole('button', { name: /Run/ }).first().click();
  await expect(page.getByTestId('result-text')).toHaveText('first and second');
});

test('bytes results: an image and a PDF are previewed and downloadable', async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await setText(page, 'pipeline:\n  - barcode.create:\n      format: QR_CODE\n      text: Pipework\n');
  await page.keyboard.press('Control+Enter');
  const image = page.getByRole('img', { name: /Result/ });
  await expect(image).toBeVisible();
  expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(10);
  await page.screenshot({ path: `${SHOTS}/result-image.png` });
  const [png] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Download/ }).click(),
  ]);
  expect(png.suggestedFilename()).toMatch(/\.png$/);

  await setText(
    page,
    'pipeline:\n  - pdf.create: {pages: 1, format: A4}\n  - pdf.stamp: {text: Draft, position: CENTER}\n',
  );
  await page.keyboard.press('Control+Enter');
  await expect(page.locator('iframe[title^="Result"]')).toBeVisible();
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Download/ }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/\.pdf$/);
  const stream = await pdf.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await page.screenshot({ path: `${SHOTS}/result-pdf.png` });
});

test('the access token is renewed before it expires, rotating the refresh token', async ({ page }) => {
  await page.clock.install();
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  const first = await page.evaluate(() => sessionStorage.getItem('pipework.refresh'));
  const renewal = page.waitForRequest(
    (r) =>
      r.url().endsWith('/openid-connect/token') && (r.postData() ?? '').includes('grant_type=refresh_token'),
  );
  // The token lives 300 s; the workbench renews it at 80% of its life, before any call is refused.
  await page.clock.fastForward('04:05');
  await renewal;
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('pipework.refresh'))).not.toBe(first);
  await page.getByRole('button', { name: /Run/ }).first().click();
  await expect(page.getByTestId('run-summary')).toHaveText(/Done · 3 steps/);
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
});

test('the sidebar: the command reference inserts a step where the cursor is', async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await setText(page, 'pipeline:\n  - set.body: 1\n');
  await page.evaluate(() => {
    const editor = (window as unknown as EditorWindow).monaco.editor.getEditors()[0];
    editor.setPosition({ lineNumber: 3, column: 1 });
  });
  await page.getByRole('tab', { name: 'Reference' }).click();
  await page.getByLabel('Search commands').fill('datetime');
  await expect(page.getByText(/^1 of \d+ commands/)).toBeVisible();
  const entry = page.getByTestId('command-datetime');
  const header = entry.getByRole('button').first();
  // A search with few results opens them by itself.
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await page.screenshot({ path: `${SHOTS}/reference.png` });
  await entry.getByRole('button', { name: 'Insert into editor' }).click();
  await expect.poll(() => editorText(page)).toBe('pipeline:\n  - set.body: 1\n  - datetime\n');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('run-summary')).toHaveText(/Done · 2 steps/);
});

test('a loop shows one row per iteration; runs start only at top-level steps', async ({ page }) => {
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await setText(
    page,
    'pipeline:\n  - set.body: [1, 2]\n  - foreach:\n      in: "#{body}"\n  - log: "item #{vars.item}"\n  - foreach.end\n  - log: done\n',
  );
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('run-summary')).toHaveText(/Done/);
  await page.getByRole('tab', { name: /Trace/ }).click();
  const rows = page.getByTestId('trace-row');
  await expect(rows).toHaveCount(5);
  await expect(rows.nth(2)).toContainText('iteration 1');
  await expect(rows.nth(3)).toContainText('iteration 2');
  const starts = page.getByRole('button', { name: 'Run from here' });
  await expect(starts).toHaveCount(2);
  await expect(rows.nth(0).getByRole('button', { name: 'Run from here' })).toBeVisible();
  await expect(rows.nth(4).getByRole('button', { name: 'Run from here' })).toBeVisible();
  await rows.nth(3).getByRole('button', { name: /log/ }).click();
  await expect(rows.nth(3)).toContainText('INFO item 2');
  await page.screenshot({ path: `${SHOTS}/run-trace-loop.png` });

  // A long loop: the rows come a page at a time.
  const items = Array.from({ length: 250 }, (_, i) => i).join(', ');
  await setText(
    page,
    `pipeline:\n  - set.body: [${items}]\n  - foreach:\n      in: "#{body}"\n  - log: "#{vars.item}"\n`,
  );
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('run-summary')).toHaveText(/Done · 252 steps/);
  await expect(rows).toHaveCount(200);
  await page.getByRole('button', { name: 'Show 52 more of 52 steps' }).click();
  await expect(rows).toHaveCount(252);
  await expect(rows.last()).toContainText('iteration 250');
});

test('Save as stores a new pipeline and never overwrites an existing key', async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const taken = `global/app/e2e-shell/pipeline/taken-${Date.now()}`;
  await callCommand(
    request,
    token,
    'property.schema.put',
    { key: taken, type: 'application/x-yaml' },
    'x: 1\n',
  );
  await page.goto('/');
  await signIn(page);
  await editorReady(page);
  await setText(page, 'pipeline:\n  - set.body: "saved as #{vars.x}"\nvars:\n  x: new\n');
  await page.keyboard.press('Control+s');
  const dialog = page.getByRole('dialog', { name: 'Save the pipeline as' });
  await dialog.getByLabel('Key').fill(taken);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/exists already/);
  await page.screenshot({ path: `${SHOTS}/save-as.png` });
  const kept = await callCommand<{ value: string }>(request, token, 'property.get', { key: taken });
  expect(kept.value).toBe('x: 1\n');

  const key = `${taken}-new`;
  await dialog.getByLabel('Key').fill(key);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('document-key')).toHaveText(key);
  expect(page.url()).toContain(`#/editor?key=${encodeURIComponent(key)}`);
  const stored = await callCommand<{ value: string; version: number }>(request, token, 'property.get', {
    key,
  });
  expect(stored.value).toBe('pipeline:\n  - set.body: "saved as #{vars.x}"\nvars:\n  x: new\n');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('result-text')).toHaveText('saved as new');
});

test('a stored YAML pipeline edited in the JSON form is saved back as YAML', async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const key = `global/app/e2e-shell/pipeline/forms-${Date.now()}`;
  await callCommand(
    request,
    token,
    'property.schema.put',
    { key, type: 'application/x-yaml' },
    'pipeline:\n  - set.body: 1\n',
  );
  await page.goto(`/#/editor?key=${encodeURIComponent(key)}`);
  await signIn(page);
  await editorReady(page);
  await expect.poll(() => editorText(page)).toBe('pipeline:\n  - set.body: 1\n');
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  await expect.poll(() => editorText(page)).toContain('"set.body": 1');
  await setText(page, (await editorText(page)).replace('"set.body": 1', '"set.body": 2'));
  await page.keyboard.press('Control+s');
  await expect(page.getByText('v2', { exact: true })).toBeVisible();
  const stored = await callCommand<{ value: string; type: string }>(request, token, 'property.get', { key });
  expect(stored.value).toBe('pipeline:\n  - set.body: 2\n');
  expect(stored.type).toBe('application/x-yaml');
});
