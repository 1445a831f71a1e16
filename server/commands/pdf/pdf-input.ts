/** Reading the input PDF of a pdf.* command: bytes that are a PDF, loaded with @cantoo/pdf-lib, or a clear error. */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { PipeworkError } from '../../../shared/errors';
import { isBinaryContent, singleContentOf } from '../../../shared/values';
import { pdfLib } from './pdf-lib';

/** The input body's bytes: a file (BinaryContent) or raw bytes; anything else is not a PDF. */
export function pdfBytesOf(body: unknown): { data: Uint8Array; name?: string } {
  const input = singleContentOf(body);
  if (isBinaryContent(input)) return { data: input.data, name: input.name };
  if (input instanceof Uint8Array) return { data: input };
  const what =
    input === null || input === undefined
      ? 'empty'
      : `a ${typeof input === 'string' ? 'text' : 'JSON value'}`;
  throw new PipeworkError('BAD_REQUEST', `The input must be a PDF file, but the body is ${what}.`);
}

const PDF_MAGIC = '%PDF-';

/** Loads a PDF; not a PDF, truncated, damaged or encrypted is BAD_REQUEST with the reason. */
export async function loadPdf(data: Uint8Array): Promise<PDFDocument> {
  const head = new TextDecoder('latin1').decode(data.subarray(0, 1024));
  if (!head.includes(PDF_MAGIC)) {
    throw new PipeworkError('BAD_REQUEST', 'The input is not a PDF (no %PDF- header).');
  }
  const tail = new TextDecoder('latin1').decode(data.subarray(Math.max(0, data.length - 2048)));
  if (!tail.includes('%%EOF')) {
    throw new PipeworkError('BAD_REQUEST', 'The PDF is truncated (no %%EOF marker at its end).');
  }
  const { PDFDocument } = await pdfLib();
  try {
    const doc = await PDFDocument.load(data, { throwOnInvalidObject: true, updateMetadata: false });
    if (doc.getPages().length === 0) throw new PipeworkError('BAD_REQUEST', 'The PDF has no pages.');
    return doc;
  } catch (error) {
    if (error instanceof PipeworkError) throw error;
    if (await isEncrypted(data))
      throw new PipeworkError('BAD_REQUEST', 'The PDF is encrypted; it cannot be changed.');
    // pdf-lib fails on damaged documents with whatever it met first: the reason is for the reader only.
    throw new PipeworkError(
      'BAD_REQUEST',
      `The PDF is damaged and cannot be read (${(error as Error).message}).`,
    );
  }
}

/** Encrypted objects do not parse as plain ones; pdf-lib's lenient load tells encryption apart. */
async function isEncrypted(data: Uint8Array): Promise<boolean> {
  const { PDFDocument } = await pdfLib();
  try {
    await PDFDocument.load(data, { updateMetadata: false });
    return false;
  } catch (error) {
    return /encrypted/i.test((error as Error).message);
  }
}
