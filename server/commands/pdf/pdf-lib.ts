/**
 * @cantoo/pdf-lib, imported at the first pdf.* call rather than at start: evaluating it takes about 150 ms,
 * which a server that makes no PDF should not pay before its first answer.
 */
import type * as PdfLibModule from '@cantoo/pdf-lib';

export type PdfLib = typeof PdfLibModule;

let pdfLibModule: Promise<PdfLib> | undefined;

export function pdfLib(): Promise<PdfLib> {
  pdfLibModule ??= import('@cantoo/pdf-lib');
  return pdfLibModule;
}
