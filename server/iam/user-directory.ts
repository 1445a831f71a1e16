/** Users: rows, direct roles, lookups and listing. Password hashing happens before a row reaches this class. */
import { randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import type { SqliteDatabase } from '../db';
import { checkUsername } from './names';
import { type ListQuery, type UserRepresentation, type UserRow, pageOf, userRepresentation } from './records';
import type { RoleDirectory } from './role-directory';

export interface NewUserRow {
  username: string;
  passwordHash: string | null;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** False for technical users (`systemuser`): they exist, hold roles, and can be a RunAs target only. */
  canLogin?: boolean;
  attributes?: string | null;
}

export class UserDirectory {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly roles: RoleDirectory,
    /** Called with the uuid of the user whose identity changed. */
    private readonly changed: (userUuid: string) => void,
  ) {}

  byName(username: string): UserRow | undefined {
    return this.db.prepare<[string], UserRow>('SELECT * FROM iam_user WHERE username = ?').get(username);
  }

  byUuid(uuid: string): UserRow | undefined {
    return this.db.prepare<[string], UserRow>('SELECT * FROM iam_user WHERE uuid = ?').get(uuid);
  }

  /** By uuid when given, else by username; NOT_FOUND otherwise. */
  require(ref: { uuid?: string; username?: string }): UserRow {
    const row = ref.uuid ? this.byUuid(ref.uuid) : ref.username ? this.byName(ref.username) : undefined;
    if (!row) {
      if (!ref.uuid && !ref.username)
        throw new PipeworkError('PARAM_INVALID', 'Give the user by username or uuid.');
      throw new PipeworkError('NOT_FOUND', `User '${ref.uuid ?? ref.username}' does not exist.`);
    }
    return row;
  }

  insert(input: NewUserRow): UserRow {
    checkUsername(input.username, 'name');
    if (this.byName(input.username)) {
      throw new PipeworkError('CONFLICT', `User '${input.username}' already exists.`, {
        username: input.username,
      });
    }
    const email = input.email?.trim() || null;
    if (email && this.db.prepare('SELECT 1 FROM iam_user WHERE email = ?').get(email)) {
      throw new PipeworkError('CONFLICT', `A user with email '${email}' already exists.`);
    }
    const row: UserRow = {
      uuid: randomUUID(),
      username: input.username,
      email,
      first_name: input.firstName ?? null,
      last_name: input.lastName ?? null,
      password_hash: input.passwordHash,
      can_login: input.canLogin === false ? 0 : 1,
      enabled: 1,
      attributes: input.attributes ?? null,
      created: Date.now(),
    };
    this.db
      .prepare(
        `INSERT INTO iam_user (uuid, username, email, first_name, last_name, password_hash, can_login, enabled, attributes, created)
         VALUES (@uuid, @username, @email, @first_name, @last_name, @password_hash, @can_login, @enabled, @attributes, @created)`,
      )
      .run(row);
    return row;
  }

  setPasswordHash(uuid: string, passwordHash: string | null): void {
    this.db.prepare('UPDATE iam_user SET password_hash = ? WHERE uuid = ?').run(passwordHash, uuid);
    this.changed(uuid);
  }

  setEnabled(uuid: string, enabled: boolean): void {
    this.db.prepare('UPDATE iam_user SET enabled = ? WHERE uuid = ?').run(enabled ? 1 : 0, uuid);
    this.changed(uuid);
  }

  delete(uuid: string): void {
    this.db.prepare('DELETE FROM iam_user WHERE uuid = ?').run(uuid);
    this.changed(uuid);
  }

  /** Grants roles directly; every role must exist. Returns the role names granted. */
  addRoles(uuid: string, roleNames: readonly string[]): string[] {
    const roles = roleNames.map((name) => this.roles.require(name));
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO iam_user_role (user_uuid, role_uuid) VALUES (?, ?)',
    );
    this.db.transaction(() => {
      for (const role of roles) insert.run(uuid, role.uuid);
    })();
    this.changed(uuid);
    return roles.map((r) => r.name);
  }

  directRoleNames(uuid: string): string[] {
    return this.db
      .prepare<[string], { name: string }>(
        'SELECT r.name FROM iam_user_role ur JOIN iam_role r ON r.uuid = ur.role_uuid WHERE ur.user_uuid = ? ORDER BY r.name',
      )
      .all(uuid)
      .map((r) => r.name);
  }

  /** Users whose username, email or name contains the filter, by username. */
  list(query: ListQuery = {}): UserRepresentation[] {
    const { limit, offset, like } = pageOf(query);
    return this.db
      .prepare<[string, string, string, string, number, number], UserRow>(
        `SELECT * FROM iam_user WHERE username LIKE ? ESCAPE '\\' OR email LIKE ? ESCAPE '\\'
           OR first_name LIKE ? ESCAPE '\\' OR last_name LIKE ? ESCAPE '\\'
         ORDER BY username LIMIT ? OFFSET ?`,
      )
      .all(like, like, like, like, limit, offset)
      .map(userRepresentation);
  }

  representations(uuids: readonly string[], query: ListQuery = {}): UserRepresentation[] {
    const filter = (query.filter ?? '').toLowerCase();
    const { limit, offset } = pageOf(query);
    return uuids
      .map((uuid) => this.byUuid(uuid))
      .filter((row): row is UserRow => row !== undefined)
      .filter(
        (row) => !filter || [row.username, row.email ?? ''].some((s) => s.toLowerCase().includes(filter)),
      )
      .sort((a, b) => a.username.localeCompare(b.username))
      .slice(offset, offset + limit)
      .map(userRepresentation);
  }
}
