/**
 * A barcode as a grid of modules, from bwip-js's encoder (`raw`): 2D codes as their module matrix,
 * linear codes as bars and spaces of whole module widths. Only the symbol: no human-readable text,
 * as the real product's barcodes.
 */
import bwipjs from 'bwip-js/node';
import { PipeworkError } from '../../../shared/errors';

/** The real product's formats and bwip-js's encoder names. */
export const BARCODE_FORMATS = {
  AZTEC: 'azteccode',
  CODABAR: 'rationalizedCodabar',
  CODE_39: 'code39',
  CODE_93: 'code93',
  CODE_128: 'code128',
  DATA_MATRIX: 'datamatrix',
  EAN_8: 'ean8',
  EAN_13: 'ean13',
  ITF: 'interleaved2of5',
  PDF_417: 'pdf417',
  QR_CODE: 'qrcode',
  UPC_A: 'upca',
  UPC_E: 'upce',
} as const;

export type BarcodeFormat = keyof typeof BARCODE_FORMATS;

export interface BarcodeSymbol {
  /** Modules across and down, quiet zone included. */
  columns: number;
  rows: number;
  /** Height of one row in module widths (PDF417 rows are 3 modules tall). */
  rowHeight: number;
  linear: boolean;
  dark(column: number, row: number): boolean;
}

const QUIET_2D: Partial<Record<BarcodeFormat, number>> = { QR_CODE: 4, AZTEC: 2, DATA_MATRIX: 2, PDF_417: 2 };
const QUIET_LINEAR = 10;

export function encodeSymbol(format: BarcodeFormat, text: string): BarcodeSymbol {
  let encoded;
  try {
    encoded = bwipjs.raw({ bcid: BARCODE_FORMATS[format], text })[0];
  } catch (error) {
    const message = String((error as Error)?.message ?? error).replace(/^bwipp\.\w+#?\d*:\s*/, '');
    throw new PipeworkError('PARAM_INVALID', `The text cannot be a ${format} barcode: ${message}`, {
      parameter: 'text',
    });
  }
  if (!encoded)
    throw new PipeworkError('PARAM_INVALID', `The text cannot be a ${format} barcode.`, {
      parameter: 'text',
    });
  if ('pixs' in encoded) {
    const { pixs, pixx } = encoded;
    const inner = pixs.length / pixx;
    const quiet = QUIET_2D[format] ?? 2;
    return {
      columns: pixx + 2 * quiet,
      rows: inner + 2 * quiet,
      rowHeight: Math.max(1, Math.round(encoded.pixy / inner)),
      linear: false,
      dark: (c, r) => {
        const x = c - quiet;
        const y = r - quiet;
        return x >= 0 && y >= 0 && x < pixx && y < inner && pixs[y * pixx + x] === 1;
      },
    };
  }
  const bars: boolean[] = [];
  encoded.sbs.forEach((width, i) => {
    for (let k = 0; k < Math.round(width); k++) bars.push(i % 2 === 0);
  });
  return {
    columns: bars.length + 2 * QUIET_LINEAR,
    rows: 1,
    rowHeight: 1,
    linear: true,
    dark: (c) => bars[c - QUIET_LINEAR] === true,
  };
}
