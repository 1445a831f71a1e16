/**
 * The corpus apps whose forms have no file field, end to end in Chromium: each is published, its form renders
 * from the object schema, a submission creates the instance, the app's listener runs and its effect is there
 * (a barcode image on the drive, a mail in the outbox), and the list shows the instance. Screenshots wide and
 * narrow; axe-core on the form. (The apps with a file field: forms.spec.ts.)
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { corpusPresent, publishCorpusApp } from './support/apps';
import { fillForm, seriousViolations } from './support/forms';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';
import { screenshotsWideAndNarrow } from './support/workbench';

test.skip(!corpusPresent, 'the corpus is absent');

interface OutboxMail {
  name: string;
}

async function outboxNames(request: APIRequestContext, token: string): Promise<string[]> {
  return (await callCommand<OutboxMail[]>(request, token, 'mail.outbox.list', {})).map((m) => m.name);
}

/** The raw message (headers and body) of a mail in the outbox. */
async function readMail(request: APIRequestContext, token: string, name: string): Promise<string> {
  const response = await request.post('/api/v3/command/mail.outbox.read', {
    headers: { authorization: `Bearer ${token}` },
    form: { name },
  });
  expect(response.ok()).toBe(true);
  return response.text();
}

interface Mail {
  to: string;
  subject: string;
  html: string;
}

/** A mail that arrived in the outbox since `before`, once there is one that `wanted` accepts. */
async function newMail(
  request: APIRequestContext,
  token: string,
  before: string[],
  wanted: (mail: Mail) => boolean,
): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        for (const name of await outboxNames(request, token)) {
          if (before.includes(name)) continue;
          const parsed = await simpleParser(await readMail(request, token, name));
          const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
          const mail = {
            to: to?.value[0]?.address ?? '',
            subject: parsed.subject ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          };
          if (wanted(mail)) found = mail;
        }
        return found !== undefined;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return found!;
}

/** Opens the object's form, fills and submits it; answers the stored instance's key. */
async function submitForm(page: Page, object: string, fields: Record<string, string>, shot: string) {
  await page.goto(`/#/form?object=${encodeURIComponent(object)}`);
  await signIn(page);
  await expect(page.getByRole('button', { name: 'Submit' })).toBeVisible();
  await fillForm(page, fields);
  await screenshotsWideAndNarrow(page, `form-${shot}`);
  expect(await seriousViolations(page), `${shot} form`).toEqual([]);
  await page.getByRole('button', { name: 'Submit' }).click();
  const status = page.getByText(/^Stored as /);
  await expect(status).toBeVisible();
  return (await status.textContent())!.replace(/^Stored as |\.$/g, '');
}

/** The list of the object shows a row with `text`. */
async function listShows(page: Page, text: string, shot: string): Promise<void> {
  await page.getByRole('button', { name: 'Open list' }).click();
  await expect(page.getByTestId('list-rows').getByText(text, { exact: true })).toBeVisible();
  await screenshotsWideAndNarrow(page, `list-${shot}`);
  expect(await seriousViolations(page), `${shot} list`).toEqual([]);
}

test('barcode: the submitted form becomes a barcode image on the drive, and the list shows it', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  await publishCorpusApp(request, token, 'barcode');
  const name = `e2e-${Date.now()}`;
  await submitForm(
    page,
    'global/app/barcode/object/barcode/v1',
    { barcodeName: name, barcodeText: 'PW-4711', barcodeFormat: 'QR_CODE' },
    'barcode',
  );
  let png: Buffer = Buffer.alloc(0);
  await expect
    .poll(
      async () => {
        const response = await request.post('/api/v3/command/drive.read', {
          headers: { authorization: `Bearer ${token}` },
          form: { path: `${name}.png` },
        });
        if (response.ok()) png = await response.body();
        return response.status();
      },
      { timeout: 20_000 },
    )
    .toBe(200);
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  await listShows(page, name, 'barcode');
});

test('serverroom: a logged access is stamped and mailed, and the list shows it', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  await publishCorpusApp(request, token, 'serverroom');
  const before = await outboxNames(request, token);
  const key = await submitForm(
    page,
    'global/app/serverroom/object/accessprotocol/v1',
    { action: 'betreten' },
    'serverroom',
  );
  const mail = await newMail(request, token, before, (m) =>
    m.subject.startsWith('Serverraum wurde betreten'),
  );
  expect(mail.to).toBe('s.niedermeier@logabit.com'); // the app's config/app#emails
  // The listener stored the access back with the user and the time.
  const stored = await callCommand<Record<string, unknown>>(request, token, 'property.value.get', { key });
  expect(stored).toMatchObject({ action: 'betreten', employee: expect.any(String) });
  expect(stored.dateTime).toBeTruthy();
  await listShows(page, 'betreten', 'serverroom');
});

for (const form of ['accessrequestform', 'equipmentrequestform']) {
  test(`itsupport ${form}: the request is mailed to the configured recipient, and the list shows it`, async ({
    page,
    request,
  }) => {
    const token = await accessTokenFor(request);
    await publishCorpusApp(request, token, 'itsupport');
    // Not in the corpus, put in place as the real installation holds them: the template and the recipient.
    await callCommand(
      request,
      token,
      'property.schema.put',
      { key: `global/app/itsupport/template/${form}-message`, evalValue: 'false' },
      '<p>Anfrage von ${antragsteller} ab #{model.bedarfAb}</p>',
    );
    await callCommand(
      request,
      token,
      'property.schema.put',
      { key: 'global/app/itsupport/config/itsupport', type: 'application/json', evalValue: 'false' },
      JSON.stringify({ recipient: 'it-desk@example.com' }),
    );
    const before = await outboxNames(request, token);
    const requester = `Req ${form} ${Date.now()}`;
    await submitForm(
      page,
      `global/app/itsupport/object/${form}/v1`,
      { antragsteller: requester, bedarfAb: '2026-12-24' },
      `itsupport-${form}`,
    );
    const mail = await newMail(request, token, before, (m) => m.html.includes(requester));
    expect(mail.to).toBe('it-desk@example.com');
    expect(mail.subject).toMatch(/^Formular IT-.+ wurde ausgefüllt$/);
    expect(mail.html).toContain(`Anfrage von ${requester} ab 2026-12-24`);
    await listShows(page, requester, `itsupport-${form}`);
  });
}
