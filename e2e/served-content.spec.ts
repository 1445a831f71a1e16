/**
 * Issue 18, finding 3, in Chromium: a stored HTML property with a script, opened by its URL the way a user with
 * the browser's Basic credentials would, renders without running the script (the API answers under
 * `Content-Security-Policy: sandbox`); and the workbench itself runs under its own policy without violations.
 */
import { expect, test } from '@playwright/test';
import { E2E_ADMIN_PASSWORD } from '../playwright.config';
import { accessTokenFor, signIn } from './support/sign-in';

const KEY = `global/e2e-served${Date.now().toString(36)}/page`;
const SHOTS = 'test-results/screenshots';
const PAGE = [
  '<html><head><title>stored page</title></head><body>',
  '<h1>Stored HTML</h1><p id="state">script did not run</p>',
  '<script>document.title = "pwned"; document.getElementById("state").textContent = "SCRIPT RAN";',
  'fetch("/api/v3/command/property.schema.put?key=global/pwned", { method: "POST" });</script>',
  '<img src="x" onerror="document.body.dataset.pwned = 1">',
  '</body></html>',
].join('');

test('a stored HTML property opened by its URL does not run its script; the workbench runs under its CSP', async ({
  browser,
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  const stored = await request.post(
    `/api/v3/command/property.schema.put?${new URLSearchParams({ key: KEY, type: 'text/html;encoding=base64' })}`,
    {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      data: Buffer.from(PAGE).toString('base64'),
    },
  );
  expect(stored.status(), await stored.text()).toBe(200);

  // The workbench under its policy: signs in, loads Monaco, reports no CSP violation.
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await signIn(page);
  await expect(page.locator('.monaco-editor').first()).toBeVisible();
  expect(violations).toEqual([]);

  // The property by its URL, with the browser holding Basic credentials (the CSRF-prone setup).
  const context = await browser.newContext({
    httpCredentials: { username: 'admin', password: E2E_ADMIN_PASSWORD },
  });
  const viewer = await context.newPage();
  const blocked: string[] = [];
  viewer.on('console', (message) => blocked.push(message.text()));
  const response = await viewer.goto(`/api/v3/command/property.value.get?key=${encodeURIComponent(KEY)}`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-security-policy']).toMatch(/^sandbox/);
  await expect(viewer.getByRole('heading', { name: 'Stored HTML' })).toBeVisible();
  await viewer.waitForTimeout(500);
  expect(await viewer.title()).toBe('stored page');
  await expect(viewer.locator('#state')).toHaveText('script did not run');
  expect(await viewer.evaluate(() => document.body.dataset.pwned)).toBeUndefined();
  // The page has an opaque origin: it cannot read the workbench's storage or cookies.
  expect(await viewer.evaluate(() => window.origin)).toBe('null');
  await viewer.screenshot({ path: `${SHOTS}/served-html-sandboxed.png` });
  expect(blocked.some((text) => /sandbox|Blocked script/i.test(text))).toBe(true);

  const pwned = await request.get('/api/v3/command/property.exists?key=global/pwned', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await pwned.json()).toBe(false);
  await context.close();
});
