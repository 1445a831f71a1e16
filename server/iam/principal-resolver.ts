/**
 * Builds Principals (effective roles with composites expanded, group and tenant uuids) and caches them until
 * anything in IAM changes, so resolving the caller of a request costs a map lookup.
 */
import type { Principal } from '../../shared/auth';
import type { SqliteDatabase } from '../db';
import type { UserRow } from './records';
import type { RoleDirectory } from './role-directory';

export class PrincipalResolver {
  private readonly byUuid = new Map<string, Principal | null>();
  private readonly uuidByName = new Map<string, string | null>();

  constructor(
    private readonly db: SqliteDatabase,
    private readonly roles: RoleDirectory,
  ) {}

  /** Drops every cached principal (roles, groups and composites reach across users). */
  invalidate(): void {
    this.byUuid.clear();
    this.uuidByName.clear();
  }

  principalByUuid(uuid: string): Principal | null {
    const cached = this.byUuid.get(uuid);
    if (cached !== undefined) return cached;
    const row = this.db.prepare<[string], UserRow>('SELECT * FROM iam_user WHERE uuid = ?').get(uuid);
    const principal = row && row.enabled ? this.build(row) : null;
    if (this.byUuid.size > 10_000) this.byUuid.clear();
    this.byUuid.set(uuid, principal);
    return principal;
  }

  principalByUsername(username: string): Principal | null {
    const key = username.toLowerCase();
    let uuid = this.uuidByName.get(key);
    if (uuid === undefined) {
      uuid =
        this.db
          .prepare<[string], { uuid: string }>('SELECT uuid FROM iam_user WHERE username = ?')
          .get(username)?.uuid ?? null;
      if (this.uuidByName.size > 10_000) this.uuidByName.clear();
      this.uuidByName.set(key, uuid);
    }
    return uuid ? this.principalByUuid(uuid) : null;
  }

  private build(row: UserRow): Principal {
    const groups = this.db
      .prepare<[string], { group_uuid: string }>(
        'SELECT group_uuid FROM iam_group_member WHERE user_uuid = ?',
      )
      .all(row.uuid)
      .map((r) => r.group_uuid);
    const tenants = this.db
      .prepare<[string], { tenant_uuid: string }>(
        'SELECT tenant_uuid FROM iam_tenant_member WHERE user_uuid = ?',
      )
      .all(row.uuid)
      .map((r) => r.tenant_uuid);
    const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
    const principal: Principal = {
      uuid: row.uuid,
      username: row.username,
      roles: new Set(this.roles.effectiveRoleNames(row.uuid)),
      groups: new Set(groups),
      tenants: new Set(tenants),
      displayName: name || row.username,
    };
    if (row.email) principal.email = row.email;
    return Object.freeze(principal);
  }
}
