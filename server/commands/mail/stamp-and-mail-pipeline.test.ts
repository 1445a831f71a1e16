import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLoopbackSmtp, type LoopbackSmtp } from '../../mail/loopback-smtp';
import { http } from '../../testing/http-client';
import { startTestServer, type TestServer } from '../../testing/test-server';
import { pdfPages } from '../pdf/pdf-text';

let smtp: LoopbackSmtp;
let server: TestServer;
let annUuid: string;
let ann: string;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  server = await startTestServer({ env: { PIPEWORK_SMTP_URL: smtp.url } });
  annUuid = (
    await server.services.iam.createUser({ username: 'ann', password: 'ann-pw', roles: ['ROLE_DEVELOPER'] })
  ).uuid;
  ann = server.basicAuth('ann', 'ann-pw');
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

it('reads a PDF from the drive, stamps it, mails it as an attachment and saves the stamped copy', async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) doc.addPage().drawText(`Contract page ${n}`, { x: 60, y: 700, size: 14, font });
  const original = new Uint8Array(await doc.save());
  const uploaded = await http(server.url, '/api/v3/command/drive.save?path=inbox/contract.pdf', {
    auth: ann,
    type: 'application/pdf',
    body: original,
  });
  expect(uploaded.status).toBe(200);

  const seen = smtp.received.length;
  const run = await http(server.url, '/api/v3/pipeline', {
    auth: ann,
    type: 'application/yaml',
    body: `pipeline:
  - drive.read: inbox/contract.pdf
  - pdf.stamp: {text: "APPROVED #{@user.username()}", textColor: GREEN, position: CENTER, degree: 30, pages: ALL}
  - drive.save: approved/contract.pdf
  - mail.send:
      to: legal@example.com
      subject: Contract approved
      message: The approved contract is attached.
      attachments: approved/contract.pdf
  - drive.exists: approved/contract.pdf
`,
  });
  expect([run.status, run.json]).toEqual([200, true]);

  const { mail, rcptTo } = await smtp.next(seen);
  expect(rcptTo).toEqual(['legal@example.com']);
  expect(mail.subject).toBe('Contract approved');
  expect(mail.attachments).toHaveLength(1);
  const attachment = mail.attachments[0]!;
  expect([attachment.filename, attachment.contentType]).toEqual(['contract.pdf', 'application/pdf']);
  const mailed = new Uint8Array(attachment.content);
  expect((await pdfPages(mailed)).map((p) => p.text)).toEqual([
    'Contract page 1APPROVED ann',
    'Contract page 2APPROVED ann',
  ]);

  // The copy on the drive is the very file that was mailed; the original is untouched.
  const saved = readFileSync(
    join(server.config.dataDir, 'drive', 'users', annUuid, 'approved', 'contract.pdf'),
  );
  expect(new Uint8Array(saved)).toEqual(mailed);
  const download = await fetch(`${server.url}/api/v3/command/drive.read?path=inbox/contract.pdf`, {
    headers: { authorization: ann },
  });
  expect(new Uint8Array(await download.arrayBuffer())).toEqual(original);
});
