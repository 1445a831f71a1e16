/** `pdf.stamp`: writes a text on pages of the input PDF (@cantoo/pdf-lib). */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { BinaryContent } from '../../../shared/values';
import type { ServerServices } from '../../services';
import { loadPdf, pdfBytesOf } from './pdf-input';
import { pdfLib } from './pdf-lib';
import { COLOR_NAMES, POSITIONS, colorOf, marginsOf, pagesOf, placeText } from './stamp-layout';

export const pdfStamp = defineCommand<ServerServices>(
  {
    name: 'pdf.stamp',
    summary: 'Writes a text (a stamp) on pages of the PDF in the body; the stamped PDF becomes the body.',
    description:
      'The text is set in Helvetica (Latin characters). Truncated, damaged, encrypted or non-PDF input is ' +
      'BAD_REQUEST. As in the real product, opacity is the amount of transparency: 0 opaque, 1 invisible.',
    parameters: {
      text: { type: 'string', minLength: 1, description: 'The text to write.' },
      textSize: {
        type: 'number',
        default: 18,
        minimum: 1,
        maximum: 1000,
        description: 'The font size in points.',
      },
      textColor: {
        type: 'string',
        default: 'BLUE',
        description: `The color: ${COLOR_NAMES.join(', ')} or #RRGGBB.`,
      },
      position: {
        type: 'string',
        default: 'TOP_RIGHT',
        description: `Where the text goes: x,y in points from the bottom left corner, or one of ${POSITIONS.join(', ')}.`,
      },
      pages: {
        type: 'string',
        default: '0',
        description: 'The pages to stamp, 0 being the first: ALL, 0, 0,2, 1-3; -1 is the last page.',
      },
      opacity: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        default: 0,
        description: 'Transparency from 0 (opaque) to 1 (invisible).',
      },
      degree: {
        type: 'number',
        minimum: -180,
        maximum: 180,
        default: 0,
        description: 'Rotation in degrees, counter-clockwise.',
      },
      margin: {
        type: ['string', 'number'],
        default: '20',
        description: 'Page margin for named positions: one value, or four (top, right, bottom, left).',
      },
    },
    required: ['text'],
    defaultParameter: 'text',
    input: 'bytes',
    output: 'bytes',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Mark a document as approved',
        pipeline:
          'pipeline:\n  - drive.read: contracts/offer.pdf\n' +
          '  - pdf.stamp: {text: APPROVED, textColor: GREEN, position: CENTER, degree: 45, pages: ALL}\n',
      },
    ],
  },
  async (ctx) => {
    const { data, name } = pdfBytesOf(ctx.input);
    const doc = await loadPdf(data);
    const { StandardFonts, degrees, rgb } = await pdfLib();
    const text = String(ctx.params.text);
    const size = Number(ctx.params.textSize ?? 18);
    const color = rgb(...colorOf(String(ctx.params.textColor ?? 'BLUE')));
    const pages = pagesOf(String(ctx.params.pages ?? '0'), doc.getPageCount());
    const margins = marginsOf((ctx.params.margin as string | number | undefined) ?? '20');
    const degree = Number(ctx.params.degree ?? 0);
    const opacity = 1 - Number(ctx.params.opacity ?? 0);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const shown = new Set(font.getCharacterSet());
    if ([...text].some((c) => !shown.has(c.codePointAt(0)!))) {
      throw new PipeworkError('PARAM_INVALID', 'The text has characters the standard font cannot show.', {
        parameter: 'text',
      });
    }
    const width = font.widthOfTextAtSize(text, size);
    const box = { width, height: font.heightAtSize(size, { descender: false }) };
    for (const index of pages) {
      const page = doc.getPage(index);
      const { x, y } = placeText(
        String(ctx.params.position ?? 'TOP_RIGHT'),
        page.getSize(),
        box,
        margins,
        degree,
      );
      page.drawText(text, { x, y, size, font, color, opacity, rotate: degrees(degree) });
    }
    return new BinaryContent(await doc.save(), 'application/pdf', name ?? 'stamped.pdf');
  },
);
