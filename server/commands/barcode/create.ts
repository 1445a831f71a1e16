/**
 * `barcode.create`: a PNG of the text as one of the real product's barcode formats. With `width` and
 * `height` the image has exactly that size (never smaller than the code needs), the code scaled by a whole
 * number and centred, as the real product's images.
 */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { BinaryContent } from '../../../shared/values';
import { encodeGrayPng } from './png';
import { BARCODE_FORMATS, encodeSymbol, type BarcodeFormat } from './symbol';

export const MAX_BARCODE_SIDE = 4000;
const MAX_TEXT = 4000;

function sizeParam(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_BARCODE_SIDE) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Parameter '${name}' must be a whole number of pixels from 1 to ${MAX_BARCODE_SIDE}.`,
      {
        parameter: name,
      },
    );
  }
  return n;
}

export const barcodeCreate = defineCommand(
  {
    name: 'barcode.create',
    summary: 'Creates a barcode (QR code, PDF417, EAN, Code 128, ...) of the text as a PNG image.',
    description: `Formats: ${Object.keys(BARCODE_FORMATS).join(', ')}. Without width and height, modules are 4 pixels (2 for linear codes, 100 pixels tall).`,
    parameters: {
      text: { type: 'string', minLength: 1, maxLength: MAX_TEXT, description: 'The text to encode.' },
      format: {
        type: 'string',
        enum: Object.keys(BARCODE_FORMATS),
        default: 'PDF_417',
        description: 'The barcode format.',
      },
      width: {
        type: ['integer', 'string'],
        description: 'The image width in pixels; empty: the default size.',
      },
      height: {
        type: ['integer', 'string'],
        description: 'The image height in pixels; empty: the default size.',
      },
    },
    required: ['text'],
    defaultParameter: 'text',
    input: 'any',
    output: 'bytes',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'A QR code of a link',
        pipeline:
          'pipeline:\n  - barcode.create:\n      text: https://example.com/order/42\n      format: QR_CODE\n      width: 200\n      height: 200\n',
      },
    ],
  },
  (ctx) => {
    const format = (typeof ctx.params.format === 'string' ? ctx.params.format : 'PDF_417') as BarcodeFormat;
    const symbol = encodeSymbol(format, String(ctx.params.text));
    const wantedWidth = sizeParam(ctx.params.width, 'width');
    const wantedHeight = sizeParam(ctx.params.height, 'height');
    const naturalModule = symbol.linear ? 2 : 4;
    const naturalHeight = symbol.linear ? 100 : symbol.rows * symbol.rowHeight * naturalModule;
    const width = Math.max(wantedWidth ?? symbol.columns * naturalModule, symbol.columns);
    const minHeight = symbol.linear ? 1 : symbol.rows * symbol.rowHeight;
    const height = Math.max(wantedHeight ?? naturalHeight, minHeight);
    if (width > MAX_BARCODE_SIDE || height > MAX_BARCODE_SIDE) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `The barcode would be larger than ${MAX_BARCODE_SIDE} pixels; shorten the text.`,
        {
          parameter: 'text',
        },
      );
    }
    let dark: (x: number, y: number) => boolean;
    const scaleX = Math.max(1, Math.floor(width / symbol.columns));
    const left = Math.floor((width - symbol.columns * scaleX) / 2);
    if (symbol.linear) {
      dark = (x) => {
        const c = Math.floor((x - left) / scaleX);
        return x >= left && c < symbol.columns && symbol.dark(c, 0);
      };
    } else {
      // Square modules (PDF417 rows taller): one whole scale that fits both ways.
      const scale = Math.max(1, Math.min(scaleX, Math.floor(height / (symbol.rows * symbol.rowHeight))));
      const left2 = Math.floor((width - symbol.columns * scale) / 2);
      const top = Math.floor((height - symbol.rows * symbol.rowHeight * scale) / 2);
      dark = (x, y) => {
        if (x < left2 || y < top) return false;
        const c = Math.floor((x - left2) / scale);
        const r = Math.floor((y - top) / (scale * symbol.rowHeight));
        return c < symbol.columns && r < symbol.rows && symbol.dark(c, r);
      };
    }
    return new BinaryContent(
      encodeGrayPng(width, height, dark),
      'image/png',
      `barcode-${format.toLowerCase()}.png`,
    );
  },
);
