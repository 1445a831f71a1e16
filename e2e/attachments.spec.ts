/** Attachments in the property explorer, in Chromium: dropped and chosen uploads, previews, delete. */
import { expect, test } from '@playwright/test';
import { accessTokenFor, callCommand, signIn } from './support/sign-in';
import { screenshotsWideAndNarrow } from './support/workbench';

// A 2x2 red PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/MediaBox[0 0 200 200]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

test('attachments are uploaded by drag and drop, previewed and deleted', async ({ page, request }) => {
  const token = await accessTokenFor(request);
  const folder = `e2e-att-${Date.now()}`;
  const key = `global/${folder}/doc`;
  await callCommand(request, token, 'property.schema.put', { key, type: 'text/plain' }, 'with attachments');
  await signIn(page);
  const tree = page.getByRole('tree', { name: 'Properties' });
  await tree.getByRole('treeitem', { name: 'global', exact: true }).click();
  await tree.getByRole('treeitem', { name: folder, exact: true }).click();
  await tree.getByRole('treeitem', { name: 'doc', exact: true }).click();
  const section = page.getByTestId('attachments');
  await expect(section).toContainText('None.');

  // Dropped: a text file.
  const dataTransfer = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(
      new File(['hello from a dropped file\nline two'], 'notes.txt', { type: 'text/plain' }),
    );
    return transfer;
  });
  await section.dispatchEvent('dragover', { dataTransfer });
  await section.dispatchEvent('drop', { dataTransfer });
  const rows = section.getByTestId('attachment');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('text/plain');

  // Chosen: an image and a PDF.
  await section.getByLabel('Upload attachments').setInputFiles([
    { name: 'dot.png', mimeType: 'image/png', buffer: PNG },
    { name: 'paper.pdf', mimeType: 'application/pdf', buffer: PDF },
  ]);
  await expect(rows).toHaveCount(3);

  await section.getByRole('button', { name: 'notes.txt', exact: true }).click();
  await expect(section.getByTestId('attachment-preview')).toContainText('hello from a dropped file');
  await section.getByRole('button', { name: 'dot.png', exact: true }).click();
  const image = section.locator('img[data-testid="attachment-preview"]');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
  await screenshotsWideAndNarrow(page, 'attachments');
  await section.getByRole('button', { name: 'paper.pdf', exact: true }).click();
  const pdf = section.locator('iframe[data-testid="attachment-preview"]');
  await expect(pdf).toBeVisible();
  expect(await pdf.getAttribute('src')).toMatch(/^blob:/);

  // Delete, asked first. The PDF viewer's frame is closed first (a text preview instead): once, a confirm
  // shown beside it was gone before it could be answered. Should the answer still miss the dialog, nothing
  // is deleted and the click is tried again.
  await section.getByRole('button', { name: 'notes.txt', exact: true }).click();
  await expect(section.getByTestId('attachment-preview')).toContainText('hello from a dropped file');
  await expect(async () => {
    page.once('dialog', (dialog) => void dialog.accept().catch(() => undefined));
    await section.getByRole('button', { name: 'Delete notes.txt' }).click();
    await expect(rows).toHaveCount(2, { timeout: 3_000 });
  }).toPass({ timeout: 15_000 });
  const left = await callCommand<{ name: string }[]>(request, token, 'property.attachment.list', { key });
  expect(left.map((a) => a.name).sort()).toEqual(['dot.png', 'paper.pdf']);
});
