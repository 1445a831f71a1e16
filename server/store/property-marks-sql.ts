/**
 * Tags and the trash bin, written once for SQLite and PostgreSQL over the SQL port (`server/db/sql`).
 *
 * Tags are a JSON object in the property row's `tags` column, so they go wherever the row goes (a move, the bin)
 * and a listing reads them with its rows. A lock is the tag `property.lock` (the real product keeps it so too).
 *
 * The bin keeps a property in its own row, attachments (with their bytes) and tags untouched, out of every
 * reader's sight: its key becomes `!trash/<uuid>` (no key pattern reaches a key that starts with `!`, and the key
 * it had is free at once), the key it had goes to `trashed_key`, and `expires_at` becomes -1, so every reader's
 * "live" test (not expired) already leaves it out and no query needs a second condition. The expiry it had is
 * kept in `kept_expires_at`; the time-to-live job takes only expiries of 0 and more, and the bin's own rows go
 * by `purge_at` (`purgeExpired`).
 */
import { PipeworkError } from '../../shared/errors';
import {
  compileKeyPattern,
  isInScope,
  normalizePropertyKey,
  prefixUpperBound,
  type JsonValue,
  type Property,
  type PropertyChange,
  type PropertyMarks,
  type PropertyQuery,
  type PropertyTags,
  type TrashedProperty,
  type TrashOptions,
} from '../../shared/property';
import { all, get, run, type SqlPort, type SqlSteps } from '../db/sql';

/** The `expires_at` of a binned row: below every clock, so no reader counts it as live. */
export const BINNED_EXPIRY = -1;

/** Most binned properties one `trashed` call returns. */
export const MAX_TRASH_LISTING = 1000;

/** The columns of a property as the public record (quoted aliases read the same on both databases). */
const COLUMNS =
  'uuid, key, value, type, created, updated, ttl AS "timeToLive", default_value AS "defaultValue", version';

const BIN_COLUMNS =
  `id, ${COLUMNS}, tags, trashed_key AS "trashedKey", trashed_at AS "trashedAt", ` +
  'trashed_by AS "trashedBy", purge_at AS "purgeAt"';

/** A live row's tags; `$1` the key, `$2` now. */
export const TAGS_OF_LIVE_SQL =
  'SELECT tags FROM property WHERE key = $1 AND (expires_at IS NULL OR expires_at > $2)';

interface BinRow {
  id: number;
  uuid: string;
  key: string;
  value: string | null;
  type: string;
  created: number;
  updated: number | null;
  timeToLive: number | null;
  defaultValue: string | null;
  version: number;
  tags: string | null;
  trashedKey: string;
  trashedAt: number;
  trashedBy: string | null;
  purgeAt: number;
}

/** The tags column as a record; a value that is not a JSON object of strings reads as no tags. */
export function parseTags(text: string | null | undefined): PropertyTags {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    const tags: PropertyTags = {};
    for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value === 'string') tags[name] = value;
    }
    return tags;
  } catch {
    return {};
  }
}

function tagsText(tags: PropertyTags): string | null {
  return Object.keys(tags).length === 0 ? null : JSON.stringify(tags);
}

function propertyOf(row: BinRow, key: string): Property {
  return {
    uuid: row.uuid,
    key,
    value: row.value,
    type: row.type,
    created: Number(row.created),
    updated: row.updated === null ? null : Number(row.updated),
    timeToLive: row.timeToLive,
    defaultValue: row.defaultValue === null ? null : (JSON.parse(row.defaultValue) as JsonValue),
    version: row.version,
  };
}

function binnedOf(row: BinRow): TrashedProperty {
  return {
    property: propertyOf(row, row.trashedKey),
    tags: parseTags(row.tags),
    trashedAt: Number(row.trashedAt),
    trashedBy: row.trashedBy,
    purgeAt: Number(row.purgeAt),
  };
}

function notInBin(key: string): PipeworkError {
  return new PipeworkError('PROPERTY_NOT_FOUND', `The trash bin holds no property '${key}'.`, { key });
}

