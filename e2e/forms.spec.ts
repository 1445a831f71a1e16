/**
 * The corpus apps' forms in the workbench, end to end in Chromium: each app with a form and a file field is
 * published, its form renders from the object schema, a submission with a PDF creates the instance with
 * its file, the app's listener runs (its secure delivery appears in the outbox) and the list shows the
 * instance. Bad input: a field violating the schema (shown at the field, nothing stored), a file over the
 * limit, a schema that is not valid JSON Schema. Screenshots wide and narrow; axe-core on the form.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { corpusPresent, publishCorpusApp } from './support/apps';
import { E2E_ADMIN_PASSWORD } from '../playwright.config';
import { accessTokenFor, callCommand } from './support/sign-in';
import { fillForm, seriousViolations } from './support/forms';
import { SHOTS } from './support/workbench';

const FORM_APPS: [string, Record<string, string | boolean>, string][] = [
  [
    'applicationform',
    { vorname: 'Ann', nachname: 'Lee', email: 'ann@example.com', kontakt: true },
    'bewerbungsunterlagen',
  ],
  [
    'invoiceform',
    { senderName: 'ACME GmbH', senderEmail: 'billing@acme.example', bestellung: 'PO-7' },
    'rechnung',
  ],
  [
    'travelexpenseform',
    {
      antragsteller: 'Bo',
      reiseziel: 'Berlin',
      reisezeitVon: '2026-11-02',
      ausgabeTyp: 'Taxi',
      betrag: '42.5',
    },
    'beleg',
  ],
  [
    'sickleaveform',
    { antragsteller: 'Cy', krankmeldungAb: '2026-11-20', krankmeldungBis: '2026-11-22' },
    'datei',
  ],
];

/** Signs in on the page; the workbench chunk may take a while on a loaded machine. */
async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-user')).toBeVisible({ timeout: 30_000 });
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

async function shots(page: Page, name: string): Promise<void> {
  for (const [label, width, height] of [
    ['wide', 1600, 1000],
    ['narrow', 1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: false });
  }
}

/** What the corpus lacks and the real installation holds: the message template and the recipient config. */
async function installOutsideCorpus(request: APIRequestContext, token: string, app: string) {
  await callCommand(
    request,
    token,
    'property.schema.put',
    { key: `global/app/${app}/template/${app}-message`, evalValue: 'false' },
    '<p>Neu</p>',
  );
  await callCommand(
    request,
    token,
    'property.schema.put',
    { key: `global/app/${app}/config/${app}`, type: 'application/json', evalValue: 'false' },
    JSON.stringify({ recipient: `${app}-office@example.com` }),
  );
}

test.skip(!corpusPresent, 'the corpus is absent');

for (const [app, fields, fileField] of FORM_APPS) {
  test(`${app}: the form submits with a PDF, the listener delivers it, the list shows it`, async ({
    page,
    request,
  }) => {
    const token = await accessTokenFor(request);
    await publishCorpusApp(request, token, app);
    await installOutsideCorpus(request, token, app);
    const object = `global/app/${app}/object/${app}/v1`;
    const deliveriesBefore = (await callCommand<unknown[]>(request, token, 'delivery.outbox.list', {}))
      .length;

    await page.goto(`/#/form?object=${encodeURIComponent(object)}`);
    await signIn(page);
    await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
    await fillForm(page, fields);
    await page
      .locator(`#root_${fileField}`)
      .setInputFiles({ name: `${app}.pdf`, mimeType: 'application/pdf', buffer: PDF });
    await expect(page.getByText(`${app}.pdf (${PDF.length} bytes)`)).toBeVisible();
    await shots(page, `form-${app}`);
    expect(await seriousViolations(page), `${app} form`).toEqual([]);
    await page.getByRole('button', { name: 'Submit' }).click();
    const status = page.getByText(/^Stored as /);
    await expect(status).toBeVisible();
    const key = (await status.textContent())!.replace(/^Stored as |\.$/g, '');

    const stored = await callCommand<Record<string, { filename: string; content: string }>>(
      request,
      token,
      'property.value.get',
      { key },
    );
    expect(stored[fileField]!.filename).toBe(`${app}.pdf`);
    expect(Buffer.from(stored[fileField]!.content, 'base64').equals(PDF)).toBe(true);
    // The app's event.listen pipeline ran: its secure delivery is in the outbox.
    await expect
      .poll(async () => (await callCommand<unknown[]>(request, token, 'delivery.outbox.list', {})).length, {
        timeout: 20_000,
      })
      .toBe(deliveriesBefore + 1);
    await expect(page.getByRole('region', { name: 'What the submission caused' })).toBeVisible();

    await page.getByRole('button', { name: 'Open list' }).click();
    await expect(page.getByTestId('list-total')).toHaveText('1 instances');
    const first = Object.values(fields).find((v) => typeof v === 'string') as string;
    await expect(page.getByTestId('list-rows').getByText(first, { exact: true })).toBeVisible();
    await shots(page, `list-${app}`);
    expect(await seriousViolations(page), `${app} list`).toEqual([]);
  });
}

test('bad input: a field violating the schema is shown at the field and nothing is stored; a file over the limit is refused', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  await publishCorpusApp(request, token, 'invoiceform');
  const object = 'global/app/invoiceform/object/invoiceform/v1';
  // The app's own test above may have stored one already: what counts is that this submission adds none.
  const before = await callCommand<{ total: number }>(request, token, 'property.object.instances', {
    object,
  });
  await page.goto(`/#/form?object=${encodeURIComponent(object)}`);
  await signIn(page);
  await page.locator('#root_senderEmail').fill('not an address');
  await page.locator('#root_nachricht').fill('x'.repeat(2001));
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.locator('#root_senderEmail__error')).toContainText('must match format "email"');
  await expect(page.locator('#root_nachricht__error')).toContainText('2000');
  // Over the form limit (100 MB; from a file: Playwright sends at most 50 MB from memory).
  const huge = join(mkdtempSync(join(tmpdir(), 'form-huge-')), 'huge.pdf');
  writeFileSync(huge, Buffer.alloc(101 * 1024 * 1024));
  await page.locator('#root_rechnung').setInputFiles(huge);
  await expect(page.getByRole('alert').filter({ hasText: 'huge.pdf is 101.0 MB' })).toBeVisible();
  await shots(page, 'form-invalid');
  const page0 = await callCommand<{ total: number }>(request, token, 'property.object.instances', { object });
  expect(page0.total).toBe(before.total);
});

test('an object without a readable schema gets a clear message and the workbench goes on', async ({
  page,
}) => {
  // The server refuses to store a schema that is not valid JSON Schema (server/store/object-schema-validator),
  // so the browser meets a broken schema only as a missing one (or one its own reading refuses: unit-tested).
  const object = 'global/app/broken/object/thing/v1';
  await page.goto(`/#/form?object=${encodeURIComponent(object)}`);
  await signIn(page);
  await expect(page.getByRole('alert')).toContainText(`The schema ${object}/schema cannot be read`);
  await page.getByRole('tab', { name: 'Properties' }).click();
  await expect(page.getByRole('tree')).toBeVisible();
});
