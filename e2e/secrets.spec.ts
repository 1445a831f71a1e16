/** The Secrets tab in Chromium: add, see only name and format, replace, delete; the value never comes back. */
import { expect, test } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../playwright.config';
import { accessTokenFor, callCommand } from './support/sign-in';
import { screenshotsWideAndNarrow } from './support/workbench';

test('secrets are added, listed without values, replaced and deleted', async ({ page, request }) => {
  const name = `e2e-crm-${Date.now()}`;
  const value = `tok-${Date.now()}-e2e`;
  // Signed in as signIn() does, with room for the workbench chunk on a loaded machine.
  await page.goto('/');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-user')).toHaveText(/^admin/, { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Secrets' }).click();
  const view = page.getByRole('region', { name: 'Secrets' });
  await view.getByRole('button', { name: 'Add secret' }).click();
  const form = view.getByRole('form', { name: 'Add secret' });
  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Format', { exact: true }).selectOption('bearer');
  // A value of the wrong format: the server's message, nothing stored.
  await form.getByLabel('Secret', { exact: true }).fill('Bearer: two words');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(form.getByRole('alert')).toContainText('bearer secret');
  await form.getByLabel('Secret', { exact: true }).fill(`Bearer: ${value}`);
  await expect(form.getByLabel('Secret', { exact: true })).toHaveAttribute('type', 'password');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(form).toHaveCount(0);
  const item = view.getByRole('listitem').filter({ hasText: name });
  await expect(item).toContainText('bearer · user · by admin');
  await expect(page.locator('body')).not.toContainText(value);
  expect(await page.content()).not.toContain(value);
  await screenshotsWideAndNarrow(page, 'secrets');

  // Replace: the name is kept, the old value is not shown.
  await item.getByRole('button', { name: `Replace ${name}` }).click();
  const replace = view.getByRole('form', { name: `Replace ${name}` });
  await expect(replace.getByLabel('Secret', { exact: true })).toHaveValue('');
  await replace.getByLabel('Format', { exact: true }).selectOption('header');
  await replace.getByLabel('Secret', { exact: true }).fill(`X-Api-Key: ${value}-2`);
  await replace.getByRole('button', { name: 'Replace' }).click();
  await expect(item).toContainText('header · user');
  const token = await accessTokenFor(request);
  const listed = await callCommand<{ name: string; format: string }[]>(request, token, 'secret.list', {});
  expect(listed.find((s) => s.name === name)?.format).toBe('header');
  expect(JSON.stringify(listed)).not.toContain(value);

  await item.getByRole('button', { name: `Delete ${name}` }).click();
  await item.getByRole('button', { name: `Confirm delete ${name}` }).click();
  await expect(view.getByRole('listitem').filter({ hasText: name })).toHaveCount(0);
});
