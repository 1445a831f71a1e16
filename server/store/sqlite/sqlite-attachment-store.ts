/**
 * Attachments in SQLite: metadata in one table, content in chunk rows of at most 1 MiB, so that any size goes
 * in and out holding one chunk in memory. A streamed upload writes chunks of a hidden (pending) attachment and
 * swaps it into place in one short transaction at the end: no transaction spans an await.
 */
import { randomUUID } from 'node:crypto';
import type { SqliteDatabase } from '../../db';
import { PipeworkError } from '../../../shared/errors';
import {
  checkAttachmentName,
  type AttachmentAdoption,
  type AttachmentPutOptions,
  type AttachmentStore,
  type AttachmentWriteOptions,
  type PropertyAttachment,
} from '../../../shared/property';
import {
  ATTACHMENT_CHUNK_BYTES,
  DEFAULT_CONTENT_TYPE,
  asBuffer,
  chunkIndex,
  fixedChunks,
  publicAttachment,
  type AttachmentRow,
} from '../attachment-chunks';
import { checkStagedLength, stagedAttachmentMissing } from '../attachment-adoption';

const COLUMNS = 'uuid, name, content_type AS contentType, length, chunks, created, updated';

export class SqliteAttachmentStore implements AttachmentStore {
  private readonly stmt;
  private readonly tx;

