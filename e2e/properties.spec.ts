/**
 * The property tree and the command reference in Chromium against the real server: lazy levels, wildcard
 * search, create / edit / conflict / delete, live events, what a non-admin may see, app tests, the reference.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../playwright.config';
import { accessTokenFor } from './support/sign-in';

const ROOT = `global/e2e${Date.now().toString(36)}`;
const SHOTS = 'test-results/screenshots';

/** Calls a command as the given token; `body` is sent as text (stored as typed). */
async function command(
  request: APIRequestContext,
  token: string,
  name: string,
  params: Record<string, string | number>,
  body?: string,
) {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const response = await request.post(`/api/v3/command/${name}?${query}`, {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
    data: body ?? '',
  });
  return { status: response.status(), json: (await response.text()) === '' ? null : await response.json() };
}

async function put(
  request: APIRequestContext,
  token: string,
  key: string,
  value: string,
  type = 'text/plain',
) {
  const answer = await command(request, token, 'property.schema.put', { key, type }, value);
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
}

async function signIn(page: Page, username = 'admin', password = E2E_ADMIN_PASSWORD) {
  await page.goto('/');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function openProperties(page: Page) {
  await page.getByRole('tab', { name: 'Properties' }).click();
  await expect(page.getByRole('tree', { name: 'Properties' })).toBeVisible();
}

const tree = (page: Page) => page.getByRole('tree', { name: 'Properties' });
const item = (page: Page, name: string) => tree(page).getByRole('treeitem', { name, exact: true });

/** Opens the folders of a path one by one, e.g. `global/e2e.../a`. */
async function expandPath(page: Page, path: string) {
  for (const name of path.split('/')) {
    const folder = tree(page).locator(`[role=treeitem][aria-expanded][aria-label="${name}"]`);
    if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
    await expect(folder).toHaveAttribute('aria-expanded', 'true');
  }
}

let admin: string;

test.beforeAll(async ({ request }) => {
  admin = await accessTokenFor(request, 'admin', E2E_ADMIN_PASSWORD);
  await put(request, admin, `${ROOT}/hello`, 'Hello tree');
  const attached = await command(
    request,
    admin,
    'property.attachment.put',
    { key: `${ROOT}/hello`, name: 'notes.txt' },
    'attached text',
  );
  expect(attached.status).toBe(200);
  await put(request, admin, `${ROOT}/a/b/deep`, '{"deep": true}', 'application/json');
  await put(
    request,
    admin,
    `${ROOT}/a/pipeline/greet`,
    'pipeline:\n  - set.body:\n      value: hi\n',
    'application/yaml',
  );
  // One pipeline writes a folder of 600 properties (more than one page of 500): the tree must render only the rows in view.
  const steps = Array.from(
    { length: 600 },
    (_, i) =>
      `  - property.schema.put:\n      key: ${ROOT}/many/item${String(i).padStart(3, '0')}\n      value: v\n`,
  );
  const bulk = await request.post('/api/v3/pipeline', {
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/yaml' },
    data: `pipeline:\n${steps.join('')}`,
  });
  expect(bulk.status()).toBe(200);
});

test('folders load one level at a time and long folders render only the rows in view', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('property.keys.children'))
      asked.push(new URL(r.url()).searchParams.get('pattern') ?? '');
  });
  await signIn(page);
  await openProperties(page);
  await expect(item(page, 'global')).toBeVisible();
  await expandPath(page, ROOT);
  await expect(item(page, 'hello')).toBeVisible();
  await expect(item(page, 'a')).toHaveAttribute('aria-expanded', 'false');
  expect(asked).not.toContain(`${ROOT}/a/`);
  await expect(tree(page).getByRole('treeitem', { name: 'deep' })).toHaveCount(0);

  await expandPath(page, 'a/b');
  await expect(item(page, 'deep')).toBeVisible();
  expect(asked).toContain(`${ROOT}/a/`);
  expect(asked).toContain(`${ROOT}/a/b/`);
  expect(asked.filter((p) => p.startsWith(`${ROOT}/many`))).toEqual([]);

  await item(page, 'many').click();
  await expect(item(page, 'item000')).toBeVisible();
  const rendered = await tree(page).getByRole('treeitem').count();
  expect(rendered).toBeGreaterThan(10);
  expect(rendered).toBeLessThan(150);
  await tree(page).evaluate((el) => (el.parentElement!.scrollTop = 1e6));
  await expect(item(page, 'item499')).toBeVisible();
  await expect(item(page, 'item500')).toHaveCount(0);
  await tree(page).getByRole('button', { name: 'Show more (500 shown)' }).click();
  await expect(async () => {
    await tree(page).evaluate((el) => (el.parentElement!.scrollTop = 1e6));
    await expect(item(page, 'item599')).toBeVisible({ timeout: 500 });
  }).toPass();
  expect(await tree(page).getByRole('treeitem').count()).toBeLessThan(150);
});

