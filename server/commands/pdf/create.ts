/** `pdf.create`: a new PDF of blank pages. */
import { PDFDocument, PageSizes } from '@cantoo/pdf-lib';
import { defineCommand } from '../../../shared/commands';
import { BinaryContent } from '../../../shared/values';
import type { ServerServices } from '../../services';

const FORMATS: Record<string, [number, number]> = {
  A0: PageSizes.A0,
  A1: PageSizes.A1,
  A2: PageSizes.A2,
  A3: PageSizes.A3,
  A4: PageSizes.A4,
  A5: PageSizes.A5,
  A6: PageSizes.A6,
  LEGAL: PageSizes.Legal,
  LETTER: PageSizes.Letter,
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
    const size = FORMATS[String(ctx.params.format ?? 'A4')]!;
    const doc = await PDFDocument.create();
    for (let i = 0; i < Number(ctx.params.pages ?? 1); i++) doc.addPage(size);
    return new BinaryContent(await doc.save(), 'application/pdf', 'document.pdf');
  },
);
