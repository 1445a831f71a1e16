/**
 * Property history in Chromium against the real server: a pipeline changed three times, its first version
 * diffed against the text now in Monaco's diff editor, restored, and the restored text running.
 */
import { expect, test } from '@playwright/test';
import { editorText, moveTo } from './support/editor';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';
import { editorReady, screenshotsWideAndNarrow } from './support/workbench';

test('shows a pipeline changed three times, diffs the first version and restores it', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  const key = `global/app/e2e-history/pipeline/greet-${Date.now()}.pi.yaml`;
  const text = (word: string) => `pipeline:\n  - set.body:\n      value: "${word}"\n`;
  await callCommand(
    request,
    token,
    'property.schema.put',
    { key, type: 'application/x-yaml' },
    text('first'),
  );
  for (const word of ['second', 'third', 'fourth']) {
    await callCommand(request, token, 'property.put', { key }, text(word));
  }

  await page.goto(`/#/editor?key=${encodeURIComponent(key)}`);
  await signIn(page);
  await editorReady(page);
  await expect.poll(() => editorText(page)).toContain('fourth');

  await page.getByRole('button', { name: 'History' }).click();
  const dialog = page.getByRole('dialog', { name: /History of/ });
  const versions = dialog.getByRole('list', { name: 'Versions' }).getByRole('button');
  await expect(versions).toHaveCount(4);
  await versions.last().click();
  const diff = dialog.locator('.monaco-diff-editor');
  await expect(diff).toBeVisible();
  await expect(diff).toContainText('first');
  await expect(diff).toContainText('fourth');
  await expect(diff.locator('.line-delete, .char-delete').first()).toBeVisible();
  await screenshotsWideAndNarrow(page, 'history-diff');

  await dialog.getByRole('button', { name: 'Restore this version' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => editorText(page)).toContain('"first"');
  await moveTo(page, 1, 1);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('run-summary')).toHaveText(/Done/);
  await expect(page.getByRole('region', { name: 'Run' })).toContainText('first');

  const listed = await callCommand<{ kind: string; version: number }[]>(
    request,
    token,
    'property.history.list',
    { key },
  );
  expect(listed[0]).toMatchObject({ kind: 'changed', version: 5 });
});
