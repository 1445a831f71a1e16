import { expect, test } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../playwright.config';

test('signs in and runs the first pipeline', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong username or password.');

  await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(page.getByTestId('result')).toContainText('"text": "hello"');
});

test('shows an error with its code, line and column', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Pipeline').fill('pipeline:\n  - log:\n      message: "#{body.a +}"\n');
  await page.getByRole('button', { name: 'Run' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('PEL_SYNTAX');
  await expect(alert).toContainText('at line 3');
});
