/**
 * Attachments on PostgreSQL, as on SQLite (`../sqlite/sqlite-attachment-store.ts`): metadata in one table, content
 * in bytea chunk rows of at most 1 MiB. A streamed upload writes the chunks of a hidden (pending) attachment
 * and swaps it into place in one short transaction at the end.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { PipeworkError } from '../../../shared/errors';
import {
  checkAttachmentName,
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
import { first, inTransaction, rows, type Queryable } from './postgres-rows';

const COLUMNS =
  'id::float8 AS id, uuid, name, content_type AS "contentType", length::float8 AS length, chunks, ' +
  'created::float8 AS created, updated::float8 AS updated';
/** A pending upload older than this was abandoned by an instance that stopped (another may still be writing younger ones). */
const ABANDONED_UPLOAD_MILLIS = 24 * 60 * 60 * 1000;

function deletedDuringUpload(key: string): PipeworkError {
  return new PipeworkError('PROPERTY_NOT_FOUND', `Property '${key}' was deleted during the upload.`, { key });
}

export class PostgresAttachmentStore implements AttachmentStore {
  constructor(
    private readonly pool: Pool,
    /** The row id of the live property at `key`, or PROPERTY_NOT_FOUND. */
    private readonly propertyIdOf: (key: string) => Promise<number>,
    private readonly clock: () => number,
    private readonly chunkBytes = ATTACHMENT_CHUNK_BYTES,
  ) {}

  /** Drops uploads whose instance went away long ago (run when a store opens). */
  async dropAbandonedUploads(): Promise<void> {
    await this.pool.query('DELETE FROM property_attachment WHERE pending AND created < $1', [
      this.clock() - ABANDONED_UPLOAD_MILLIS,
    ]);
  }

  private byName(db: Queryable, propertyId: number, name: string, lock = false) {
    const sql = `SELECT ${COLUMNS} FROM property_attachment WHERE property_id = $1 AND name = $2 AND NOT pending`;
    return first<AttachmentRow>(db, lock ? `${sql} FOR UPDATE` : sql, [propertyId, name]);
  }

  private async byId(db: Queryable, id: number): Promise<PropertyAttachment> {
    return publicAttachment(
      (await first<AttachmentRow>(db, `SELECT ${COLUMNS} FROM property_attachment WHERE id = $1`, [id]))!,
    );
  }

  private async find(key: string, name: string): Promise<AttachmentRow | undefined> {
    return this.byName(this.pool, await this.propertyIdOf(key), checkAttachmentName(name));
  }

  private async create(
    db: Queryable,
    propertyId: number,
    name: string,
    contentType?: string,
    pending = false,
  ) {
    const row = await first<{ id: number }>(
      db,
      `INSERT INTO property_attachment (property_id, uuid, name, content_type, created, pending)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::float8 AS id`,
      [propertyId, randomUUID(), name, contentType ?? DEFAULT_CONTENT_TYPE, this.clock(), pending],
    );
    return row!.id;
  }

  private async setMeta(db: Queryable, id: number, meta: [string, number, number, number | null]) {
    await db.query(
      `UPDATE property_attachment SET content_type = $1, length = $2, chunks = $3, updated = $4,
       revision = revision + 1 WHERE id = $5`,
      [...meta, id],
    );
  }

  private async insertChunk(db: Queryable, id: number, idx: number, data: Uint8Array) {
    await db.query('INSERT INTO property_attachment_chunk (attachment_id, idx, data) VALUES ($1, $2, $3)', [
      id,
      idx,
      asBuffer(data),
    ]);
  }

  async put(key: string, rawName: string, options: AttachmentPutOptions = {}): Promise<PropertyAttachment> {
    const name = checkAttachmentName(rawName);
    const propertyId = await this.propertyIdOf(key);
    return inTransaction(this.pool, async (db) => {
      const existing = await this.byName(db, propertyId, name, true);
      const id = existing?.id ?? (await this.create(db, propertyId, name, options.contentType));
      let { length, chunks } = existing ?? { length: 0, chunks: 0 };
      if (options.content) {
        await db.query('DELETE FROM property_attachment_chunk WHERE attachment_id = $1', [id]);
        const content = asBuffer(options.content);
        chunks = 0;
        for (let at = 0; at < content.length; at += this.chunkBytes) {
          await this.insertChunk(db, id, chunks++, content.subarray(at, at + this.chunkBytes));
        }
        length = content.length;
      }
      const contentType = options.contentType ?? existing?.contentType ?? DEFAULT_CONTENT_TYPE;
      await this.setMeta(db, id, [contentType, length, chunks, existing ? this.clock() : null]);
      return this.byId(db, id);
    });
  }

