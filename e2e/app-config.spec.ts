/**
 * An app's configuration in the workbench, in Chromium: `config/app`'s `show` role decides who is offered the
 * app (and the server refuses its instances to everyone else); a form configuration's layout and a list
 * configuration's columns shape the corpus invoice form and its list; the error summary names fields by
 * their titles; a submission shows the listener run it caused and its run record. Screenshots wide and narrow.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { corpusPresent, publishCorpusApp } from './support/apps';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';
import { SHOTS } from './support/workbench';

async function shots(page: Page, name: string): Promise<void> {
  for (const [label, width, height] of [
    ['wide', 1440, 900],
    ['narrow', 1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: false });
  }
}

async function putJson(request: APIRequestContext, token: string, key: string, value: unknown) {
  await callCommand(
    request,
    token,
    'property.schema.put',
    { key, type: 'application/json', evalValue: 'false' },
    JSON.stringify(value),
  );
}

async function instancesStatus(request: APIRequestContext, token: string, object: string): Promise<number> {
  const response = await request.post('/api/v3/command/property.object.instances', {
    headers: { authorization: `Bearer ${token}` },
    form: { object },
  });
  return response.status();
}

test('an app guarded by show is not offered to a user without its role, and its instances are refused', async ({
  page,
  browser,
  request,
}) => {
  const admin = await accessTokenFor(request);
  const suffix = Date.now().toString(36);
  const [guarded, open] = [`e2eshow${suffix}`, `e2eopen${suffix}`];
  for (const app of [guarded, open]) {
    await putJson(request, admin, `global/app/${app}/config/app`, {
      title: app,
      ...(app === guarded ? { show: `CAN_APP_${guarded.toUpperCase()}` } : {}),
    });
    await putJson(request, admin, `global/app/${app}/object/note/v1/schema`, {
      type: 'object',
      properties: { text: { type: 'string', title: 'Text' } },
    });
    await putJson(request, admin, `global/app/${app}/object/note/v1/instance/n1`, { text: 'hello' });
  }
  const name = `visitor${suffix}`;
  const password = 'visitor-password-1';
  await callCommand(request, admin, 'iam.user.create', { name, password });
  const visitor = await accessTokenFor(request, name, password);
  expect(await instancesStatus(request, visitor, `global/app/${guarded}/object/note/v1`)).toBe(403);
  expect(await instancesStatus(request, visitor, `global/app/${open}/object/note/v1`)).toBe(200);

  await signIn(page, name, password);
  await page.getByRole('tab', { name: 'Apps' }).click();
  const apps = page.getByRole('navigation', { name: 'Apps' });
  await expect(apps.getByRole('link', { name: open })).toBeVisible();
  await expect(apps.getByRole('link', { name: guarded })).toHaveCount(0);
  await shots(page, 'apps-without-show-role');
  // Going there by address: the server refuses the list's data and the page says so.
  await page.goto(`/#/list?object=${encodeURIComponent(`global/app/${guarded}/object/note/v1`)}`);
  await expect(page.getByRole('alert').first()).toContainText(/may not read/);

  // The admin, in a session of their own, is offered both.
  const adminPage = await browser.newPage({ baseURL: new URL(page.url()).origin });
  await signIn(adminPage);
  await adminPage.getByRole('tab', { name: 'Apps' }).click();
  const adminApps = adminPage.getByRole('navigation', { name: 'Apps' });
  await expect(adminApps.getByRole('link', { name: guarded })).toBeVisible();
  await adminPage.close();
});

test.describe('the invoice form with its form and list configuration', () => {
  test.skip(!corpusPresent, 'the corpus is absent');
  // The corpus app is shared with forms.spec.ts, which expects it as it ships and without instances: the
  // configurations and the instance this test adds go again.
  test.afterEach(async ({ request }) => {
    const token = await accessTokenFor(request);
    const app = 'global/app/invoiceform';
    for (const pattern of [
      `${app}/form/invoiceform`,
      `${app}/list/invoiceform`,
      `${app}/object/invoiceform/v1/instance/*`,
    ])
      await callCommand(request, token, 'property.schema.delete', { pattern });
  });

  test('layout, titles in the error summary, columns, and the listener run of a submission', async ({
    page,
    request,
  }) => {
    const token = await accessTokenFor(request);
    await publishCorpusApp(request, token, 'invoiceform');
    const app = 'global/app/invoiceform';
    const object = `${app}/object/invoiceform/v1`;
    await putJson(request, token, `${app}/form/invoiceform`, {
      title: 'Submit an invoice',
      description: 'Sender and order side by side, then the invoice.',
      schema: `property.list?filter=${object}/schema`,
      layout: {
        orientation: 'vertical',
        items: [
          {
            orientation: 'horizontal',
            items: [{ field: 'senderName' }, { field: 'senderEmail' }, { field: 'bestellung', width: '200' }],
          },
          { field: 'rechnung' },
        ],
      },
    });
    await putJson(request, token, `${app}/list/invoiceform`, {
      title: 'Invoices',
      columns: ['bestellung', { field: 'senderName', title: 'Company' }],
    });

    await page.goto(`/#/form?object=${encodeURIComponent(object)}`);
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'New Submit an invoice' })).toBeVisible();
    // Only the fields of the layout, the first three in one row.
    await expect(page.locator('#root_nachricht')).toHaveCount(0);
    const tops = await Promise.all(
      ['senderName', 'senderEmail', 'bestellung'].map(
        async (f) => (await page.locator(`#root_${f}`).boundingBox())!.y,
      ),
    );
    expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(4);
    const fileTop = (await page.locator('#root_rechnung').boundingBox())!.y;
    expect(fileTop).toBeGreaterThan(Math.max(...tops) + 10);

    await page.locator('#root_senderName').fill('ACME GmbH');
    await page.locator('#root_senderEmail').fill('not an address');
    await page.locator('#root_bestellung').fill('PO-9');
    await page.getByRole('button', { name: 'Submit' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'attention before submitting' });
    await expect(summary).toContainText('Ihre E-Mail: must match format "email"');
    await expect(summary).not.toContainText('.senderEmail');
    await shots(page, 'form-configured');
    const serious = (await new AxeBuilder({ page }).analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(serious.map((v) => v.id)).toEqual([]);

    await page.locator('#root_senderEmail').fill('billing@acme.example');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByText(/^Stored as /)).toBeVisible();
    // The app's listener ran (as its author, the admin here): its run is shown with its status and record.
    const runs = page.getByRole('list', { name: 'Listener runs' });
    await expect(runs.getByRole('listitem').first()).toContainText(`${app}/pipeline/`, { timeout: 30_000 });
    await expect(runs.getByRole('listitem').first()).toHaveAttribute('data-status', /succeeded|failed/, {
      timeout: 30_000,
    });
    await runs
      .getByRole('button', { name: /^Run record/ })
      .first()
      .click();
    await expect(page.getByRole('definition').filter({ hasText: /ms$/ }).first()).toBeVisible();

    await page.getByRole('button', { name: 'Open list' }).click();
    const headers = page.getByRole('columnheader');
    await expect(headers).toHaveText(['Bestellnummer', 'Company', 'Actions']);
    await expect(page.getByRole('heading', { name: 'Invoices' })).toBeVisible();
    await expect(page.getByTestId('list-rows').getByText('PO-9', { exact: true }).first()).toBeVisible();
    await shots(page, 'list-configured');
  });
});
