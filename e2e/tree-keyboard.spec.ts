/** The property tree as an accessible tree in Chromium: one tab stop, arrow keys, Enter, type-ahead. */
import { expect, test, type Page } from '@playwright/test';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';
import { SHOTS, screenshotsWideAndNarrow } from './support/workbench';

const FOLDER = `e2e-kbd-${Date.now()}`;

/** The name of the row the tree's aria-activedescendant points at. */
function activeName(page: Page): Promise<string | null | undefined> {
  return page.getByRole('tree', { name: 'Properties' }).evaluate((tree) => {
    const id = tree.getAttribute('aria-activedescendant');
    return id ? document.getElementById(id)?.getAttribute('aria-label') : null;
  });
}

test('the property tree is browsed with the keyboard: arrows, Enter, type-ahead', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  for (const name of ['alpha', 'beta', 'gamma']) {
    await callCommand(
      request,
      token,
      'property.schema.put',
      { key: `global/${FOLDER}/${name}`, type: 'text/plain' },
      `value of ${name}`,
    );
  }
  await signIn(page);
  const tree = page.getByRole('tree', { name: 'Properties' });
  await expect(tree.getByRole('treeitem', { name: 'global', exact: true })).toBeVisible();

  // One tab stop: from the search field, Tab lands on the tree, at its first row.
  await page.getByPlaceholder(/Search/).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(tree).toBeFocused();
  await expect.poll(() => activeName(page)).toBe('global');

  await page.keyboard.press('ArrowRight');
  await expect(tree.getByRole('treeitem', { name: 'global', exact: true })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  // Type-ahead: the first letters of the folder's name.
  await page.keyboard.type('e2e-kbd', { delay: 20 });
  await expect.poll(() => activeName(page)).toBe(FOLDER);
  await page.keyboard.press('ArrowRight');
  const folder = tree.getByRole('treeitem', { name: FOLDER, exact: true });
  await expect(folder).toHaveAttribute('aria-expanded', 'true');
  await expect(tree.getByRole('treeitem', { name: 'alpha', exact: true })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => activeName(page)).toBe('alpha');
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => activeName(page)).toBe('beta');
  await page.waitForTimeout(700);
  await page.keyboard.type('g');
  await expect.poll(() => activeName(page)).toBe('gamma');
  await page.keyboard.press('Enter');
  await expect(tree.getByRole('treeitem', { name: 'gamma' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('property-value')).toContainText('value of gamma');
  await page.screenshot({ path: `${SHOTS}/tree-keyboard.png` });
  await screenshotsWideAndNarrow(page, 'tree-keyboard');

  // Left goes to the parent, Left again closes it; Up goes back.
  await tree.focus();
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => activeName(page)).toBe(FOLDER);
  await page.keyboard.press('ArrowLeft');
  await expect(folder).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Home');
  await expect.poll(() => activeName(page)).toBe('global');
});