  constructor(
    private readonly db: SqliteDatabase,
    /** The row id of the live property at `key`, or PROPERTY_NOT_FOUND. */
    private readonly propertyIdOf: (key: string) => number,
    private readonly clock: () => number,
    private readonly chunkBytes = ATTACHMENT_CHUNK_BYTES,
  ) {
    const prepare = <T>(sql: string) => db.prepare<unknown[], T>(sql);
    this.stmt = {
      byName: prepare<AttachmentRow>(
        `SELECT id, ${COLUMNS} FROM property_attachment WHERE property_id = ? AND name = ? AND pending = 0`,
      ),
      byId: prepare<AttachmentRow>(`SELECT id, ${COLUMNS} FROM property_attachment WHERE id = ?`),
      list: prepare<AttachmentRow>(
        `SELECT id, ${COLUMNS} FROM property_attachment WHERE property_id = ? AND pending = 0 ORDER BY name`,
      ),
      insert: db.prepare(
        `INSERT INTO property_attachment (property_id, uuid, name, content_type, created, pending) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      setMeta: db.prepare(
        `UPDATE property_attachment SET content_type = ?, length = ?, chunks = ?, updated = ?,
         revision = revision + 1 WHERE id = ?`,
      ),
      revision: prepare<number>(
        'SELECT revision FROM property_attachment WHERE id = ? AND pending = 0',
      ).pluck(),
      publish: db.prepare(
        'UPDATE property_attachment SET pending = 0, length = ?, chunks = ?, updated = ? WHERE id = ? AND pending = 1',
      ),
      delete: db.prepare('DELETE FROM property_attachment WHERE id = ?'),
      deleteChunks: db.prepare('DELETE FROM property_attachment_chunk WHERE attachment_id = ?'),
      insertChunk: db.prepare(
        'INSERT INTO property_attachment_chunk (attachment_id, idx, data) VALUES (?, ?, ?)',
      ),
      replaceChunk: db.prepare(
        'UPDATE property_attachment_chunk SET data = ? WHERE attachment_id = ? AND idx = ?',
      ),
      chunkLength: prepare<number>(
        'SELECT length(data) FROM property_attachment_chunk WHERE attachment_id = ? AND idx = ?',
      ).pluck(),
      chunk: prepare<Buffer>(
        'SELECT data FROM property_attachment_chunk WHERE attachment_id = ? AND idx = ?',
      ).pluck(),
      stalePending: db.prepare('DELETE FROM property_attachment WHERE pending = 1'),
      reassign: db.prepare(
        `UPDATE property_attachment SET property_id = ?, name = ?, content_type = ?, updated = ?,
         revision = revision + 1 WHERE id = ?`,
      ),
    };
    this.tx = {
      put: db.transaction((key: string, name: string, options: AttachmentPutOptions) =>
        this.putNow(key, name, options),
      ),
      putChunk: db.transaction((key: string, name: string, data: Uint8Array, index: number | undefined) =>
        this.putChunkNow(key, name, data, index),
      ),
      publish: db.transaction(
        (pendingId: number, key: string, name: string, length: number, chunks: number) =>
          this.publishNow(pendingId, key, name, length, chunks),
      ),
    };
    // Uploads that were arriving when the process died never completed: drop them.
    this.stmt.stalePending.run();
  }

  private find(key: string, name: string): AttachmentRow | undefined {
    return this.stmt.byName.get(this.propertyIdOf(key), checkAttachmentName(name));
  }

  private require(key: string, name: string): AttachmentRow {
    const row = this.find(key, name);
    if (!row)
      throw new PipeworkError('NOT_FOUND', `Property '${key}' has no attachment '${name}'.`, { key, name });
    return row;
  }

  private create(
    propertyId: number,
    name: string,
    contentType: string | undefined,
    pending: boolean,
  ): number {
    const info = this.stmt.insert.run(
      propertyId,
      randomUUID(),
      name,
      contentType ?? DEFAULT_CONTENT_TYPE,
      this.clock(),
      pending ? 1 : 0,
    );
    return Number(info.lastInsertRowid);
  }

  private putNow(key: string, rawName: string, options: AttachmentPutOptions): PropertyAttachment {
    const name = checkAttachmentName(rawName);
    const propertyId = this.propertyIdOf(key);
    const existing = this.stmt.byName.get(propertyId, name);
    const id = existing?.id ?? this.create(propertyId, name, options.contentType, false);
    let { length, chunks } = existing ?? { length: 0, chunks: 0 };
    if (options.content) {
      this.stmt.deleteChunks.run(id);
      const content = asBuffer(options.content);
      chunks = 0;
      for (let at = 0; at < content.length; at += this.chunkBytes) {
        this.stmt.insertChunk.run(id, chunks++, content.subarray(at, at + this.chunkBytes));
      }
      length = content.length;
    }
    const contentType = options.contentType ?? existing?.contentType ?? DEFAULT_CONTENT_TYPE;
    this.stmt.setMeta.run(contentType, length, chunks, existing ? this.clock() : null, id);
    return publicAttachment(this.stmt.byId.get(id)!);
  }

  private putChunkNow(
    key: string,
    rawName: string,
    data: Uint8Array,
    index: number | undefined,
  ): PropertyAttachment {
    const name = checkAttachmentName(rawName);
    const propertyId = this.propertyIdOf(key);
    const existing = this.stmt.byName.get(propertyId, name);
    const id = existing?.id ?? this.create(propertyId, name, undefined, false);
    let { length, chunks } = existing ?? { length: 0, chunks: 0 };
    const at = chunkIndex(index, chunks);
    if (at === chunks) {
      this.stmt.insertChunk.run(id, at, asBuffer(data));
      chunks += 1;
      length += data.byteLength;
    } else {
      length += data.byteLength - this.stmt.chunkLength.get(id, at)!;
      this.stmt.replaceChunk.run(asBuffer(data), id, at);
    }
    this.stmt.setMeta.run(existing?.contentType ?? DEFAULT_CONTENT_TYPE, length, chunks, this.clock(), id);
    return publicAttachment(this.stmt.byId.get(id)!);
  }

  private publishNow(
    pendingId: number,
    key: string,
    name: string,
    length: number,
    chunks: number,
  ): PropertyAttachment {
    const propertyId = this.propertyIdOf(key);
    const old = this.stmt.byName.get(propertyId, name);
    if (old) this.stmt.delete.run(old.id);
    // Zero rows: the property was deleted (and the pending upload with it) while the content arrived.
    if (this.stmt.publish.run(length, chunks, this.clock(), pendingId).changes === 0) {
      throw new PipeworkError('PROPERTY_NOT_FOUND', `Property '${key}' was deleted during the upload.`, {
        key,
      });
    }
    return publicAttachment(this.stmt.byId.get(pendingId)!);
  }

  /**
   * Moves a staged attachment onto the property `targetId` (replacing one of the same name there). Runs inside
   * the property store's save transaction, which then deletes the staging property.
   */
  adoptNow(targetId: number, stagingId: number, adoption: AttachmentAdoption): void {
    const staged = this.stmt.byName.get(stagingId, adoption.name);
    if (!staged) throw stagedAttachmentMissing(adoption);
    checkStagedLength(adoption, staged.length);
    const name = checkAttachmentName(adoption.as);
    const old = this.stmt.byName.get(targetId, name);
    if (old) this.stmt.delete.run(old.id);
    this.stmt.reassign.run(targetId, name, adoption.contentType, this.clock(), staged.id);
  }

  async put(key: string, name: string, options: AttachmentPutOptions = {}): Promise<PropertyAttachment> {
    return this.tx.put.immediate(key, name, options);
  }

  async putChunk(key: string, name: string, data: Uint8Array, index?: number): Promise<PropertyAttachment> {
    return this.tx.putChunk.immediate(key, name, data, index);
  }

  async write(
    key: string,
    rawName: string,
    source: AsyncIterable<Uint8Array>,
    options: AttachmentWriteOptions = {},
  ): Promise<PropertyAttachment> {
    const name = checkAttachmentName(rawName);
    const pendingId = this.create(this.propertyIdOf(key), name, options.contentType, true);
    let length = 0;
    let chunks = 0;
    try {
      for await (const chunk of fixedChunks(source, this.chunkBytes, options.maxBytes)) {
        this.stmt.insertChunk.run(pendingId, chunks++, chunk);
        length += chunk.length;
      }
      return this.tx.publish.immediate(pendingId, key, name, length, chunks);
    } catch (error) {
      this.stmt.delete.run(pendingId);
      throw error;
    }
  }

  async list(key: string): Promise<PropertyAttachment[]> {
    return this.stmt.list.all(this.propertyIdOf(key)).map(publicAttachment);
  }

  async get(key: string, name: string): Promise<PropertyAttachment | undefined> {
    const row = this.find(key, name);
    return row ? publicAttachment(row) : undefined;
  }

  async readChunk(key: string, name: string, index: number): Promise<Uint8Array | undefined> {
    const row = this.find(key, name);
    return row ? this.stmt.chunk.get(row.id, index) : undefined;
  }

  async *read(key: string, name: string): AsyncIterable<Uint8Array> {
    const row = this.require(key, name);
    const revision = this.stmt.revision.get(row.id);
    for (let index = 0; index < row.chunks; index++) {
      // Checked right before each chunk (nothing can write in between): a reader never mixes old and new
      // content. Changed or gone: the attachment was replaced, changed or deleted while it was read.
      const data =
        this.stmt.revision.get(row.id) === revision ? this.stmt.chunk.get(row.id, index) : undefined;
      if (data === undefined)
        throw new PipeworkError('CONFLICT', `Attachment '${name}' changed while it was read.`);
      yield data;
    }
  }

  async delete(key: string, name: string): Promise<boolean> {
    const row = this.find(key, name);
    if (!row) return false;
    this.stmt.delete.run(row.id);
    return true;
  }
}
