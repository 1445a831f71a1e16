/** Roles and their composites: create, look up, nest, and expand to the effective set a user holds. */
import { randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import type { SqliteDatabase } from '../db';
import { checkRoleName } from './names';
import { type ListQuery, type RoleRepresentation, type RoleRow, pageOf, roleRepresentation } from './records';

export class RoleDirectory {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly changed: () => void,
  ) {}

  byName(name: string): RoleRow | undefined {
    return this.db.prepare<[string], RoleRow>('SELECT * FROM iam_role WHERE name = ?').get(name);
  }

  /** The role, or NOT_FOUND naming it. */
  require(name: string): RoleRow {
    const row = this.byName(name);
    if (!row) throw new PipeworkError('NOT_FOUND', `Role '${name}' does not exist.`, { role: name });
    return row;
  }

  /** Creates a role; CONFLICT when the name is taken. */
  create(input: {
    name: string;
    description?: string;
    attributes?: string | null;
    builtin?: boolean;
  }): RoleRow {
    checkRoleName(input.name, 'name');
    if (this.byName(input.name)) {
      throw new PipeworkError('CONFLICT', `Role '${input.name}' already exists.`, { role: input.name });
    }
    const row: RoleRow = {
      uuid: randomUUID(),
      name: input.name,
      description: input.description ?? null,
      attributes: input.attributes ?? null,
      builtin: input.builtin ? 1 : 0,
      created: Date.now(),
    };
    this.db
      .prepare(
        'INSERT INTO iam_role (uuid, name, description, attributes, builtin, created) VALUES (@uuid, @name, @description, @attributes, @builtin, @created)',
      )
      .run(row);
    this.changed();
    return row;
  }

  /** The role, created when missing (permission roles such as `CAN_PIPE_x` are plain names). */
  ensure(name: string): RoleRow {
    return this.byName(name) ?? this.create({ name });
  }

  /**
   * Adds child roles to a role. Children that do not exist yet are created: a permission role is only a
   * name, and the app setup pipelines grant `CAN_PIPE_*` names that no one created before.
   */
  addComposites(parentName: string, childNames: readonly string[]): RoleRow[] {
    const parent = this.require(parentName);
    const children = childNames.map((name) => this.ensure(checkRoleName(name, 'composites')));
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO iam_role_composite (parent_uuid, child_uuid) VALUES (?, ?)',
    );
    this.db.transaction(() => {
      for (const child of children) if (child.uuid !== parent.uuid) insert.run(parent.uuid, child.uuid);
    })();
    this.changed();
    return children;
  }

  compositeNames(name: string): string[] {
    return this.db
      .prepare<[string], { name: string }>(
        `SELECT c.name FROM iam_role p JOIN iam_role_composite rc ON rc.parent_uuid = p.uuid
         JOIN iam_role c ON c.uuid = rc.child_uuid WHERE p.name = ? ORDER BY c.name`,
      )
      .all(name)
      .map((r) => r.name);
  }

  list(query: ListQuery = {}): RoleRepresentation[] {
    const { limit, offset, like } = pageOf(query);
    return this.db
      .prepare<[string, number, number], RoleRow & { composite: number }>(
        `SELECT r.*, EXISTS (SELECT 1 FROM iam_role_composite c WHERE c.parent_uuid = r.uuid) AS composite
         FROM iam_role r WHERE r.name LIKE ? ESCAPE '\\' ORDER BY r.name LIMIT ? OFFSET ?`,
      )
      .all(like, limit, offset)
      .map((row) => roleRepresentation(row, row.composite === 1));
  }

  /** Deletes a non-built-in role. */
  delete(name: string): void {
    const row = this.require(name);
    if (row.builtin)
      throw new PipeworkError('FORBIDDEN', `Role '${name}' is built in and cannot be deleted.`);
    this.db.prepare('DELETE FROM iam_role WHERE uuid = ?').run(row.uuid);
    this.changed();
  }

  /** Every role name a user holds: directly, through groups, and through composites (cycles are harmless). */
  effectiveRoleNames(userUuid: string): string[] {
    return this.db
      .prepare<[string, string], { name: string }>(
        `WITH RECURSIVE held(uuid) AS (
           SELECT role_uuid FROM iam_user_role WHERE user_uuid = ?
           UNION SELECT gr.role_uuid FROM iam_group_role gr
             JOIN iam_group_member gm ON gm.group_uuid = gr.group_uuid WHERE gm.user_uuid = ?
           UNION SELECT rc.child_uuid FROM iam_role_composite rc JOIN held ON rc.parent_uuid = held.uuid)
         SELECT r.name FROM iam_role r JOIN held ON held.uuid = r.uuid ORDER BY r.name`,
      )
      .all(userUuid, userUuid)
      .map((r) => r.name);
  }

  /** The names and everything they contain through composites (unknown names are kept as they are). */
  expand(names: readonly string[]): Set<string> {
    const result = new Set<string>(names);
    const children = this.db.prepare<[string], { name: string }>(
      `SELECT c.name FROM iam_role p JOIN iam_role_composite rc ON rc.parent_uuid = p.uuid
       JOIN iam_role c ON c.uuid = rc.child_uuid WHERE p.name = ?`,
    );
    const queue = [...names];
    while (queue.length > 0) {
      for (const { name } of children.all(queue.pop()!)) {
        if (!result.has(name)) {
          result.add(name);
          queue.push(name);
        }
      }
    }
    return result;
  }

  /** Effective role names of a group (its roles and their composites). */
  effectiveGroupRoleNames(groupUuid: string): string[] {
    return this.db
      .prepare<[string], { name: string }>(
        `WITH RECURSIVE held(uuid) AS (
           SELECT role_uuid FROM iam_group_role WHERE group_uuid = ?
           UNION SELECT rc.child_uuid FROM iam_role_composite rc JOIN held ON rc.parent_uuid = held.uuid)
         SELECT r.name FROM iam_role r JOIN held ON held.uuid = r.uuid ORDER BY r.name`,
      )
      .all(groupUuid)
      .map((r) => r.name);
  }

  /** Uuids of the users who hold a role effectively (directly, through a group, or through a composite). */
  memberUuids(name: string): string[] {
    const role = this.require(name);
    return this.db
      .prepare<[string], { uuid: string }>(
        `WITH RECURSIVE holders(uuid) AS (
           SELECT ?
           UNION SELECT rc.parent_uuid FROM iam_role_composite rc JOIN holders ON rc.child_uuid = holders.uuid)
         SELECT ur.user_uuid AS uuid FROM iam_user_role ur JOIN holders ON holders.uuid = ur.role_uuid
         UNION SELECT gm.user_uuid FROM iam_group_member gm
           JOIN iam_group_role gr ON gr.group_uuid = gm.group_uuid JOIN holders ON holders.uuid = gr.role_uuid`,
      )
      .all(role.uuid)
      .map((r) => r.uuid);
  }
}