  async putChunk(
    key: string,
    rawName: string,
    data: Uint8Array,
    index?: number,
  ): Promise<PropertyAttachment> {
    const name = checkAttachmentName(rawName);
    const propertyId = await this.propertyIdOf(key);
    return inTransaction(this.pool, async (db) => {
      const existing = await this.byName(db, propertyId, name, true);
      const id = existing?.id ?? (await this.create(db, propertyId, name));
      let { length, chunks } = existing ?? { length: 0, chunks: 0 };
      const at = chunkIndex(index, chunks);
      if (at === chunks) {
        await this.insertChunk(db, id, at, data);
        chunks += 1;
        length += data.byteLength;
      } else {
        const old = await first<{ n: number }>(
          db,
          'SELECT length(data) AS n FROM property_attachment_chunk WHERE attachment_id = $1 AND idx = $2',
          [id, at],
        );
        length += data.byteLength - old!.n;
        await db.query(
          'UPDATE property_attachment_chunk SET data = $1 WHERE attachment_id = $2 AND idx = $3',
          [asBuffer(data), id, at],
        );
      }
      await this.setMeta(db, id, [
        existing?.contentType ?? DEFAULT_CONTENT_TYPE,
        length,
        chunks,
        this.clock(),
      ]);
      return this.byId(db, id);
    });
  }

  async write(
    key: string,
    rawName: string,
    source: AsyncIterable<Uint8Array>,
    options: AttachmentWriteOptions = {},
  ): Promise<PropertyAttachment> {
    const name = checkAttachmentName(rawName);
    const pendingId = await this.create(
      this.pool,
      await this.propertyIdOf(key),
      name,
      options.contentType,
      true,
    );
    let length = 0;
    let chunks = 0;
    try {
      for await (const chunk of fixedChunks(source, this.chunkBytes, options.maxBytes)) {
        await this.insertChunk(this.pool, pendingId, chunks++, chunk);
        length += chunk.length;
      }
      return await this.publish(pendingId, key, name, length, chunks);
    } catch (error) {
      await this.pool.query('DELETE FROM property_attachment WHERE id = $1', [pendingId]);
      // foreign_key_violation: the property (and the pending upload with it) was deleted meanwhile.
      if ((error as { code?: string }).code === '23503') throw deletedDuringUpload(key);
      throw error;
    }
  }

  /** Swaps a complete upload into place, replacing an older attachment of the same name. */
  private async publish(pendingId: number, key: string, name: string, length: number, chunks: number) {
    const propertyId = await this.propertyIdOf(key);
    return inTransaction(this.pool, async (db) => {
      const old = await this.byName(db, propertyId, name, true);
      if (old) await db.query('DELETE FROM property_attachment WHERE id = $1', [old.id]);
      const done = await db.query(
        'UPDATE property_attachment SET pending = false, length = $1, chunks = $2, updated = $3 WHERE id = $4 AND pending',
        [length, chunks, this.clock(), pendingId],
      );
      // Zero rows: the property was deleted (and the pending upload with it) while the content arrived.
      if (done.rowCount === 0) {
        throw deletedDuringUpload(key);
      }
      return this.byId(db, pendingId);
    });
  }

  async list(key: string): Promise<PropertyAttachment[]> {
    const sql = `SELECT ${COLUMNS} FROM property_attachment WHERE property_id = $1 AND NOT pending ORDER BY name`;
    return (await rows<AttachmentRow>(this.pool, sql, [await this.propertyIdOf(key)])).map(publicAttachment);
  }

  async get(key: string, name: string): Promise<PropertyAttachment | undefined> {
    const row = await this.find(key, name);
    return row ? publicAttachment(row) : undefined;
  }

  async readChunk(key: string, name: string, index: number): Promise<Uint8Array | undefined> {
    const row = await this.find(key, name);
    if (!row) return undefined;
    const sql = 'SELECT data FROM property_attachment_chunk WHERE attachment_id = $1 AND idx = $2';
    return (await first<{ data: Buffer }>(this.pool, sql, [row.id, index]))?.data;
  }

  async *read(key: string, name: string): AsyncIterable<Uint8Array> {
    const row = await this.find(key, name);
    if (!row)
      throw new PipeworkError('NOT_FOUND', `Property '${key}' has no attachment '${name}'.`, { key, name });
    const revision = (await first<{ revision: number }>(
      this.pool,
      'SELECT revision FROM property_attachment WHERE id = $1',
      [row.id],
    ))!.revision;
    // Each chunk is read only while the attachment still has the revision the read began with: a reader
    // never mixes old and new content.
    const sql = `SELECT c.data FROM property_attachment_chunk c JOIN property_attachment a ON a.id = c.attachment_id
      WHERE a.id = $1 AND a.revision = $2 AND NOT a.pending AND c.idx = $3`;
    for (let index = 0; index < row.chunks; index++) {
      const chunk = await first<{ data: Buffer }>(this.pool, sql, [row.id, revision, index]);
      if (!chunk) throw new PipeworkError('CONFLICT', `Attachment '${name}' changed while it was read.`);
      yield chunk.data;
    }
  }

  async delete(key: string, name: string): Promise<boolean> {
    const row = await this.find(key, name);
    if (!row) return false;
    await this.pool.query('DELETE FROM property_attachment WHERE id = $1', [row.id]);
    return true;
  }
}
