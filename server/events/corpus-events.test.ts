// The real apps that listen to form submissions, run from their real trigger: the app is published with
// `pi publish`, a form instance is created under the watched key, and the listening pipeline's effect
// is read back, down to the secure delivery's download link and the bytes it gives.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { STAGED_ATTACHMENT_NAME, STAGING_TTL_MINUTES, stagingKeyOf } from '../../shared/property';
import { readFolder } from '../cli/publish';
import { downloadFile, outboxMails, receivedDelivery } from '../testing/delivery-download';
import { eventually } from '../testing/eventually';
import { http } from '../testing/http-client';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/test-server';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/app-examples');
const present = existsSync(corpus);
if (!present) console.warn(`corpus event tests skipped: the corpus is absent (${corpus})`);

let server: TestServer;
beforeAll(async () => {
  // a real socket: the pi CLI, a child process, is a client
  if (present) server = await startTestServer({ socket: true });
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

async function pipeline(steps: unknown[]) {
  const response = await http(server.url, '/api/v3/pipeline', {
    auth: server.adminAuth,
    type: 'application/json',
    body: JSON.stringify({ pipeline: steps }),
  });
  expect(response.status, response.text).toBe(200);
  return response.json;
}

const PI = resolve(import.meta.dirname, '../../bin/pi.js');
const work = mkdtempSync(join(tmpdir(), 'corpus-events-'));

/**
 * Publishes the app with the real `pi publish <folder>` (a copy of the app's folder under global/app/), as
 * its author, the admin; answers the keys it holds.
 */
async function publishApp(app: string): Promise<string[]> {
  const folder = join(work, app);
  cpSync(join(corpus, 'global/app', app), join(folder, 'global/app', app), { recursive: true });
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PIPEWORK_')));
  const result = await new Promise<{ code: number; out: string }>((done) => {
    execFile(
      process.execPath,
      [PI, 'publish', folder],
      {
        cwd: work,
        env: {
          ...env,
          XDG_CONFIG_HOME: join(work, 'config'),
          PIPEWORK_URL: server.url,
          PIPEWORK_USER: 'admin',
          PIPEWORK_PASSWORD: TEST_ADMIN_PASSWORD,
        },
      },
      (error, stdout, stderr) => done({ code: error ? 1 : 0, out: stdout + stderr }),
    );
  });
  expect(result.code, result.out).toBe(0);
  expect(result.out).toMatch(/ 0 failed\./);
  return readFolder(folder).map((p) => p.key);
}

/** Submits a form as the workbench does: a new JSON instance property under the app's object. */
async function submitForm(key: string, form: Record<string, unknown>) {
  await pipeline([
    {
      'property.schema.put': { key, value: JSON.stringify(form), type: 'application/json', evalValue: false },
    },
  ]);
}

async function driveFile(path: string): Promise<Buffer | undefined> {
  const response = await fetch(`${server.url}/api/v3/command/drive.read?path=${encodeURIComponent(path)}`, {
    headers: { authorization: server.adminAuth },
  });
  return response.status === 200 ? Buffer.from(await response.arrayBuffer()) : undefined;
}

describe.skipIf(!present)('corpus apps run from their property.created event', () => {
  it('barcode: a submitted form becomes a PNG on the drive (filter reads body.target.path)', async () => {
    expect(await publishApp('barcode')).toContain('global/app/barcode/pipeline/create-barcode');
    expect(await driveFile('evt-4711.png')).toBeUndefined();
    const form = { barcodeName: 'evt-4711', barcodeText: 'EVT-4711', barcodeFormat: 'QR_CODE' };
    await submitForm('global/app/barcode/object/barcode/v1/instance/evt-4711', form);
    const png = await eventually(() => driveFile('evt-4711.png'), { every: 50, what: 'the barcode PNG' });
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });

  it('barcode: an instance of another app does not start it', async () => {
    await submitForm('global/app/other/object/barcode/v1/instance/evt-other', {
      barcodeName: 'evt-other',
      barcodeText: 'X',
      barcodeFormat: 'QR_CODE',
    });
    await new Promise((r) => setTimeout(r, 500));
    expect(await driveFile('evt-other.png')).toBeUndefined();
  });

  it('serverroom: a logged access is stamped with the user and time, stored back and mailed', async () => {
    await publishApp('serverroom');
    const key = 'global/app/serverroom/object/accessprotocol/v1/instance/visit-1';
    await submitForm(key, { action: 'betreten' });
    const [mail] = await eventually(
      async () => {
        const list = (await pipeline([{ 'mail.outbox.list': {} }])) as { name: string }[];
        return list.length > 0 ? list : undefined;
      },
      { every: 50, what: 'a mail in the outbox' },
    );
    const eml = await fetch(
      `${server.url}/api/v3/command/mail.outbox.read?name=${encodeURIComponent(mail!.name)}`,
      { headers: { authorization: server.adminAuth } },
    );
    const text = await eml.text();
    expect(text).toContain('To: s.niedermeier@logabit.com'); // from the app's config/app#emails
    expect(text).toContain('Subject: Serverraum wurde betreten von: Admin');
    const stored = (await pipeline([{ 'property.value.get': { key } }])) as Record<string, unknown>;
    expect(stored).toMatchObject({ action: 'betreten', employee: expect.any(String) });
    expect(stored.dateTime).toBeTruthy();
  });

  /**
   * The four form apps end their submit pipeline with property.send.delivery: the submitted form goes to the
   * recipient the app's config names as a secure delivery (privacy level L02_CREDENTIALS), its file fields
   * as the files. Not in the corpus, put in place as the real product's installation holds them: the message
   * template (template/<form>-message) and the config the pipeline reads (config/<form>#recipient; the
   * corpus ships config/app.json, whose recipient points into the admin app).
   */
  const FORM_APPS: [string, Record<string, unknown>, string][] = [
    [
      'applicationform',
      { vorname: 'Ann', nachname: 'Lee', email: 'ann@example.com', startdate: '2026-12-01', kontakt: true },
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
        betrag: 42.5,
      },
      'beleg',
    ],
    [
      'sickleaveform',
      { antragsteller: 'Cy', krankmeldungAb: '2026-11-20', krankmeldungBis: '2026-11-22' },
      'datei',
    ],
  ];

  /** What the corpus lacks and the real product's installation holds: the message template and the config. */
  async function installOutsideCorpus(app: string, template: string, recipient: string) {
    await pipeline([
      {
        'property.schema.put': {
          key: `global/app/${app}/template/${app}-message`,
          value: template,
          evalValue: false,
        },
      },
      {
        'property.schema.put': {
          key: `global/app/${app}/config/${app}`,
          value: JSON.stringify({ recipient }),
          type: 'application/json',
          evalValue: false,
        },
      },
    ]);
  }

  it.each(FORM_APPS)('%s: its submit pipeline validates without a problem', async (app) => {
    const response = await http(server.url, '/api/v3/command/pipeline.validate', {
      body: readFileSync(resolve(corpus, `global/app/${app}/pipeline/submit.pi.yaml`), 'utf8'),
      type: 'text/plain',
      auth: server.adminAuth,
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual([]);
  });

  it.each(FORM_APPS)(
    '%s: a submitted form is delivered to the configured recipient with a working download link',
    async (app, fields, fileField) => {
      const recipient = `${app}-office@example.com`;
      await publishApp(app);
      await installOutsideCorpus(
        app,
        `<p>Neue Einreichung (\${model.${Object.keys(fields)[0]}}) mit #{model.${fileField}.filename}</p>`,
        recipient,
      );
      const pdf = Buffer.from(`%PDF-1.4 ${app} attachment \u0000\u00ff bytes`, 'latin1');
      const form = {
        ...fields,
        [fileField]: {
          filename: `${app}.pdf`,
          contentLength: pdf.length,
          contentType: 'application/pdf',
          contentEncoding: 'base64',
          content: pdf.toString('base64'),
        },
      };
      const key = `global/app/${app}/object/${app}/v1/instance/${crypto.randomUUID()}`;
      await submitForm(key, form);
      const subject = (
        parse(readFileSync(resolve(corpus, `global/app/${app}/pipeline/submit.pi.yaml`), 'utf8')) as {
          pipeline: Record<string, { subject?: string }>[];
        }
      ).pipeline[1]!['property.send.delivery']!.subject!;
      // L02_CREDENTIALS mails the link and then the password: wait for both, the second may come a moment later.
      const received = await eventually(
        async () => {
          const got = await receivedDelivery(server, recipient, subject);
          return got?.password ? got : undefined;
        },
        { every: 50, what: `the ${app} delivery mail and its password mail` },
      );
      expect(received.linkMail.html).toContain(
        `Neue Einreichung (${String(Object.values(fields)[0])}) mit ${app}.pdf`,
      );
      expect(received.password, 'L02_CREDENTIALS mails a password').toBeDefined();
      const got = await downloadFile(server, received);
      expect(got.page).toContain(`${app}.pdf`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('application/pdf');
      expect(got.bytes.equals(pdf)).toBe(true);
    },
  );

  it('invoiceform: a large file the form staged is delivered once, as the instance attachment', async () => {
    const recipient = 'invoiceform-large@example.com';
    await publishApp('invoiceform');
    await installOutsideCorpus('invoiceform', '<p>Neue Rechnung: #{model.rechnung.filename}</p>', recipient);
    const { properties, iam } = server.services;
    const admin = (await iam.principalByUsername('admin'))!;
    // What the form does for a file above the inline limit (docs/forms-and-lists.md).
    const staging = stagingKeyOf(admin.uuid, crypto.randomUUID());
    await properties.create(admin, { key: staging, value: '{}', timeToLive: STAGING_TTL_MINUTES });
    const pdf = Buffer.alloc(1_500_000, 7);
    pdf.write('%PDF-1.4\n', 'latin1');
    await properties.attachments.putChunk(admin, staging, STAGED_ATTACHMENT_NAME, pdf.subarray(0, 1_000_000));
    await properties.attachments.putChunk(admin, staging, STAGED_ATTACHMENT_NAME, pdf.subarray(1_000_000));
    const file = { filename: 'big.pdf', contentType: 'application/pdf', contentLength: pdf.length };
    await submitForm(`global/app/invoiceform/object/invoiceform/v1/instance/${crypto.randomUUID()}`, {
      senderName: 'ACME GmbH',
      senderEmail: 'billing@acme.example',
      rechnung: { ...file, attachment: staging },
    });
    const received = await eventually(
      async () => {
        const got = await receivedDelivery(server, recipient, 'Formular Rechnungseingang wurde ausgefüllt');
        return got?.password ? got : undefined;
      },
      { every: 50, what: 'the delivery of the large invoice' },
    );
    const got = await downloadFile(server, received);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(pdf)).toBe(true);
    // Only the attachment: the field, whose content is now the attachment's name, is not a second file.
    expect((await downloadFile(server, received, 1)).status).toBe(404);
  });

  it('a form app configured with a malformed recipient stores and sends nothing for that form', async () => {
    await publishApp('sickleaveform');
    const config = (recipient: string) =>
      installOutsideCorpus('sickleaveform', '<p>Krankmeldung von ${antragsteller}</p>', recipient);
    await config('office at example.com');
    const before = ((await pipeline([{ 'delivery.outbox.list': {} }])) as unknown[]).length;
    const mails = (await outboxMails(server)).length;
    await submitForm(`global/app/sickleaveform/object/sickleaveform/v1/instance/${crypto.randomUUID()}`, {
      antragsteller: 'Dee',
    });
    await new Promise((r) => setTimeout(r, 700));
    // The next form, with the address mended, is delivered: exactly one delivery and its two mails more.
    await config('mended@example.com');
    await submitForm(`global/app/sickleaveform/object/sickleaveform/v1/instance/${crypto.randomUUID()}`, {
      antragsteller: 'Eli',
    });
    await eventually(
      () => receivedDelivery(server, 'mended@example.com', 'Formular Krankmeldung wurde ausgefüllt'),
      {
        every: 50,
        what: 'the mended delivery',
      },
    );
    expect((await pipeline([{ 'delivery.outbox.list': {} }])) as unknown[]).toHaveLength(before + 1);
    expect((await outboxMails(server)).length).toBe(mails + 2);
  });

  it.each(['accessrequestform', 'equipmentrequestform'])(
    'itsupport %s: a submitted request is mailed to the configured recipient, rendered from its template',
    async (form) => {
      // Not in the corpus, put in place as for the form apps: the template and config/itsupport#recipient.
      await publishApp('itsupport');
      await pipeline([
        {
          'property.schema.put': {
            key: `global/app/itsupport/template/${form}-message`,
            value: '<p>Anfrage von ${antragsteller} ab #{model.bedarfAb}</p>',
            evalValue: false,
          },
        },
        {
          'property.schema.put': {
            key: 'global/app/itsupport/config/itsupport',
            value: JSON.stringify({ recipient: 'it-desk@example.com' }),
            type: 'application/json',
            evalValue: false,
          },
        },
      ]);
      const requester = `Req ${form}`;
      await submitForm(`global/app/itsupport/object/${form}/v1/instance/${crypto.randomUUID()}`, {
        antragsteller: requester,
        bedarfAb: '2026-12-24',
      });
      const mail = await eventually(
        async () =>
          (await outboxMails(server)).find(
            (m) => m.to === 'it-desk@example.com' && m.html.includes(requester),
          ),
        { every: 50, what: `the ${form} mail` },
      );
      expect(mail.subject).toMatch(/^Formular IT-.+ wurde ausgefüllt$/);
      expect(mail.html).toContain(`Anfrage von ${requester} ab 2026-12-24`);
    },
  );
});