function keyTaken(key: string): PipeworkError {
  return new PipeworkError(
    'CONFLICT',
    `Cannot restore '${key}' from the trash bin: a property with that key exists now. Move or delete it first; ` +
      'nothing was restored.',
    { key },
  );
}

/** A unique key refused the row (another request created the key at the same moment), as raised or as wrapped. */
function isUniqueViolation(error: unknown): boolean {
  const codeOf = (e: unknown) => (e as { code?: unknown } | null)?.code;
  const cause = error instanceof Error ? (error as { cause?: unknown }).cause : undefined;
  return [codeOf(error), codeOf(cause)].some(
    (code) => code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE',
  );
}

/**
 * Runs a write of the bin (a trash, a restore) as the store runs its own writes: in one transaction with the
 * changes it made recorded there too (their versions; on PostgreSQL their events in the outbox).
 */
export type BinWriteRunner = <T>(
  work: () => SqlSteps<T>,
  changes: (result: T) => readonly PropertyChange[],
  actor: string | null,
) => Promise<T>;

export class SqlPropertyMarks implements PropertyMarks {
  private readonly binWrite: BinWriteRunner;

  constructor(
    private readonly sql: SqlPort,
    private readonly clock: () => number = Date.now,
    binWrite?: BinWriteRunner,
  ) {
    this.binWrite = binWrite ?? ((work) => sql.transaction(work));
  }

  async tagsOf(key: string): Promise<PropertyTags | undefined> {
    const row = await this.sql.get<{ tags: string | null }>(TAGS_OF_LIVE_SQL, [
      normalizePropertyKey(key),
      this.clock(),
    ]);
    return row ? parseTags(row.tags) : undefined;
  }

  async setTags(key: string, tags: PropertyTags): Promise<boolean> {
    const result = await this.sql.run(
      'UPDATE property SET tags = $1 WHERE key = $2 AND (expires_at IS NULL OR expires_at > $3)',
      [tagsText(tags), normalizePropertyKey(key), this.clock()],
    );
    return result.changes > 0;
  }

  async tagsOfKeys(keys: readonly string[]): Promise<Map<string, PropertyTags>> {
    const found = new Map<string, PropertyTags>();
    const now = this.clock();
    // In slices, so one statement never carries more parameters than either database takes.
    for (let start = 0; start < keys.length; start += 500) {
      const slice = keys.slice(start, start + 500);
      const marks = slice.map((_, i) => `$${i + 2}`).join(', ');
      const rows = await this.sql.all<{ key: string; tags: string }>(
        `SELECT key, tags FROM property WHERE tags IS NOT NULL AND key IN (${marks}) ` +
          'AND (expires_at IS NULL OR expires_at > $1)',
        [now, ...slice],
      );
      for (const row of rows) {
        const tags = parseTags(row.tags);
        if (Object.keys(tags).length > 0) found.set(row.key, tags);
      }
    }
    return found;
  }

  async trash(keys: readonly string[], options: TrashOptions): Promise<TrashedProperty[]> {
    const now = this.clock();
    const purgeAt = now + options.ttlMillis;
    const forUpdate = this.sql.dialect.forUpdate;
    const work = function* () {
      const binned: TrashedProperty[] = [];
      for (const key of keys) {
        const row = yield* get<BinRow>(
          `SELECT id, ${COLUMNS}, tags FROM property WHERE key = $1 ` +
            `AND (expires_at IS NULL OR expires_at > $2)${forUpdate}`,
          [key, now],
        );
        if (!row) {
          throw new PipeworkError('PROPERTY_NOT_FOUND', `Property '${key}' does not exist.`, { key });
        }
        yield* run(
          `UPDATE property SET key = $1, trashed_key = $2, trashed_at = $3, trashed_by = $4, purge_at = $5,
             kept_expires_at = expires_at, expires_at = $6 WHERE id = $7`,
          [`!trash/${row.uuid}`, key, now, options.actor ?? null, purgeAt, BINNED_EXPIRY, row.id],
        );
        binned.push(
          binnedOf({
            ...row,
            trashedKey: key,
            trashedAt: now,
            trashedBy: options.actor ?? null,
            purgeAt,
          }),
        );
      }
      return binned;
    };
    const deleted = (binned: TrashedProperty[]): PropertyChange[] =>
      binned.map((b) => ({ kind: 'deleted', origin: b.property, target: null }));
    return this.binWrite(work, deleted, options.actor ?? null);
  }