test('wildcard search finds keys with * and **', async ({ page }) => {
  await signIn(page);
  await openProperties(page);
  const search = page.getByLabel('Search keys');
  const results = page.getByRole('list', { name: 'Search results' });
  await search.fill(`${ROOT}/**/deep`);
  await expect(results.getByRole('listitem')).toHaveText([`${ROOT}/a/b/deep`]);
  await search.fill(`${ROOT}/*`);
  await expect(results.getByRole('listitem')).toHaveText([`${ROOT}/hello`]);
  await search.fill(`${ROOT}/a/*/*`);
  await expect(results.getByRole('listitem')).toHaveText([`${ROOT}/a/b/deep`, `${ROOT}/a/pipeline/greet`]);
  await page.screenshot({ path: `${SHOTS}/property-search.png` });
  await search.fill(`${ROOT}/many/item39*`);
  await expect(page.getByText('10 keys match')).toBeVisible();
  await search.fill(`${ROOT}/a**`);
  await expect(page.getByRole('alert').filter({ hasText: 'KEY_INVALID' })).toBeVisible();
  await search.fill(`${ROOT}/**/deep`);
  await results.getByRole('listitem').first().click();
  await expect(page.getByRole('article', { name: `Property ${ROOT}/a/b/deep` })).toBeVisible();
});

