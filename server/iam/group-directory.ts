/** Groups: create, delete, membership, and the roles a group grants its members. */
import { randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import type { SqliteDatabase } from '../db';
import { checkGroupName } from './names';
import {
  type GroupRepresentation,
  type GroupRow,
  type ListQuery,
  groupRepresentation,
  pageOf,
} from './records';
import type { RoleDirectory } from './role-directory';

export class GroupDirectory {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly roles: RoleDirectory,
    private readonly changed: () => void,
  ) {}

  byName(name: string): GroupRow | undefined {
    return this.db.prepare<[string], GroupRow>('SELECT * FROM iam_group WHERE name = ?').get(name);
  }

  byUuid(uuid: string): GroupRow | undefined {
    return this.db.prepare<[string], GroupRow>('SELECT * FROM iam_group WHERE uuid = ?').get(uuid);
  }

  /** By uuid when given, else by name; NOT_FOUND otherwise. */
  require(ref: { uuid?: string; name?: string }): GroupRow {
    const row = ref.uuid ? this.byUuid(ref.uuid) : ref.name ? this.byName(ref.name) : undefined;
    if (!row) {
      if (!ref.uuid && !ref.name) throw new PipeworkError('PARAM_INVALID', 'Give the group by name or uuid.');
      throw new PipeworkError('NOT_FOUND', `Group '${ref.uuid ?? ref.name}' does not exist.`);
    }
    return row;
  }

  create(input: { name: string; attributes?: string | null; roleNames?: readonly string[] }): GroupRow {
    checkGroupName(input.name, 'name');
    if (this.byName(input.name)) {
      throw new PipeworkError('CONFLICT', `Group '${input.name}' already exists.`, { group: input.name });
    }
    const row: GroupRow = {
      uuid: randomUUID(),
      name: input.name,
      attributes: input.attributes ?? null,
      created: Date.now(),
    };
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO iam_group (uuid, name, attributes, created) VALUES (@uuid, @name, @attributes, @created)',
        )
        .run(row);
      if (input.roleNames?.length) this.addRoles(row.uuid, input.roleNames);
    })();
    this.changed();
    return row;
  }

  delete(uuid: string): void {
    this.require({ uuid });
    this.db.prepare('DELETE FROM iam_group WHERE uuid = ?').run(uuid);
    this.changed();
  }

  /** Grants roles to a group (and so to its members); every role must exist. */
  addRoles(groupUuid: string, roleNames: readonly string[]): string[] {
    const roles = roleNames.map((name) => this.roles.require(name));
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO iam_group_role (group_uuid, role_uuid) VALUES (?, ?)',
    );
    this.db.transaction(() => {
      for (const role of roles) insert.run(groupUuid, role.uuid);
    })();
    this.changed();
    return roles.map((r) => r.name);
  }

  addMember(groupUuid: string, userUuid: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO iam_group_member (group_uuid, user_uuid) VALUES (?, ?)')
      .run(groupUuid, userUuid);
    this.changed();
  }

  removeMember(groupUuid: string, userUuid: string): void {
    this.db
      .prepare('DELETE FROM iam_group_member WHERE group_uuid = ? AND user_uuid = ?')
      .run(groupUuid, userUuid);
    this.changed();
  }

  memberUuids(groupUuid: string): string[] {
    return this.db
      .prepare<[string], { user_uuid: string }>('SELECT user_uuid FROM iam_group_member WHERE group_uuid = ?')
      .all(groupUuid)
      .map((r) => r.user_uuid);
  }

  groupsOfUser(userUuid: string): GroupRow[] {
    return this.db
      .prepare<[string], GroupRow>(
        'SELECT g.* FROM iam_group g JOIN iam_group_member m ON m.group_uuid = g.uuid WHERE m.user_uuid = ? ORDER BY g.name',
      )
      .all(userUuid);
  }

  list(query: ListQuery = {}): GroupRepresentation[] {
    const { limit, offset, like } = pageOf(query);
    return this.db
      .prepare<[string, number, number], GroupRow>(
        `SELECT * FROM iam_group WHERE name LIKE ? ESCAPE '\\' ORDER BY name LIMIT ? OFFSET ?`,
      )
      .all(like, limit, offset)
      .map(groupRepresentation);
  }
}
