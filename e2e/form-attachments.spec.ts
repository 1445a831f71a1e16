/**
 * A form's large file end to end in Chromium (docs/forms-and-lists.md): a 3 MB PDF-like file, above the
 * inline limit, is uploaded through the form in chunks (progress shown) to the user's staging key; Submit
 * stores the instance with the file moved onto it as an attachment (identical bytes); the app's
 * property.created listener reads the attachment (its checksum is what it stores), so its event arrived only
 * once instance and attachment both existed. Editing the instance keeps the attachment and downloads it.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';

const APP = 'global/app/bigfiles';
const OBJECT = `${APP}/object/upload/v1`;
const SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', title: 'Title', minLength: 1 },
    scan: {
      type: 'object',
      title: 'Scan',
      properties: {
        filename: { type: 'string' },
        contentLength: { type: 'number' },
        contentType: { type: 'string' },
        contentEncoding: { type: 'string' },
        content: { type: 'string' },
      },
    },
  },
  required: ['title'],
};
// Reads the file from the instance's attachment, named by the field, as the real product's docs show.
const LISTENER = `pipeline:
  - event.listen:
      key: "property.created"
      filter: "#{body.target.key.contains('${OBJECT}/instance/')}"
  - property.attachment.checksum:
      key: "#{body.target.key}"
      name: "#{body.target.value.scan.attachment}"
  - property.schema.put:
      key: "${APP}/data/seen"
      value: "#{body}"
`;

/** 3 MB that start like a PDF and differ at every position (a misplaced chunk would show). */
function pdfLike(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  bytes.write('%PDF-1.7\n', 'latin1');
  for (let i = 9; i < length; i++) bytes[i] = (i * 31 + (i >> 10)) & 0xff;
  return bytes;
}

async function install(request: APIRequestContext, token: string): Promise<void> {
  const put = (key: string, type: string, value: string) =>
    callCommand(request, token, 'property.schema.put', { key, type, evalValue: 'false' }, value);
  await put(`${OBJECT}/schema`, 'application/json', JSON.stringify(SCHEMA));
  await put(`${APP}/pipeline/on-upload`, 'application/yaml;type=pipeline', LISTENER);
}

test('a 3 MB file goes through the form as a streamed attachment the listener can read', async ({
  page,
  request,
}) => {
  const token = await accessTokenFor(request);
  await install(request, token);
  const bytes = pdfLike(3 * 1024 * 1024);
  const folder = mkdtempSync(join(tmpdir(), 'form-attachment-'));
  writeFileSync(join(folder, 'contract.pdf'), bytes);

  await page.goto(`/#/form?object=${encodeURIComponent(OBJECT)}`);
  await signIn(page);
  await page.locator('#root_title').fill('Contract');
  const chunkPuts: number[] = [];
  page.on('request', (r) => {
    if (r.url().includes('property.attachment.chunk.put')) chunkPuts.push(r.postDataBuffer()?.length ?? 0);
  });
  // Each chunk held back a moment, so the progress the field shows can be seen on a fast loopback.
  await page.route('**/property.attachment.chunk.put*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  await page.locator('#root_scan').setInputFiles(join(folder, 'contract.pdf'));
  await expect(page.getByRole('progressbar', { name: 'Uploading contract.pdf' })).toBeVisible();
  await expect(page.getByText(/Uploading contract\.pdf: [1-3]\.0 of 3\.0 MB/)).toBeVisible();
  // The form waits for its uploads: it would otherwise be stored without the file.
  await expect(page.getByRole('button', { name: 'Uploading…' })).toBeDisabled();
  await expect(page.getByText(`contract.pdf (${bytes.length} bytes)`)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  // Streamed: one request per chunk of at most 1 MiB, never the whole file.
  expect(chunkPuts.length).toBe(3);
  expect(Math.max(...chunkPuts)).toBeLessThanOrEqual(1024 * 1024);
  await page.getByRole('button', { name: 'Submit' }).click();
  const status = page.getByText(/^Stored as /);
  await expect(status).toBeVisible();
  const key = (await status.textContent())!.replace(/^Stored as |\.$/g, '');

  const stored = await callCommand<{ scan: Record<string, unknown> }>(request, token, 'property.value.get', {
    key,
  });
  expect(stored.scan).toEqual({
    filename: 'contract.pdf',
    contentType: 'application/pdf',
    contentLength: bytes.length,
    content: 'contract.pdf',
    attachment: 'contract.pdf',
  });
  const content = await request.get(
    `/api/v3/command/property.attachment.content?${new URLSearchParams({ key, name: 'contract.pdf' })}`,
    { headers: { authorization: `Bearer ${token}` } },
  );
  expect(content.status()).toBe(200);
  expect((await content.body()).equals(bytes)).toBe(true);
  // The listener found the attachment complete when property.created reached it.
  const md5 = createHash('md5').update(bytes).digest('hex');
  await expect
    .poll(
      async () =>
        await request
          .post('/api/v3/command/property.value.get', {
            headers: { authorization: `Bearer ${token}` },
            form: { key: `${APP}/data/seen` },
          })
          .then((r) => (r.ok() ? r.text() : '')),
      { timeout: 20_000 },
    )
    .toContain(md5);

  // Edited, the instance keeps its attachment, which the form offers for download.
  await page.goto(`/#/form?object=${encodeURIComponent(OBJECT)}&key=${encodeURIComponent(key)}`);
  await expect(page.getByText(`contract.pdf (${bytes.length} bytes)`)).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download contract.pdf' }).click();
  const download = await downloading;
  const saved = join(folder, 'downloaded.pdf');
  await download.saveAs(saved);
  expect(readFileSync(saved).equals(bytes)).toBe(true);
  await page.locator('#root_title').fill('Contract, signed');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(`Stored as ${key}.`)).toBeVisible();
  const attachments = await callCommand<{ name: string; length: number }[]>(
    request,
    token,
    'property.attachment.list',
    { key },
  );
  expect(attachments.map((a) => [a.name, a.length])).toEqual([['contract.pdf', bytes.length]]);
});

test('a file over the form limit is refused at the field', async ({ page, request }) => {
  await install(request, await accessTokenFor(request));
  const folder = mkdtempSync(join(tmpdir(), 'form-attachment-'));
  writeFileSync(join(folder, 'huge.pdf'), Buffer.alloc(101 * 1024 * 1024));
  await page.goto(`/#/form?object=${encodeURIComponent(OBJECT)}`);
  await signIn(page);
  await page.locator('#root_scan').setInputFiles(join(folder, 'huge.pdf'));
  await expect(
    page.getByRole('alert').filter({ hasText: 'huge.pdf is 101.0 MB: at most 100 MB.' }),
  ).toBeVisible();
});
