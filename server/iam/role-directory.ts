/** Roles and their composites: create, look up, nest, and expand to the effective set a user holds. */
import { randomUUID } from 'node:crypto';
import { PipeworkError } from '../../shared/errors';
import { type SqlPort, type SqlSteps, get, run } from '../db/sql';
import { checkRoleName } from './names';
import { type ListQuery, type RoleRepresentation, type RoleRow, pageOf, roleRepresentation } from './records';

const CHILDREN_OF_NAMED = `SELECT c.name FROM iam_role p JOIN iam_role_composite rc ON rc.parent_uuid = p.uuid
  JOIN iam_role c ON c.uuid = rc.child_uuid WHERE p.name = $1 ORDER BY c.name`;

export class RoleDirectory {
  /** Every role name, kept for the synchronous app-access check; reloaded after each change. */
  private names = new Set<string>();

  constructor(
    private readonly sql: SqlPort,
    private readonly changed: () => void,
  ) {}

  /** Reloads the names (at start, and when another instance changed roles). */
  async reloadNames(): Promise<void> {
    const rows = await this.sql.all<{ name: string }>('SELECT name FROM iam_role');
    this.names = new Set(rows.map((r) => r.name));
  }

  /** Whether a role of this name exists, from the kept names (no database round trip). */
  hasName(name: string): boolean {
    return this.names.has(name);
  }

  private async afterChange(): Promise<void> {
    await this.reloadNames();
    this.changed();
  }

  byName(name: string): Promise<RoleRow | undefined> {
    return this.sql.get<RoleRow>('SELECT * FROM iam_role WHERE name = $1', [name]);
  }

  /** The role, or NOT_FOUND naming it. */
  async require(name: string): Promise<RoleRow> {
    return requireRole(name, await this.byName(name));
  }

  /** The steps of `require`, inside a caller's unit of work. */
  *requireSteps(name: string): SqlSteps<RoleRow> {
    return requireRole(name, yield* get<RoleRow>('SELECT * FROM iam_role WHERE name = $1', [name]));
  }

  /** Creates a role; CONFLICT when the name is taken. */
  async create(input: {
    name: string;
    description?: string;
    attributes?: string | null;
    builtin?: boolean;
  }): Promise<RoleRow> {
    const row = await this.sql.transaction(() => this.createSteps(input));
    await this.afterChange();
    return row;
  }

