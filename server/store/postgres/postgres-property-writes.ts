/**
 * The property writes on PostgreSQL, each inside the caller's transaction: the rules of the SQLite store
 * (`../sqlite/sqlite-property-store.ts`) with the row locked (`FOR UPDATE`) before it is checked, so compare-and-swap
 * holds across instances.
 */
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import {
  checkAttachmentName,
  normalizePropertyKey,
  type AttachmentAdoption,
  type DeleteMatchingOptions,
  type NewProperty,
  type Property,
  type PropertyChange,
  type PropertyPatch,
  type PropertyQuery,
  type SaveOptions,
  type SaveResult,
  type UpdateOptions,
  type UpdateResult,
  type WriteOptions,
} from '../../../shared/property';
import {
  createdColumns,
  hasExpired,
  ontoItself,
  patchedColumns,
  propertyExists,
  propertyNotFound,
  savePatch,
  versionConflict,
} from '../property-write-rules';
import { publicCopy, toProperty, type PropertyRow, type StoredRow } from '../property-rows';
import { parseTags } from '../property-marks-sql';
import {
  checkStagedLength,
  stagedAttachmentMissing,
  stagedPropertyMissing,
  stagingKeysOf,
} from '../attachment-adoption';
import { scanQuery } from './postgres-listing';
import { PG_PROPERTY_COLUMNS, PG_STORED_COLUMNS, first, pgLive, rows } from './postgres-rows';

export class PostgresPropertyWrites {
  constructor(
    private readonly db: PoolClient,
    private readonly now: number,
  ) {}

  /** The transaction's client, for writes written over the SQL port (the trash bin's). */
  get client(): PoolClient {
    return this.db;
  }

  private stored(key: string): Promise<StoredRow | undefined> {
    return first<StoredRow>(this.db, `SELECT ${PG_STORED_COLUMNS} FROM property WHERE key = $1 FOR UPDATE`, [
      key,
    ]);
  }

  private async byId(id: number): Promise<Property> {
    return publicCopy(
      (await first<StoredRow>(this.db, `SELECT ${PG_STORED_COLUMNS} FROM property WHERE id = $1`, [id]))!,
    );
  }

  private async deleteRow(id: number): Promise<void> {
    await this.db.query('DELETE FROM property WHERE id = $1', [id]);
  }

  /** The stored row at `key`, locked; an expired one is deleted first and reported in `changes`. */
  private async storedLive(key: string, changes: PropertyChange[]): Promise<StoredRow | undefined> {
    const row = await this.stored(key);
    if (!row) return undefined;
    if (hasExpired(row, this.now)) {
      await this.deleteRow(row.id);
      changes.push({ kind: 'deleted', origin: publicCopy(row), target: null });
      return undefined;
    }
    return row;
  }

  private async insert(input: NewProperty, actor: string | null | undefined): Promise<Property> {
    const c = createdColumns(input, this.now, actor);
    const row = await first<PropertyRow>(
      this.db,
      `INSERT INTO property (uuid, key, value, type, created, updated, ttl, expires_at, default_value, version, author)
       VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8, 1, $9) RETURNING ${PG_PROPERTY_COLUMNS}`,
      [randomUUID(), input.key, c.value, c.type, this.now, c.ttl, c.expiresAt, c.defaultValue, c.author],
    );
    return toProperty(row!);
  }

  private async applyPatch(row: StoredRow, patch: PropertyPatch, actor: string | null | undefined) {
    const c = patchedColumns(row, patch, actor);
    await this.db.query(
      `UPDATE property SET value = $1, type = $2, updated = $3, ttl = $4, expires_at = $5, default_value = $6,
       version = version + 1, author = $7 WHERE id = $8`,
      [c.value, c.type, this.now, c.ttl, c.expiresAt, c.defaultValue, c.author, row.id],
    );
    return this.byId(row.id);
  }

  async save(raw: NewProperty, options: SaveOptions): Promise<SaveResult> {
    const input = { ...raw };
    const changes: PropertyChange[] = [];
    const row = await this.storedLive(input.key, changes);
    if (!row) {
      const property = await this.insert(input, options.actor);
      changes.push({ kind: 'created', origin: null, target: property });
      if (options.adopt?.length) await this.adopt((await this.stored(input.key))!.id, options.adopt, changes);
      return { result: 'create', property, changes };
    }
    const strategy = options.ifExists ?? 'error';
    if (strategy === 'error') {
      throw propertyExists(input.key);
    }
    if (strategy === 'skip') return { result: 'skip', property: publicCopy(row), changes };
    const property = await this.applyPatch(row, savePatch(input), options.actor);
    changes.push({ kind: 'changed', origin: publicCopy(row), target: property });
    if (options.adopt?.length) await this.adopt(row.id, options.adopt, changes);
    return { result: 'update', property, changes };
  }

