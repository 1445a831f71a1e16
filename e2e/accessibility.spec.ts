/**
 * An accessibility audit (axe-core) of every main screen of the workbench in Chromium: sign-in, the editor
 * with a run, the property explorer, the command reference and the expression console. No serious or
 * critical violation may remain.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { moveTo } from './support/editor';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';
import { editorReady, SHOTS } from './support/workbench';

/** The serious and critical violations on the page, one line each (rule, impact, the first elements). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

async function audit(page: Page, screen: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/a11y-${screen}.png` });
  expect(await seriousViolations(page), screen).toEqual([]);
}

test('sign-in has no serious accessibility violation', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel('Username')).toBeVisible();
  await audit(page, 'sign-in');
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill('wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await audit(page, 'sign-in-refused');
});

test('editor, run result, trace and console have no serious accessibility violation', async ({ page }) => {
  // Four axe audits: on a busy shared machine they alone can take more than the default minute.
  test.setTimeout(180_000);
  await signIn(page);
  await editorReady(page);
  await audit(page, 'editor');
  await moveTo(page, 1, 1);
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('run-summary')).toHaveText(/Done/);
  await audit(page, 'run-result');
  await page.getByRole('tab', { name: /Trace/ }).click();
  await page.getByTestId('trace-row').first().getByRole('button').first().click();
  await audit(page, 'trace');
  await page.getByRole('tab', { name: 'Console' }).click();
  await page.getByLabel('Expression').fill('vars.message');
  await page.getByLabel('Expression').press('Enter');
  await expect(page.getByTestId('console-result').first()).toBeVisible();
  await audit(page, 'console');
});

test('property explorer and reference have no serious accessibility violation', async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const key = `global/e2e-a11y-${Date.now()}/note`;
  await callCommand(request, token, 'property.schema.put', { key, type: 'text/plain' }, 'a note');
  await signIn(page);
  await editorReady(page);
  const tree = page.getByRole('tree', { name: 'Properties' });
  await tree.getByRole('treeitem', { name: 'global', exact: true }).click();
  await tree.getByRole('treeitem', { name: key.split('/')[1], exact: true }).click();
  await tree.getByRole('treeitem', { name: 'note', exact: true }).click();
  await expect(page.getByTestId('property-value')).toContainText('a note');
  await audit(page, 'properties');
  await page.getByRole('tab', { name: 'Reference' }).click();
  const reference = page.getByRole('region', { name: 'Command reference' });
  await reference.getByLabel('Search commands').fill('property.put');
  await reference.getByTestId('command-property.put').getByRole('button').first().click();
  await audit(page, 'reference');
});

test('the Runs view with a failed run has no serious accessibility violation', async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const failed = await request.post('/api/v3/pipeline', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/yaml' },
    data: 'pipeline:\n  - set.body:\n      value: a11y\n  - error:\n      message: a11y failure\n',
  });
  expect(failed.ok()).toBe(false);
  await page.goto('/#/runs');
  await signIn(page);
  const search = page.getByRole('search', { name: 'Filter runs' });
  await search.getByLabel('Status', { exact: true }).selectOption('failed');
  await search.getByLabel('Text', { exact: true }).fill('a11y failure');
  const rows = page.getByRole('list', { name: 'Runs' }).getByTestId('run-row');
  await expect(rows).toHaveCount(1, { timeout: 20_000 });
  await rows.first().click();
  await expect(page.getByTestId('run-error')).toContainText('a11y failure');
  await audit(page, 'runs');
});
