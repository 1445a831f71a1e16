/**
 * Builds Principals (effective roles with composites expanded, group and tenant uuids) and caches them until
 * anything in IAM changes (here or, through the IAM change feed, on another instance), so resolving the
 * caller of a request costs a map lookup.
 */
import type { Principal } from '../../shared/auth';
import type { SqlPort } from '../db/sql';
import type { UserRow } from './records';
import type { RoleDirectory } from './role-directory';
import type { UserDirectory } from './user-directory';

const MAX_CACHED = 10_000;

export class PrincipalResolver {
  private readonly byUuid = new Map<string, Principal | null>();
  private readonly uuidByName = new Map<string, string | null>();
  /** Bumped by every invalidation, so a build that raced one is not cached. */
  private generation = 0;

  constructor(
    private readonly sql: SqlPort,
    private readonly roles: RoleDirectory,
    private readonly users: UserDirectory,
  ) {}

  /** Drops every cached principal (roles, groups and composites reach across users). */
  invalidate(): void {
    this.generation += 1;
    this.byUuid.clear();
    this.uuidByName.clear();
  }

  /** The cached principal, without a database round trip; undefined when it is not cached. */
  cachedByUuid(uuid: string): Principal | null | undefined {
    return this.byUuid.get(uuid);
  }

  async principalByUuid(uuid: string): Promise<Principal | null> {
    const cached = this.byUuid.get(uuid);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const row = await this.users.byUuid(uuid);
    const principal = row && row.enabled ? await this.build(row) : null;
    if (generation === this.generation) {
      if (this.byUuid.size > MAX_CACHED) this.byUuid.clear();
      this.byUuid.set(uuid, principal);
    }
    return principal;
  }

  async principalByUsername(username: string): Promise<Principal | null> {
    const key = username.toLowerCase();
    let uuid = this.uuidByName.get(key);
    if (uuid === undefined) {
      const generation = this.generation;
      uuid = (await this.users.byName(username))?.uuid ?? null;
      if (generation === this.generation) {
        if (this.uuidByName.size > MAX_CACHED) this.uuidByName.clear();
        this.uuidByName.set(key, uuid);
      }
    }
    return uuid ? this.principalByUuid(uuid) : null;
  }

  private async build(row: UserRow): Promise<Principal> {
    const [groups, tenants, roles] = await Promise.all([
      this.sql.all<{ group_uuid: string }>('SELECT group_uuid FROM iam_group_member WHERE user_uuid = $1', [
        row.uuid,
      ]),
      this.sql.all<{ tenant_uuid: string }>(
        'SELECT tenant_uuid FROM iam_tenant_member WHERE user_uuid = $1',
        [row.uuid],
      ),
      this.roles.effectiveRoleNames(row.uuid),
    ]);
    const name = [row.first_name, row.last_name].filter(Boolean).join(' ');
    const principal: Principal = {
      uuid: row.uuid,
      username: row.username,
      roles: new Set(roles),
      groups: new Set(groups.map((r) => r.group_uuid)),
      tenants: new Set(tenants.map((r) => r.tenant_uuid)),
      displayName: name || row.username,
    };
    if (row.email) principal.email = row.email;
    return Object.freeze(principal);
  }
}
