/**
 * The authoring rough edges in Chromium against the real server: unsaved edits are guarded on sign-out and on
 * closing the tab, the run panels belong to the open pipeline, a conversion that drops comments asks first,
 * and the layout holds from 1024 px wide.
 */
import { expect, test } from '@playwright/test';
import { editorText, moveTo } from './support/editor';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';
import { editorReady, screenshotsWideAndNarrow, setText, SHOTS } from './support/workbench';

test('sign-out asks before it drops unsaved edits; closing the tab asks too', async ({ page }) => {
  await signIn(page);
  await editorReady(page);
  await moveTo(page, 1, 1);
  await page.keyboard.type('# edited\n');

  // Sign out, answered "cancel": still signed in, the edit kept.
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toMatch(/unsaved/i);
  await expect(page.getByTestId('signed-in-user')).toBeVisible();
  expect(await editorText(page)).toContain('# edited');

  // Closing the tab with the edit pending: the browser's own "leave site?" question.
  const unload: string[] = [];
  page.once('dialog', (dialog) => {
    unload.push(dialog.type());
    void dialog.dismiss();
  });
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => unload).toEqual(['beforeunload']);
});

test('sign-out answered "yes" signs out; with nothing unsaved it does not ask', async ({ page }) => {
  await signIn(page);
  await editorReady(page);
  let asked = 0;
  page.on('dialog', (dialog) => {
    asked += 1;
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Username')).toBeVisible();
  expect(asked).toBe(0);

  await signIn(page);
  await editorReady(page);
  await moveTo(page, 1, 1);
  await page.keyboard.type('# edited\n');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByLabel('Username')).toBeVisible();
  expect(asked).toBe(1);
});

test("opening another pipeline clears the previous one's result and trace", async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const stamp = Date.now();
  const first = `global/app/e2e-authoring/pipeline/first-${stamp}.pi.yaml`;
  const second = `global/app/e2e-authoring/pipeline/second-${stamp}.pi.yaml`;
  for (const [key, text] of [
    [first, 'pipeline:\n  - set.body:\n      value: "from the first"\n'],
    [second, 'pipeline:\n  - set.body:\n      value: "from the second"\n'],
  ]) {
    await callCommand(request, token, 'property.schema.put', { key, type: 'application/x-yaml' }, text);
  }
  await page.goto(`/#/editor?key=${encodeURIComponent(first)}`);
  await signIn(page);
  await editorReady(page);
  await expect.poll(() => editorText(page)).toContain('from the first');
  await moveTo(page, 1, 1);
  await page.keyboard.press('Control+Enter');
  const panel = page.getByRole('region', { name: 'Run' });
  await expect(page.getByTestId('run-summary')).toHaveText(/Done/);
  await expect(panel).toContainText('from the first');

  await page.goto(`/#/editor?key=${encodeURIComponent(second)}`);
  await expect.poll(() => editorText(page)).toContain('from the second');
  await expect(page.getByText('Not run yet')).toBeVisible();
  await expect(panel).not.toContainText('from the first');
  await page.getByRole('tab', { name: /Trace/ }).click();
  await expect(page.getByTestId('trace-row')).toHaveCount(0);
});

test('switching YAML with comments to JSON warns first; cancel keeps the YAML', async ({ page }) => {
  await signIn(page);
  await editorReady(page);
  const yaml = '# greets\npipeline:\n  - log: hi # the greeting\n';
  await setText(page, yaml);
  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toMatch(/comment/i);
  expect(await editorText(page)).toBe(yaml);
  await expect(page.getByRole('button', { name: 'YAML', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  await expect.poll(() => editorText(page)).toContain('"pipeline"');

  // Without comments nothing is asked.
  await page.getByRole('button', { name: 'YAML', exact: true }).click();
  await expect.poll(() => editorText(page)).toContain('pipeline:');
  let more = 0;
  page.on('dialog', (dialog) => {
    more += 1;
    void dialog.accept();
  });
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  await expect.poll(() => editorText(page)).toContain('"pipeline"');
  expect(more).toBe(0);
});

test('at 1024x700 the trace badges keep clear of the command names and the editor of the run tabs', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  await signIn(page);
  await editorReady(page);
  await setText(
    page,
    'pipeline:\n  - set.var:\n      key: a\n      value: 1\n  - property.keys.children.page:\n      pattern: global\n  - property.attachment.chunk.get:\n      key: global/app/e2e-authoring/none\n      name: a.txt\n      index: 0\n',
  );
  await moveTo(page, 1, 1);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('run-summary')).toBeVisible();
  await page.getByRole('tab', { name: /Trace/ }).click();
  const rows = page.getByTestId('trace-row');
  await expect(rows.first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/trace-1024.png` });
  for (let i = 0; i < (await rows.count()); i += 1) {
    const row = rows.nth(i);
    const command = await row.getByTestId('trace-command').boundingBox();
    const status = await row.getByTestId('trace-status').boundingBox();
    expect(command && status).toBeTruthy();
    expect(command!.x + command!.width, `row ${i + 1}`).toBeLessThanOrEqual(status!.x);
  }
  const editorBox = await page.getByTestId('pipeline-editor').boundingBox();
  const tabsBox = await page.getByRole('tab', { name: 'Result' }).boundingBox();
  expect(editorBox!.y + editorBox!.height).toBeLessThanOrEqual(tabsBox!.y);
  await screenshotsWideAndNarrow(page, 'trace');
});

test('"Insert into editor" adds the step after the cursor\'s step, indented, never mid-line', async ({
  page,
}) => {
  await signIn(page);
  await editorReady(page);
  await setText(page, 'pipeline:\n  - set.var:\n      key: x\n      value: 1\n  - log: "#{vars.x}"\n');
  await moveTo(page, 3, 10); // mid-line, inside step 1
  await page.getByRole('tab', { name: 'Reference' }).click();
  const reference = page.getByRole('region', { name: 'Command reference' });
  await reference.getByLabel('Search commands').fill('cache.put');
  await reference
    .getByTestId('command-cache.put')
    .getByRole('button', { name: 'Insert into editor' })
    .click();
  await expect
    .poll(() => editorText(page))
    .toBe(
      'pipeline:\n  - set.var:\n      key: x\n      value: 1\n  - cache.put:\n      key: "<key>"\n  - log: "#{vars.x}"\n',
    );
  await screenshotsWideAndNarrow(page, 'insert-step');
  // One undo takes the whole step back.
  await page.keyboard.press('Control+z');
  await expect.poll(() => editorText(page)).not.toContain('property.schema.put');
});

test('an error inside a data.transform template links to its own line; steps count from 1', async ({
  page,
}) => {
  await signIn(page);
  await editorReady(page);
  await setText(
    page,
    'pipeline:\n  - set.body:\n      value: {a: 1}\n  - data.transform:\n      template: |\n        line one\n        line two #{a +}\n',
  );
  await moveTo(page, 1, 1);
  await page.keyboard.press('Control+Enter');
  const error = page.getByTestId('run-error');
  await expect(error).toContainText('PEL_SYNTAX');
  await expect(error).toContainText('step 2 · data.transform');
  await expect(error.getByRole('button', { name: 'line 7, column 23' })).toBeVisible();
  await screenshotsWideAndNarrow(page, 'template-error');
});