  *createSteps(input: {
    name: string;
    description?: string;
    attributes?: string | null;
    builtin?: boolean;
  }): SqlSteps<RoleRow> {
    checkRoleName(input.name, 'name');
    if (yield* get('SELECT 1 FROM iam_role WHERE name = $1', [input.name])) {
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
    yield* run(
      'INSERT INTO iam_role (uuid, name, description, attributes, builtin, created) VALUES ($1, $2, $3, $4, $5, $6)',
      [row.uuid, row.name, row.description, row.attributes, row.builtin, row.created],
    );
    return row;
  }

  /** The role, created when missing (permission roles such as `CAN_PIPE_x` are plain names). */
  async ensure(name: string): Promise<RoleRow> {
    const row = await this.sql.transaction(() => this.ensureSteps(name));
    if (!this.names.has(name)) await this.afterChange();
    return row;
  }

  *ensureSteps(name: string): SqlSteps<RoleRow> {
    const existing = yield* get<RoleRow>('SELECT * FROM iam_role WHERE name = $1', [name]);
    return existing ?? (yield* this.createSteps({ name }));
  }

  /**
   * Adds child roles to a role. Children that do not exist yet are created: a permission role is only a
   * name, and the app setup pipelines grant `CAN_PIPE_*` names that no one created before.
   */
  async addComposites(parentName: string, childNames: readonly string[]): Promise<RoleRow[]> {
    const children = await this.sql.transaction(() => this.addCompositesSteps(parentName, childNames));
    await this.afterChange();
    return children;
  }

  *addCompositesSteps(parentName: string, childNames: readonly string[]): SqlSteps<RoleRow[]> {
    const parent = yield* this.requireSteps(parentName);
    const children: RoleRow[] = [];
    for (const name of childNames) children.push(yield* this.ensureSteps(checkRoleName(name, 'composites')));
    for (const child of children) {
      if (child.uuid === parent.uuid) continue;
      yield* run(
        'INSERT INTO iam_role_composite (parent_uuid, child_uuid) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [parent.uuid, child.uuid],
      );
    }
    return children;
  }

  async compositeNames(name: string): Promise<string[]> {
    return (await this.sql.all<{ name: string }>(CHILDREN_OF_NAMED, [name])).map((r) => r.name);
  }

  async list(query: ListQuery = {}): Promise<RoleRepresentation[]> {
    const { limit, offset, like } = pageOf(query);
    const rows = await this.sql.all<RoleRow & { composite: number }>(
      `SELECT r.*, CASE WHEN EXISTS (SELECT 1 FROM iam_role_composite c WHERE c.parent_uuid = r.uuid)
         THEN 1 ELSE 0 END AS composite
       FROM iam_role r WHERE r.name ${this.sql.dialect.likeIgnoringCase} $1 ESCAPE '\\'
       ORDER BY r.name LIMIT $2 OFFSET $3`,
      [like, limit, offset],
    );
    return rows.map((row) => roleRepresentation(row, Number(row.composite) === 1));
  }

  /** Deletes a non-built-in role. */
  async delete(name: string): Promise<void> {
    const row = await this.require(name);
    if (row.builtin)
      throw new PipeworkError('FORBIDDEN', `Role '${name}' is built in and cannot be deleted.`);
    await this.sql.run('DELETE FROM iam_role WHERE uuid = $1', [row.uuid]);
    await this.afterChange();
  }

  /** Every role name a user holds: directly, through groups, and through composites (cycles are harmless). */
  async effectiveRoleNames(userUuid: string): Promise<string[]> {
    const rows = await this.sql.all<{ name: string }>(
      `WITH RECURSIVE held(uuid) AS (
         SELECT role_uuid FROM iam_user_role WHERE user_uuid = $1
         UNION SELECT gr.role_uuid FROM iam_group_role gr
           JOIN iam_group_member gm ON gm.group_uuid = gr.group_uuid WHERE gm.user_uuid = $1
         UNION SELECT rc.child_uuid FROM iam_role_composite rc JOIN held ON rc.parent_uuid = held.uuid)
       SELECT r.name FROM iam_role r JOIN held ON held.uuid = r.uuid ORDER BY r.name`,
      [userUuid],
    );
    return rows.map((r) => r.name);
  }

  /** The names and everything they contain through composites (unknown names are kept as they are). */
  async expand(names: readonly string[]): Promise<Set<string>> {
    const result = new Set<string>(names);
    const queue = [...names];
    while (queue.length > 0) {
      for (const { name } of await this.sql.all<{ name: string }>(CHILDREN_OF_NAMED, [queue.pop()!])) {
        if (!result.has(name)) {
          result.add(name);
          queue.push(name);
        }
      }
    }
    return result;
  }

  /** Effective role names of a group (its roles and their composites). */
  async effectiveGroupRoleNames(groupUuid: string): Promise<string[]> {
    const rows = await this.sql.all<{ name: string }>(
      `WITH RECURSIVE held(uuid) AS (
         SELECT role_uuid FROM iam_group_role WHERE group_uuid = $1
         UNION SELECT rc.child_uuid FROM iam_role_composite rc JOIN held ON rc.parent_uuid = held.uuid)
       SELECT r.name FROM iam_role r JOIN held ON held.uuid = r.uuid ORDER BY r.name`,
      [groupUuid],
    );
    return rows.map((r) => r.name);
  }

  /** Uuids of the users who hold a role effectively (directly, through a group, or through a composite). */
  async memberUuids(name: string): Promise<string[]> {
    const role = await this.require(name);
    const rows = await this.sql.all<{ uuid: string }>(
      `WITH RECURSIVE holders(uuid) AS (
         SELECT CAST($1 AS TEXT)
         UNION SELECT rc.parent_uuid FROM iam_role_composite rc JOIN holders ON rc.child_uuid = holders.uuid)
       SELECT ur.user_uuid AS uuid FROM iam_user_role ur JOIN holders ON holders.uuid = ur.role_uuid
       UNION SELECT gm.user_uuid FROM iam_group_member gm
         JOIN iam_group_role gr ON gr.group_uuid = gm.group_uuid JOIN holders ON holders.uuid = gr.role_uuid`,
      [role.uuid],
    );
    return rows.map((r) => r.uuid);
  }
}

function requireRole(name: string, row: RoleRow | undefined): RoleRow {
  if (!row) throw new PipeworkError('NOT_FOUND', `Role '${name}' does not exist.`, { role: name });
  return row;
}