test('creates, edits (with a visible conflict), moves and deletes a property', async ({ page, request }) => {
  const key = `${ROOT}/crud/note`;
  await signIn(page);
  await openProperties(page);
  await page.getByRole('button', { name: 'New', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'New property' });
  await create.getByLabel('Key').fill(key);
  await create.getByLabel('Value').fill('first text');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  await expect(item(page, 'note')).toHaveAttribute('aria-selected', 'true');
  const view = page.getByRole('article', { name: `Property ${key}` });
  await expect(view.getByLabel('Metadata')).toContainText('text/plain');

  // Edit in the code editor and save: version 2 on the server.
  const editor = view.getByTestId('property-value').locator('.monaco-editor');
  await expect(editor).toContainText('first text');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' edited');
  // Looking at another property keeps the unsaved edit.
  await item(page, 'hello').click();
  await expect(page.getByRole('article', { name: `Property ${ROOT}/hello` })).toBeVisible();
  await item(page, 'note').click();
  await expect(editor).toContainText('first text edited');
  await view.getByRole('button', { name: 'Save' }).click();
  await expect(view.getByLabel('Metadata')).toContainText(/version\s*2/);
  let stored = await command(request, admin, 'property.get', { key });
  expect(stored.json).toMatchObject({ value: 'first text edited', version: 2 });

  // Someone else changes it while we edit: we are told at once, and saving shows a conflict, overwriting nothing.
  await editor.click();
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.type(' mine');
  expect((await command(request, admin, 'property.put', { key }, 'their text')).status).toBe(200);
  await expect(view.getByRole('status')).toContainText('changed meanwhile (now version 3)');
  await view.getByRole('button', { name: 'Save' }).click();
  await expect(view.getByRole('alert')).toContainText('Conflict');
  stored = await command(request, admin, 'property.get', { key });
  expect(stored.json).toMatchObject({ value: 'their text', version: 3 });
  await view.getByRole('button', { name: 'Discard mine, load theirs' }).click();
  await expect(editor).toContainText('their text');

  // Move.
  await view.getByRole('button', { name: 'Move' }).click();
  const move = page.getByRole('dialog', { name: `Move ${key}` });
  await move.getByLabel('Key').fill(`${key}-moved`);
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(item(page, 'note-moved')).toHaveAttribute('aria-selected', 'true');
  await expect(item(page, 'note')).toHaveCount(0);

  // Delete asks first; Cancel keeps it.
  const moved = page.getByRole('article', { name: `Property ${key}-moved` });
  await moved.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete property' });
  await expect(confirm).toContainText(`${key}-moved`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(item(page, 'note-moved')).toBeVisible();
  await moved.getByRole('button', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(item(page, 'note-moved')).toHaveCount(0);
  expect((await command(request, admin, 'property.get', { key: `${key}-moved` })).status).toBe(404);
});

test('a property changed through the API appears in the open tree without a reload', async ({
  page,
  request,
}) => {
  await signIn(page);
  await openProperties(page);
  await expect(page.getByTestId('live-state')).toHaveText('Live');
  await expandPath(page, ROOT);
  await item(page, 'hello').click();
  const view = page.getByRole('article', { name: `Property ${ROOT}/hello` });
  await expect(view.getByTestId('property-value')).toContainText('Hello tree');
  const attachments = view.getByRole('region', { name: 'Attachments' });
  await expect(attachments).toContainText('notes.txt');
  await expect(attachments).toContainText('13 B');
  const download = page.waitForEvent('download');
  await attachments.getByRole('button', { name: 'Download notes.txt' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('notes.txt');
  const { readFile } = await import('node:fs/promises');
  expect(await readFile((await file.path())!, 'utf8')).toBe('attached text');

  await put(request, admin, `${ROOT}/live-news`, 'fresh');
  await expect(item(page, 'live-news')).toBeVisible();
  await put(request, admin, `${ROOT}/live/folder/x`, 'deeper');
  await expect(item(page, 'live')).toBeVisible();
  expect(
    (await command(request, admin, 'property.put', { key: `${ROOT}/hello` }, 'Hello again')).status,
  ).toBe(200);
  await expect(view.getByTestId('property-value')).toContainText('Hello again');
  await expect(view.getByLabel('Metadata')).toContainText(/version\s*2/);
  expect((await command(request, admin, 'property.delete', { key: `${ROOT}/live-news` })).status).toBe(200);
  await expect(item(page, 'live-news')).toHaveCount(0);

  // While the reference tab is shown the tree is not listening; coming back it is as it was, and up to date.
  await page.getByRole('tab', { name: 'Reference' }).click();
  await put(request, admin, `${ROOT}/while-away`, 'missed event');
  await page.getByRole('tab', { name: 'Properties' }).click();
  await expect(item(page, 'while-away')).toBeVisible();
  await expect(item(page, 'hello')).toHaveAttribute('aria-selected', 'true');
  await page.screenshot({ path: `${SHOTS}/property-tree.png` });
  await view.getByRole('region', { name: 'Attachments' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/property-metadata.png` });
});

test('a user sees only what they may read, also live', async ({ page, request }) => {
  const name = `viewer${Date.now().toString(36)}`;
  const password = 'viewer-password-1';
  expect((await command(request, admin, 'iam.user.create', { name, password })).status).toBe(200);
  expect((await command(request, admin, 'iam.role.create', { name: 'CAN_APP_E2ESECRET' })).status).toBe(200);
  await put(request, admin, 'global/app/e2esecret/config', 'hidden');
  await put(request, admin, 'global/app/e2eopen/config', 'visible');
  const viewer = await accessTokenFor(request, name, password);
  expect(
    (await command(request, viewer, 'property.get', { key: 'global/app/e2esecret/config' })).status,
  ).toBe(403);

  await signIn(page, name, password);
  await openProperties(page);
  await expandPath(page, 'global/app');
  await expect(item(page, 'e2eopen')).toBeVisible();
  await expect(item(page, 'e2esecret')).toHaveCount(0);
  await expect(page.getByTestId('live-state')).toHaveText('Live');
  await put(request, admin, 'global/app/e2esecret/more', 'hidden too');
  await put(request, admin, 'global/app/e2eopen2/config', 'visible too');
  await expect(item(page, 'e2eopen2')).toBeVisible();
  await expect(item(page, 'e2esecret')).toHaveCount(0);
});

test('a pipeline property opens in the editor and runs', async ({ page }) => {
  await signIn(page);
  await openProperties(page);
  await expandPath(page, `${ROOT}/a/pipeline`);
  await item(page, 'greet').click();
  const view = page.getByRole('article', { name: `Property ${ROOT}/a/pipeline/greet` });
  await view.getByRole('button', { name: 'Run' }).click();
  await expect(view.getByRole('region', { name: 'Run result' })).toContainText('hi');
  await page.screenshot({ path: `${SHOTS}/property-view-pipeline.png` });
  await view.getByRole('button', { name: 'Open in editor' }).click();
  await expect(page.locator('.wb-editor .monaco-editor').first()).toContainText('value: hi');
});

test('Run tests on an app test folder shows the report', async ({ page, request }) => {
  const app = `global/app/e2etests${Date.now().toString(36)}`;
  await put(
    request,
    admin,
    `${app}/test/adds`,
    'pipeline:\n  - set.body:\n      value: 2\n  - assert:\n      equals: 2\n',
    'application/yaml',
  );
  await put(
    request,
    admin,
    `${app}/test/breaks`,
    'pipeline:\n  - set.body:\n      value: 2\n  - assert:\n      message: two is not three\n      equals: 3\n',
    'application/yaml',
  );
  await signIn(page);
  await openProperties(page);
  await expandPath(page, `${app}/test`);
  await page.getByRole('button', { name: 'Run tests' }).click();
  const report = page.getByRole('region', { name: 'Test report' });
  await expect(report).toContainText('1 of 2 passed, 1 failed');
  await expect(report.getByRole('row', { name: /adds/ })).toContainText('passed');
  await expect(report.getByRole('row', { name: /breaks/ })).toContainText('two is not three');
  await expect(report.getByRole('row', { name: /breaks/ })).toContainText('line 4');
  await page.screenshot({ path: `${SHOTS}/property-test-report.png` });
});

test('the command reference searches, shows parameters and inserts a step', async ({ page }) => {
  await signIn(page);
  await page.getByRole('tab', { name: 'Reference' }).click();
  const reference = page.getByRole('region', { name: 'Command reference' });
  await reference.getByLabel('Search commands').fill('property.put');
  const entry = reference.getByTestId('command-property.put');
  await expect(entry).toContainText('version');
  await expect(entry).toContainText('integer');
  await reference.getByLabel('Search commands').fill('property.copy');
  await expect(
    reference.getByTestId('command-property.copy').getByRole('listitem', { name: 'to' }),
  ).toContainText('required');
  await reference.getByLabel('Search commands').fill('property.schema.put');
  const schemaPut = reference.getByTestId('command-property.schema.put');
  const strategy = schemaPut.getByRole('listitem', { name: 'existStrategy' });
  await expect(strategy).toContainText('default update');
  await expect(strategy).toContainText('One of: update, skip, error');
  await page.screenshot({ path: `${SHOTS}/command-reference.png` });
  await reference
    .getByTestId('command-property.schema.put')
    .getByRole('button', { name: 'Insert into editor' })
    .click();
  await expect(page.locator('.wb-editor .monaco-editor').first()).toContainText('property.schema.put');
});
