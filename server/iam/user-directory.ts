/** Users: rows, direct roles, lookups and listing. Password hashing happens before a row reaches this class. */
import { randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import { type SqlPort, type SqlSteps, get, run } from '../db/sql';
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
    private readonly sql: SqlPort,
    private readonly roles: RoleDirectory,
    /** Called with the uuid of the user whose identity changed. */
    private readonly changed: (userUuid: string) => void,
  ) {
    this.byNameSql = `SELECT * FROM iam_user WHERE ${sql.dialect.equalsIgnoringCase('username', '$1')}`;
    this.byEmailSql = `SELECT * FROM iam_user WHERE ${sql.dialect.equalsIgnoringCase('email', '$1')}`;
  }

  /** The statement that finds a user by name, ignoring case as usernames do. */
  readonly byNameSql: string;
  /** The statement that finds a user by email, ignoring case. */
  readonly byEmailSql: string;
  /** The statement that finds a user by uuid. */
  readonly byUuidSql = 'SELECT * FROM iam_user WHERE uuid = $1';

  byName(username: string): Promise<UserRow | undefined> {
    return this.sql.get<UserRow>(this.byNameSql, [username]);
  }

  byUuid(uuid: string): Promise<UserRow | undefined> {
    return this.sql.get<UserRow>(this.byUuidSql, [uuid]);
  }

  byEmail(email: string): Promise<UserRow | undefined> {
    return this.sql.get<UserRow>(this.byEmailSql, [email]);
  }

  /** By uuid when given, else by username; NOT_FOUND otherwise. */
  async require(ref: { uuid?: string; username?: string }): Promise<UserRow> {
    const row = ref.uuid
      ? await this.byUuid(ref.uuid)
      : ref.username
        ? await this.byName(ref.username)
        : undefined;
    if (!row) {
      if (!ref.uuid && !ref.username)
        throw new PipeworkError('PARAM_INVALID', 'Give the user by username or uuid.');
      throw new PipeworkError('NOT_FOUND', `User '${ref.uuid ?? ref.username}' does not exist.`);
    }
    return row;
  }

  /** Adds the row; CONFLICT when the name or the email is taken. A step of a caller's unit of work. */
  *insertSteps(input: NewUserRow): SqlSteps<UserRow> {
    checkUsername(input.username, 'name');
    if (yield* get(this.byNameSql, [input.username])) {
      throw new PipeworkError('CONFLICT', `User '${input.username}' already exists.`, {
        username: input.username,
      });
    }
    const email = input.email?.trim() || null;
    if (email && (yield* get(this.byEmailSql, [email]))) {
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
    yield* run(
      `INSERT INTO iam_user (uuid, username, email, first_name, last_name, password_hash, can_login, enabled, attributes, created)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        row.uuid,
        row.username,
        row.email,
        row.first_name,
        row.last_name,
        row.password_hash,
        row.can_login,
        row.enabled,
        row.attributes,
        row.created,
      ],
    );
    return row;
  }

  async setPasswordHash(uuid: string, passwordHash: string | null): Promise<void> {
    await this.sql.run('UPDATE iam_user SET password_hash = $1 WHERE uuid = $2', [passwordHash, uuid]);
    this.changed(uuid);
  }

  async setEnabled(uuid: string, enabled: boolean): Promise<void> {
    await this.sql.run('UPDATE iam_user SET enabled = $1 WHERE uuid = $2', [enabled ? 1 : 0, uuid]);
    this.changed(uuid);
  }

  async delete(uuid: string): Promise<void> {
    await this.sql.run('DELETE FROM iam_user WHERE uuid = $1', [uuid]);
    this.changed(uuid);
  }

  /** Grants roles directly; every role must exist. Returns the role names granted. */
  async addRoles(uuid: string, roleNames: readonly string[]): Promise<string[]> {
    const granted = await this.sql.transaction(() => this.addRolesSteps(uuid, roleNames));
    this.changed(uuid);
    return granted;
  }

  *addRolesSteps(uuid: string, roleNames: readonly string[]): SqlSteps<string[]> {
    const names: string[] = [];
    for (const name of roleNames) {
      const role = yield* this.roles.requireSteps(name);
      yield* run('INSERT INTO iam_user_role (user_uuid, role_uuid) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
        uuid,
        role.uuid,
      ]);
      names.push(role.name);
    }
    return names;
  }

  async directRoleNames(uuid: string): Promise<string[]> {
    const rows = await this.sql.all<{ name: string }>(
      'SELECT r.name FROM iam_user_role ur JOIN iam_role r ON r.uuid = ur.role_uuid WHERE ur.user_uuid = $1 ORDER BY r.name',
      [uuid],
    );
    return rows.map((r) => r.name);
  }

  /** Users whose username, email or name contains the filter, by username. */
  async list(query: ListQuery = {}): Promise<UserRepresentation[]> {
    const { limit, offset, like } = pageOf(query);
    const { likeIgnoringCase: like_, orderIgnoringCase } = this.sql.dialect;
    const rows = await this.sql.all<UserRow>(
      `SELECT * FROM iam_user WHERE username ${like_} $1 ESCAPE '\\' OR email ${like_} $1 ESCAPE '\\'
         OR first_name ${like_} $1 ESCAPE '\\' OR last_name ${like_} $1 ESCAPE '\\'
       ORDER BY ${orderIgnoringCase('username')} LIMIT $2 OFFSET $3`,
      [like, limit, offset],
    );
    return rows.map(userRepresentation);
  }

  async representations(uuids: readonly string[], query: ListQuery = {}): Promise<UserRepresentation[]> {
    const filter = (query.filter ?? '').toLowerCase();
    const { limit, offset } = pageOf(query);
    const rows = await Promise.all(uuids.map((uuid) => this.byUuid(uuid)));
    return rows
      .filter((row): row is UserRow => row !== undefined)
      .filter(
        (row) => !filter || [row.username, row.email ?? ''].some((s) => s.toLowerCase().includes(filter)),
      )
      .sort((a, b) => a.username.localeCompare(b.username))
      .slice(offset, offset + limit)
      .map(userRepresentation);
  }
}
