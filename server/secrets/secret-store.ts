/** The secret table, written once for SQLite and PostgreSQL through the SQL port. */
import { all, run, type SqlPort } from '../db/sql';
import type { SecretFormat } from './secret-formats';

export type SecretScope = 'user' | 'group' | 'tenant' | 'installation';

/** A secret as stored: everything but the value is plain; `sealed` only opens with the master key. */
export interface SecretRow {
  uuid: string;
  scope: SecretScope;
  scope_id: string;
  name: string;
  format: SecretFormat;
  key_id: string;
  sealed: string;
  created_by: string;
  created: number | string;
  updated: number | string;
  expires: number | string | null;
}

/** Which scopes a lookup may search: the user's own, the groups and tenants, the installation. */
export interface ScopeRef {
  scope: SecretScope;
  scopeId: string;
}

const COLUMNS = 'uuid, scope, scope_id, name, format, key_id, sealed, created_by, created, updated, expires';

export class SecretStore {
  constructor(private readonly sql: SqlPort) {}

  /** The live rows of these scopes (one name, or all), not yet expired at `now`. */
  async find(scopes: readonly ScopeRef[], now: number, name?: string): Promise<SecretRow[]> {
    if (scopes.length === 0) return [];
    const params: unknown[] = [now];
    const where = scopes.map((s) => {
      params.push(s.scope, s.scopeId);
      return `(scope = $${params.length - 1} AND scope_id = $${params.length})`;
    });
    let sql = `SELECT ${COLUMNS} FROM secret WHERE (expires IS NULL OR expires > $1) AND (${where.join(' OR ')})`;
    if (name !== undefined) {
      params.push(name);
      sql += ` AND name = $${params.length}`;
    }
    return this.sql.all<SecretRow>(`${sql} ORDER BY name, scope, scope_id`, params);
  }

  /** Creates or replaces the secret of a scope and name (one statement: never half-written). */
  async upsert(row: SecretRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO secret (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (scope, scope_id, name) DO UPDATE SET format = excluded.format, key_id = excluded.key_id,
         sealed = excluded.sealed, created_by = excluded.created_by, updated = excluded.updated,
         expires = excluded.expires`,
      [
        row.uuid,
        row.scope,
        row.scope_id,
        row.name,
        row.format,
        row.key_id,
        row.sealed,
        row.created_by,
        row.created,
        row.updated,
        row.expires,
      ],
    );
  }

  async delete(ref: ScopeRef, name: string): Promise<boolean> {
    const result = await this.sql.run('DELETE FROM secret WHERE scope = $1 AND scope_id = $2 AND name = $3', [
      ref.scope,
      ref.scopeId,
      name,
    ]);
    return result.changes > 0;
  }

  /** Removes the secrets whose time to live is over; how many. */
  async deleteExpired(now: number): Promise<number> {
    return (await this.sql.run('DELETE FROM secret WHERE expires IS NOT NULL AND expires <= $1', [now]))
      .changes;
  }

  /** Re-seals every row not sealed with `keyId`, in one transaction: all or nothing. */
  async reseal(keyId: string, reseal: (row: SecretRow) => string): Promise<number> {
    return this.sql.transaction(function* () {
      const rows = yield* all<SecretRow>(`SELECT ${COLUMNS} FROM secret WHERE key_id <> $1`, [keyId]);
      for (const row of rows) {
        yield* run('UPDATE secret SET key_id = $1, sealed = $2 WHERE uuid = $3', [
          keyId,
          reseal(row),
          row.uuid,
        ]);
      }
      return rows.length;
    });
  }
}
