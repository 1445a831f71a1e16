/** Attachments on behalf of a principal: the property's folder rules decide who reads and who writes them. */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import {
  normalizePropertyKey,
  normalizePropertyType,
  type AttachmentStore,
  type PropertyAttachment,
} from '../../shared/property';
import type { PropertyAccess } from './property-access';
import type { PropertyWriteGuard } from './property-locks';

function missing(key: string, name: string): PipeworkError {
  return new PipeworkError('NOT_FOUND', `Property '${key}' has no attachment '${name}'.`, { key, name });
}

export class PropertyAttachmentService {
  constructor(
    private readonly store: AttachmentStore,
    private readonly access: PropertyAccess,
    private readonly guard: PropertyWriteGuard,
  ) {}

  private readable(principal: Principal | null, rawKey: unknown): string {
    const key = normalizePropertyKey(rawKey);
    this.access.assertRead(principal, key);
    return key;
  }

  /** The folder rules and the property's lock (`property-locks.ts`). */
  private async writable(principal: Principal | null, rawKey: unknown): Promise<string> {
    const key = normalizePropertyKey(rawKey);
    await this.guard.assertWritable(principal, key);
    return key;
  }

  /** Creates or replaces an attachment; `content` (when given) becomes its only chunk(s). */
  async put(
    principal: Principal | null,
    rawKey: unknown,
    name: string,
    options: { contentType?: unknown; content?: Uint8Array } = {},
  ): Promise<PropertyAttachment> {
    const key = await this.writable(principal, rawKey);
    const contentType = normalizePropertyType(options.contentType);
    return this.store.put(key, name, { contentType, content: options.content });
  }

  async putChunk(
    principal: Principal | null,
    rawKey: unknown,
    name: string,
    data: Uint8Array,
    index?: number,
  ): Promise<PropertyAttachment> {
    return this.store.putChunk(await this.writable(principal, rawKey), name, data, index);
  }

  /** Streams content into an attachment (bounded memory); it replaces the old one once complete. */
  async write(
    principal: Principal | null,
    rawKey: unknown,
    name: string,
    source: AsyncIterable<Uint8Array>,
    options: { contentType?: unknown; maxBytes?: number } = {},
  ): Promise<PropertyAttachment> {
    const key = await this.writable(principal, rawKey);
    const contentType = normalizePropertyType(options.contentType);
    return this.store.write(key, name, source, { contentType, maxBytes: options.maxBytes });
  }

  async list(principal: Principal | null, rawKey: unknown): Promise<PropertyAttachment[]> {
    return this.store.list(this.readable(principal, rawKey));
  }

  /** The attachment's metadata, or NOT_FOUND. */
  async get(principal: Principal | null, rawKey: unknown, name: string): Promise<PropertyAttachment> {
    const key = this.readable(principal, rawKey);
    const attachment = await this.store.get(key, name);
    if (!attachment) throw missing(key, name);
    return attachment;
  }

  async readChunk(
    principal: Principal | null,
    rawKey: unknown,
    name: string,
    index: number,
  ): Promise<Uint8Array | undefined> {
    return this.store.readChunk(this.readable(principal, rawKey), name, index);
  }

  /**
   * The metadata and a reader of the content chunk by chunk. Errors (missing, forbidden) surface here,
   * before anything is streamed.
   */
  async open(
    principal: Principal | null,
    rawKey: unknown,
    name: string,
  ): Promise<{ attachment: PropertyAttachment; content: AsyncIterable<Uint8Array> }> {
    const key = this.readable(principal, rawKey);
    const attachment = await this.get(principal, key, name);
    return { attachment, content: this.store.read(key, name) };
  }

  /** Deletes an attachment (NOT_FOUND when there is none). */
  async delete(principal: Principal | null, rawKey: unknown, name: string): Promise<void> {
    const key = await this.writable(principal, rawKey);
    if (!(await this.store.delete(key, name))) throw missing(key, name);
  }
}