  /** Moves staged attachments onto the saved property `targetId`, then deletes their staging properties. */
  private async adopt(
    targetId: number,
    adoptions: readonly AttachmentAdoption[],
    changes: PropertyChange[],
  ): Promise<void> {
    for (const adoption of adoptions) {
      const staging = await this.storedLive(normalizePropertyKey(adoption.from), changes);
      if (!staging || staging.id === targetId) throw stagedPropertyMissing(adoption);
      const staged = await first<{ id: number; length: number }>(
        this.db,
        `SELECT id::float8 AS id, length::float8 AS length FROM property_attachment
         WHERE property_id = $1 AND name = $2 AND NOT pending FOR UPDATE`,
        [staging.id, adoption.name],
      );
      if (!staged) throw stagedAttachmentMissing(adoption);
      checkStagedLength(adoption, staged.length);
      const name = checkAttachmentName(adoption.as);
      await this.db.query(
        'DELETE FROM property_attachment WHERE property_id = $1 AND name = $2 AND NOT pending',
        [targetId, name],
      );
      await this.db.query(
        `UPDATE property_attachment SET property_id = $1, name = $2, content_type = $3, updated = $4,
         revision = revision + 1 WHERE id = $5`,
        [targetId, name, adoption.contentType, this.now, staged.id],
      );
    }
    for (const key of stagingKeysOf(adoptions)) {
      const change = await this.delete(normalizePropertyKey(key));
      if (change) changes.push(change);
    }
  }

  async update(key: string, patch: PropertyPatch, options: UpdateOptions): Promise<UpdateResult> {
    const changes: PropertyChange[] = [];
    const row = await this.storedLive(key, changes);
    if (!row) throw propertyNotFound(key);
    if (options.expectedVersion !== undefined && options.expectedVersion !== row.version) {
      throw versionConflict(key, options.expectedVersion, row.version);
    }
    const guarded = options.guard?.(publicCopy(row), parseTags(row.tags));
    const property = await this.applyPatch(row, guarded ?? patch, options.actor);
    changes.push({ kind: 'changed', origin: publicCopy(row), target: property });
    return { property, changes };
  }

  async delete(key: string): Promise<PropertyChange | undefined> {
    const row = await this.stored(key);
    if (!row || hasExpired(row, this.now)) return undefined;
    await this.deleteRow(row.id);
    return { kind: 'deleted', origin: publicCopy(row), target: null };
  }

  async deleteMatching(query: PropertyQuery, options: DeleteMatchingOptions): Promise<PropertyChange[]> {
    const matches = (await scanQuery<PropertyRow>(this.db, query, this.now, PG_PROPERTY_COLUMNS, true)).map(
      toProperty,
    );
    for (const property of matches) options.guard?.(property);
    if (matches.length > 0) {
      await this.db.query('DELETE FROM property WHERE key = ANY($1::text[])', [matches.map((p) => p.key)]);
    }
    return matches.map((property) => ({ kind: 'deleted', origin: property, target: null }));
  }

  async copy(from: string, to: string, options: WriteOptions): Promise<UpdateResult> {
    if (from === to) throw ontoItself('copied');
    const sql = `SELECT ${PG_PROPERTY_COLUMNS} FROM property WHERE key = $1 AND ${pgLive(2)}`;
    const source = await first<PropertyRow>(this.db, sql, [from, this.now]);
    if (!source) throw propertyNotFound(from);
    const fields = toProperty(source);
    const changes: PropertyChange[] = [];
    const target = await this.storedLive(to, changes);
    const copy = {
      value: fields.value,
      type: fields.type,
      timeToLive: fields.timeToLive,
      defaultValue: fields.defaultValue,
    };
    if (!target) {
      const property = await this.insert({ key: to, ...copy }, options.actor);
      changes.push({ kind: 'created', origin: null, target: property });
      return { property, changes };
    }
    const property = await this.applyPatch(target, copy, options.actor);
    changes.push({ kind: 'changed', origin: publicCopy(target), target: property });
    return { property, changes };
  }

  async move(from: string, to: string, options: WriteOptions): Promise<UpdateResult> {
    if (from === to) throw ontoItself('moved');
    const changes: PropertyChange[] = [];
    const source = await this.storedLive(from, changes);
    if (!source) throw propertyNotFound(from);
    if (await this.storedLive(to, changes)) {
      throw propertyExists(to);
    }
    // A move is a write by the mover: they become the author, never inheriting the earlier one.
    await this.db.query(
      'UPDATE property SET key = $1, updated = $2, version = version + 1, author = $3 WHERE id = $4',
      [to, this.now, options.actor ?? null, source.id],
    );
    const property = await this.byId(source.id);
    changes.push({ kind: 'deleted', origin: publicCopy(source), target: null });
    changes.push({ kind: 'created', origin: null, target: property });
    return { property, changes };
  }

  async deleteExpired(limit: number): Promise<PropertyChange[]> {
    // SKIP LOCKED: instances cleaning up at once each take different rows. A binned property (expires_at
    // below 0, see property-marks-sql.ts) is the bin's to delete, never this job's.
    const expired = await rows<StoredRow>(
      this.db,
      `DELETE FROM property WHERE id IN (SELECT id FROM property WHERE expires_at >= 0 AND expires_at <= $1
       ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING ${PG_STORED_COLUMNS}`,
      [this.now, limit],
    );
    expired.sort((a, b) => a.expiresAt! - b.expiresAt!);
    return expired.map((row) => ({ kind: 'deleted', origin: publicCopy(row), target: null }));
  }
}
