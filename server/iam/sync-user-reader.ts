/**
 * User rows read synchronously, for PEL: expressions evaluate synchronously, so `@user.firstName`, `@iam.*`
 * and `uri:user:` cannot await a database. On SQLite the port answers at once; on PostgreSQL the synchronous
 * bridge to the database does (`server/store/postgres/sync-bridge/`). The statements are the directory's own.
 */
import type { UserRow } from './records';
import type { UserDirectory } from './user-directory';

/** Answers one statement at once. */
export interface SyncSqlReader {
  rowSync<T>(sql: string, params?: readonly unknown[]): T | undefined;
}

export interface SyncUserReader {
  byUuid(uuid: string): UserRow | undefined;
  byName(username: string): UserRow | undefined;
  byEmail(email: string): UserRow | undefined;
}

export function syncUserReader(reader: SyncSqlReader, users: UserDirectory): SyncUserReader {
  return {
    byUuid: (uuid) => reader.rowSync<UserRow>(users.byUuidSql, [uuid]),
    byName: (username) => reader.rowSync<UserRow>(users.byNameSql, [username]),
    byEmail: (email) => reader.rowSync<UserRow>(users.byEmailSql, [email]),
  };
}
