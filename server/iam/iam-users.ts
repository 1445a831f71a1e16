/**
 * A user's life: created with roles, groups and tenants in one transaction, a password set or removed, enabled
 * or disabled, deleted. Ending a password, enabling or the user ends its sessions; the built-in users stay.
 */
import { ROLE_USER, type Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import type { RefreshTokenStore } from '../auth/refresh-tokens';
import type { SqlPort } from '../db/sql';
import { ADMIN_USERNAME, SYSTEM_USERNAME } from './bootstrap';
import type { GroupDirectory } from './group-directory';
import type { IamService } from './iam-types';
import type { CreateUserInput } from './iam-types';
import type { PasswordHasher } from './password-hasher';
import type { TenantDirectory } from './tenant-directory';
import type { UserDirectory } from './user-directory';

export interface UserLifecycleDeps {
  sql: SqlPort;
  users: UserDirectory;
  groups: GroupDirectory;
  tenants: TenantDirectory;
  hasher: PasswordHasher;
  refreshTokens: RefreshTokenStore;
  principalByUuid(uuid: string): Promise<Principal | null>;
  /** A user was made here: forget what is stale, tell the other instances. */
  userChanged(uuid: string): void;
}

export type UserLifecycle = Pick<IamService, 'createUser' | 'setPassword' | 'setEnabled' | 'deleteUser'>;

export function userLifecycle(deps: UserLifecycleDeps): UserLifecycle {
  const { sql, users, groups, tenants, hasher, refreshTokens, principalByUuid } = deps;
  return {
    async createUser(input: CreateUserInput): Promise<Principal> {
      const passwordHash = input.password === undefined ? null : await hasher.hash(input.password);
      const groupRows = await Promise.all(
        (input.groups ?? []).map(async (g) => (await groups.byUuid(g)) ?? groups.require({ name: g })),
      );
      const tenantRows = await Promise.all(
        (input.tenants ?? []).map(async (t) => (await tenants.byUuid(t)) ?? tenants.require({ name: t })),
      );
      const row = await sql.transaction(function* () {
        const created = yield* users.insertSteps({
          username: input.username,
          passwordHash,
          email: input.email,
          firstName: input.firstName,
          lastName: input.lastName,
          attributes: input.attributes,
          canLogin: input.canLogin,
        });
        yield* users.addRolesSteps(created.uuid, [ROLE_USER, ...(input.roles ?? [])]);
        for (const group of groupRows) yield* groups.addMemberSteps(group.uuid, created.uuid);
        for (const tenant of tenantRows) yield* tenants.addMemberSteps(tenant.uuid, created.uuid);
        return created;
      });
      deps.userChanged(row.uuid);
      return (await principalByUuid(row.uuid))!;
    },

    async setPassword(userUuid: string, password: string | null): Promise<void> {
      await users.require({ uuid: userUuid });
      await users.setPasswordHash(userUuid, password === null ? null : await hasher.hash(password));
      await refreshTokens.revokeUser(userUuid);
    },

    async setEnabled(userUuid: string, enabled: boolean): Promise<void> {
      const row = await users.require({ uuid: userUuid });
      if (!enabled && (row.username === SYSTEM_USERNAME || row.username === ADMIN_USERNAME)) {
        throw new PipeworkError('FORBIDDEN', `The built-in user '${row.username}' cannot be disabled.`);
      }
      await users.setEnabled(userUuid, enabled);
      if (!enabled) await refreshTokens.revokeUser(userUuid);
    },

    async deleteUser(userUuid: string): Promise<void> {
      const row = await users.require({ uuid: userUuid });
      if (row.username === SYSTEM_USERNAME || row.username === ADMIN_USERNAME) {
        throw new PipeworkError('FORBIDDEN', `The built-in user '${row.username}' cannot be deleted.`);
      }
      await refreshTokens.revokeUser(userUuid);
      await users.delete(userUuid);
    },
  };
}