  async trashed(query: PropertyQuery): Promise<TrashedProperty[]> {
    const pattern = compileKeyPattern(query.pattern);
    const scope = query.scope ?? 'all';
    const limit = Math.min(query.limit ?? MAX_TRASH_LISTING, MAX_TRASH_LISTING);
    const prefix = pattern.literalPrefix;
    const upper = prefixUpperBound(prefix);
    const range =
      prefix === ''
        ? ''
        : upper === undefined
          ? ' AND trashed_key >= $1'
          : ' AND trashed_key >= $1 AND trashed_key < $2';
    const params = prefix === '' ? [] : upper === undefined ? [prefix] : [prefix, upper];
    const rows = await this.sql.all<BinRow>(
      `SELECT ${BIN_COLUMNS} FROM property WHERE trashed_key IS NOT NULL${range} ` +
        'ORDER BY trashed_key, trashed_at DESC, id DESC',
      params,
    );
    const out: TrashedProperty[] = [];
    for (const row of rows) {
      const key = row.trashedKey;
      if (!pattern.matches(key) || !isInScope(key, scope)) continue;
      if (query.filter && !query.filter(key)) continue;
      out.push(binnedOf(row));
      if (out.length >= limit) break;
    }
    return out;
  }

  async restore(rawKey: string, actor: string | null = null): Promise<Property> {
    const key = normalizePropertyKey(rawKey);
    const now = this.clock();
    const forUpdate = this.sql.dialect.forUpdate;
    const created = (property: Property): PropertyChange[] => [
      { kind: 'created', origin: null, target: property },
    ];
    try {
      return await this.binWrite(
        function* () {
          const row = yield* get<BinRow>(
            `SELECT ${BIN_COLUMNS} FROM property WHERE trashed_key = $1 ` +
              `ORDER BY trashed_at DESC, id DESC LIMIT 1${forUpdate}`,
            [key],
          );
          if (!row) throw notInBin(key);
          const occupant = yield* get<{ id: number; expiresAt: number | null }>(
            `SELECT id, expires_at AS "expiresAt" FROM property WHERE key = $1${forUpdate}`,
            [key],
          );
          if (occupant) {
            const live = occupant.expiresAt === null || Number(occupant.expiresAt) > now;
            if (live) throw keyTaken(key);
            // An expired property the time-to-live job has not reached yet: it is gone already.
            yield* run('DELETE FROM property WHERE id = $1', [occupant.id]);
          }
          yield* run(
            `UPDATE property SET key = trashed_key, expires_at = kept_expires_at, trashed_key = NULL,
             trashed_at = NULL, trashed_by = NULL, purge_at = NULL, kept_expires_at = NULL WHERE id = $1`,
            [row.id],
          );
          return propertyOf(row, key);
        },
        created,
        actor,
      );
    } catch (error) {
      throw isUniqueViolation(error) ? keyTaken(key) : error;
    }
  }

  async purgeExpired(limit = 500): Promise<TrashedProperty[]> {
    const now = this.clock();
    const forUpdate = this.sql.dialect.forUpdate;
    return this.sql.transaction(function* () {
      const rows = yield* all<BinRow>(
        `SELECT ${BIN_COLUMNS} FROM property WHERE purge_at IS NOT NULL AND purge_at <= $1 ` +
          `ORDER BY purge_at LIMIT $2${forUpdate}`,
        [now, limit],
      );
      for (const row of rows) yield* run('DELETE FROM property WHERE id = $1', [row.id]);
      return rows.map(binnedOf);
    });
  }
}
