/** Bytes that flow through a pipeline (a file, a PDF), with their mime type and optional file name. */

export class BinaryContent {
  constructor(
    readonly data: Uint8Array,
    readonly mimeType = 'application/octet-stream',
    readonly name?: string,
  ) {}

  get size(): number {
    return this.data.byteLength;
  }

  /** How bytes appear in JSON (traces, logs): never the bytes themselves. */
  toJSON(): { $binary: true; size: number; mimeType: string; name?: string } {
    return {
      $binary: true,
      size: this.size,
      mimeType: this.mimeType,
      ...(this.name ? { name: this.name } : {}),
    };
  }
}

export function isBinaryContent(value: unknown): value is BinaryContent {
  return value instanceof BinaryContent;
}

/**
 * A content collection (a list of content objects, e.g. a multipart upload) that holds exactly one entry is
 * that entry where one content is expected (`drive.save`, `pdf.stamp`); anything else is returned as it is.
 */
export function singleContentOf(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 && isBinaryContent(value[0]) ? value[0] : value;
}
