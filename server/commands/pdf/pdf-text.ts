/** For tests: the text of each page of a PDF, read back with a real PDF reader (pdfjs-dist, legacy build for Node). */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const fontsDir = join(
  dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
  'standard_fonts/',
);

export interface PageText {
  text: string;
  /** Each text run with its transform (a, b, c, d, e, f): e/f is where it starts. */
  items: { str: string; transform: number[] }[];
  width: number;
  height: number;
}

export async function pdfPages(data: Uint8Array): Promise<PageText[]> {
  const doc = await getDocument({ data: data.slice(), standardFontDataUrl: fontsDir, disableFontFace: true })
    .promise;
  try {
    const pages: PageText[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const items = content.items.filter((i) => 'str' in i) as { str: string; transform: number[] }[];
      const [, , width, height] = page.view as [number, number, number, number];
      pages.push({ text: items.map((i) => i.str).join(''), items, width, height });
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}
