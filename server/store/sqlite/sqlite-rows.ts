/**
 * The SQL column lists of the SQLite property and attachment stores, aliased to the names of the shared
 * row (`../property-rows.ts`), and the condition that a property is live.
 */

/** Columns of a property as the public record, aliased so a row needs almost no mapping. */
export const PROPERTY_COLUMNS =
  'uuid, key, value, type, created, updated, ttl AS timeToLive, default_value AS defaultValue, version';

/** The columns of a `StoredRow`: the public ones and the internal ones writes need. */
export const STORED_COLUMNS = `id, expires_at AS expiresAt, author, tags, ${PROPERTY_COLUMNS}`;

/** A property counts while it has not expired; the parameter is now. */
export const LIVE = '(expires_at IS NULL OR expires_at > ?)';
