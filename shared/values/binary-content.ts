/**
 * The content object (the real product's "content reference"): bytes with a name (file name), a mime type and
 * a length. Small content holds its bytes; large content holds a source (a spooled upload, a drive file, an
 * attachment) that is read as a stream and only read whole when it fits the in-memory limit. A content
 * collection is a list of them.
 */
import { PipeworkError } from '../errors';

/** Where the bytes of a large content object are: read as a stream, from the start, as often as asked. */
export interface ContentSource {
  /** The length in bytes. */
  readonly length: number;
  /** A fresh stream of the bytes from the start. */
  open(): AsyncIterable<Uint8Array>;
  /** The whole bytes at once (synchronous, for PEL), offered by sources that can; past `memoryLimit`, refused. */
  readAll?(): Uint8Array;
  /** The largest length `readAll` is used for. */
  readonly memoryLimit?: number;
}

function tooLargeForMemory(content: BinaryContent, limit: number | undefined): PipeworkError {
  return new PipeworkError(
    'PAYLOAD_TOO_LARGE',
    `The content${content.name ? ` '${content.name}'` : ''} has ${content.size} bytes, too many to read ` +
      `in memory${limit === undefined ? '' : ` (at most ${limit})`}; hand it on to a command that streams it ` +
      `(drive.save, property.attachment.put) or as the result.`,
    { length: content.size, ...(limit === undefined ? {} : { limit }) },
  );
}

export class BinaryContent {
  // Private fields: PEL sees a content object's documented attributes only (see pel/safety readOwn).
  #bytes: Uint8Array | undefined;
  #source: ContentSource | undefined;

  constructor(
    data: Uint8Array | ContentSource,
    readonly mimeType = 'application/octet-stream',
    readonly name?: string,
  ) {
    if (data instanceof Uint8Array) this.#bytes = data;
    else this.#source = data;
  }

  /** Set when the bytes are elsewhere (streamed); undefined for content in memory. */
  get source(): ContentSource | undefined {
    return this.#source;
  }

  /** The whole bytes; a streamed content is read once (when it fits the memory limit) and kept. */
  get data(): Uint8Array {
    if (this.#bytes) return this.#bytes;
    const source = this.#source!;
    if (!source.readAll || source.length > (source.memoryLimit ?? 0))
      throw tooLargeForMemory(this, source.memoryLimit);
    this.#bytes = source.readAll();
    return this.#bytes;
  }

  get size(): number {
    return this.#bytes ? this.#bytes.byteLength : this.#source!.length;
  }

  /** True when the bytes are held in memory (not only a reference to them). */
  get inMemory(): boolean {
    return this.#bytes !== undefined;
  }

  /** The bytes as a stream: from memory in one piece, or from the source chunk by chunk. */
  stream(): AsyncIterable<Uint8Array> {
    const bytes = this.#bytes;
    if (bytes) {
      return (async function* () {
        yield bytes;
      })();
    }
    return this.#source!.open();
  }

  /** The whole bytes, read asynchronously up to `limit` (PAYLOAD_TOO_LARGE past it). */
  async read(limit: number): Promise<Uint8Array> {
    if (this.#bytes) return this.#bytes;
    if (this.size > limit) throw tooLargeForMemory(this, limit);
    const data = new Uint8Array(this.size);
    let at = 0;
    for await (const chunk of this.#source!.open()) {
      if (at + chunk.byteLength > data.length) throw tooLargeForMemory(this, limit);
      data.set(chunk, at);
      at += chunk.byteLength;
    }
    return data.subarray(0, at);
  }

  /** The same bytes under another type or name (a streamed source is shared, not read). */
  renamed(mimeType: string, name: string | undefined): BinaryContent {
    return new BinaryContent(this.#bytes ?? this.#source!, mimeType, name);
  }

  /**
   * How content appears in JSON (results, traces, logs): the content object's metadata as the real product
   * names it, never the bytes; `$binary` marks it for the workbench.
   */
  toJSON(): ContentObjectJson {
    return {
      $binary: true,
      ...(this.name ? { name: this.name } : {}),
      contentType: this.mimeType,
      contentLength: this.size,
      size: this.size,
      mimeType: this.mimeType,
    };
  }
}

export interface ContentObjectJson {
  $binary: true;
  name?: string;
  contentType: string;
  contentLength: number;
  size: number;
  mimeType: string;
}

/** True for content as JSON shows it (`toJSON`): the metadata with the `$binary` mark, never the bytes. */
export function isContentObjectJson(value: unknown): value is ContentObjectJson {
  return typeof value === 'object' && value !== null && (value as { $binary?: unknown }).$binary === true;
}

export function isBinaryContent(value: unknown): value is BinaryContent {
  return value instanceof BinaryContent;
}

/** True for a content collection: a non-empty list of content objects only. */
export function isContentCollection(value: unknown): value is BinaryContent[] {
  return Array.isArray(value) && value.length > 0 && value.every(isBinaryContent);
}

/**
 * A content collection (a list of content objects, e.g. a multipart upload) that holds exactly one entry is
 * that entry where one content is expected (`drive.save`, `pdf.stamp`); anything else is returned as it is.
 */
export function singleContentOf(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 && isBinaryContent(value[0]) ? value[0] : value;
}
