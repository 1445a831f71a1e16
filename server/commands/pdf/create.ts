/** `pdf.create`: a new PDF of blank pages. */
import { defineCommand } from '../../../shared/commands';
import { BinaryContent } from '../../../shared/values';
import type { ServerServices } from '../../services';
import { pdfLib, type PdfLib } from './pdf-lib';

/** The formats by their names here and in pdf-lib's PageSizes (read at the call: pdf-lib loads on first use). */
const FORMATS: Record<string, keyof PdfLib['PageSizes']> = {
  A0: 'A0',
  A1: 'A1',
  A2: 'A2',
  A3: 'A3',
  A4: 'A4',
  A5: 'A5',
  A6: 'A6',
  LEGAL: 'Legal',
  LETTER: 'Letter',
};
const MAX_PAGES = 1000;

export const pdfCreate = defineCommand<ServerServices>(
  {
    name: 'pdf.create',
    summary: 'Creates a PDF with blank pages (as a file named document.pdf).',
    parameters: {
      pages: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_PAGES,
        default: 1,
        description: 'The number of pages.',
      },
      format: {
        type: 'string',
        enum: Object.keys(FORMATS),
        default: 'A4',
        description: `The page format: ${Object.keys(FORMATS).join(', ')}.`,
      },
    },
    input: 'any',
    output: 'bytes',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'A blank page with a stamp',
        pipeline:
          'pipeline:\n  - pdf.create: {pages: 1, format: A4}\n  - pdf.stamp: {text: Draft, position: CENTER}\n',
      },
    ],
  },
  async (ctx) => {
    const { PDFDocument, PageSizes } = await pdfLib();
    const size = PageSizes[FORMATS[String(ctx.params.format ?? 'A4')]!];
    const doc = await PDFDocument.create();
    for (let i = 0; i < Number(ctx.params.pages ?? 1); i++) doc.addPage(size);
    return new BinaryContent(await doc.save(), 'application/pdf', 'document.pdf');
  },
);
