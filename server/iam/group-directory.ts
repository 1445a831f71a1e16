/** Groups: create, delete, membership, and the roles a group grants its members. */
import { randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import { type SqlPort, type SqlSteps, get, run } from '../db/sql';
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
    private readonly sql: SqlPort,
    private readonly roles: RoleDirectory,
    private readonly changed: () => void,
  ) {}

  byName(name: string): Promise<GroupRow | undefined> {
    return this.sql.get<GroupRow>('SELECT * FROM iam_group WHERE name = $1', [name]);
  }

  byUuid(uuid: string): Promise<GroupRow | undefined> {
    return this.sql.get<GroupRow>('SELECT * FROM iam_group WHERE uuid = $1', [uuid]);
  }

  /** By uuid when given, else by name; NOT_FOUND otherwise. */
  async require(ref: { uuid?: string; name?: string }): Promise<GroupRow> {
    const row = ref.uuid ? await this.byUuid(ref.uuid) : ref.name ? await this.byName(ref.name) : undefined;
    if (!row) {
      if (!ref.uuid && !ref.name) throw new PipeworkError('PARAM_INVALID', 'Give the group by name or uuid.');
      throw new PipeworkError('NOT_FOUND', `Group '${ref.uuid ?? ref.name}' does not exist.`);
    }
    return row;
  }

  async create(input: {
    name: string;
    attributes?: string | null;
    roleNames?: readonly string[];
  }): Promise<GroupRow> {
    checkGroupName(input.name, 'name');
    const row: GroupRow = {
      uuid: randomUUID(),
      name: input.name,
      attributes: input.attributes ?? null,
      created: Date.now(),
    };
    const roles = this.roles;
    await this.sql.transaction(function* () {
      if (yield* get('SELECT 1 FROM iam_group WHERE name = $1', [input.name])) {
        throw new PipeworkError('CONFLICT', `Group '${input.name}' already exists.`, { group: input.name });
      }
      yield* run('INSERT INTO iam_group (uuid, name, attributes, created) VALUES ($1, $2, $3, $4)', [
        row.uuid,
        row.name,
        row.attributes,
        row.created,
      ]);
      if (input.roleNames?.length) yield* addRolesSteps(roles, row.uuid, input.roleNames);
    });
    this.changed();
    return row;
  }

  async delete(uuid: string): Promise<void> {
    await this.require({ uuid });
    await this.sql.run('DELETE FROM iam_group WHERE uuid = $1', [uuid]);
    this.changed();
  }

  /** Grants roles to a group (and so to its members); every role must exist. */
  async addRoles(groupUuid: string, roleNames: readonly string[]): Promise<string[]> {
    const granted = await this.sql.transaction(() => addRolesSteps(this.roles, groupUuid, roleNames));
    this.changed();
    return granted;
  }

  async addMember(groupUuid: string, userUuid: string): Promise<void> {
    await this.sql.transaction(() => this.addMemberSteps(groupUuid, userUuid));
    this.changed();
  }

  *addMemberSteps(groupUuid: string, userUuid: string): SqlSteps<void> {
    yield* run(
      'INSERT INTO iam_group_member (group_uuid, user_uuid) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [groupUuid, userUuid],
    );
  }

  async removeMember(groupUuid: string, userUuid: string): Promise<void> {
    await this.sql.run('DELETE FROM iam_group_member WHERE group_uuid = $1 AND user_uuid = $2', [
      groupUuid,
      userUuid,
    ]);
    this.changed();
  }

  async memberUuids(groupUuid: string): Promise<string[]> {
    const rows = await this.sql.all<{ user_uuid: string }>(
      'SELECT user_uuid FROM iam_group_member WHERE group_uuid = $1',
      [groupUuid],
    );
    return rows.map((r) => r.user_uuid);
  }

  groupsOfUser(userUuid: string): Promise<GroupRow[]> {
    return this.sql.all<GroupRow>(
      'SELECT g.* FROM iam_group g JOIN iam_group_member m ON m.group_uuid = g.uuid WHERE m.user_uuid = $1 ORDER BY g.name',
      [userUuid],
    );
  }

  async list(query: ListQuery = {}): Promise<GroupRepresentation[]> {
    const { limit, offset, like } = pageOf(query);
    const rows = await this.sql.all<GroupRow>(
      `SELECT * FROM iam_group WHERE name ${this.sql.dialect.likeIgnoringCase} $1 ESCAPE '\\'
       ORDER BY name LIMIT $2 OFFSET $3`,
      [like, limit, offset],
    );
    return rows.map(groupRepresentation);
  }
}

function* addRolesSteps(
  roles: RoleDirectory,
  groupUuid: string,
  roleNames: readonly string[],
): SqlSteps<string[]> {
  const names: string[] = [];
  for (const name of roleNames) {
    const role = yield* roles.requireSteps(name);
    yield* run('INSERT INTO iam_group_role (group_uuid, role_uuid) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      groupUuid,
      role.uuid,
    ]);
    names.push(role.name);
  }
  return names;
}
