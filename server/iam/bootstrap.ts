/**
 * First-start setup, idempotent on every start: the built-in roles, the public clients, the technical
 * `systemuser` (no password, cannot log in; the target of `iam.run.as systemuser` in app setup pipelines)
 * and the `admin` user (DESIGN.md section 3). Instances starting at once run it one after the other under the
 * IAM's start-up lock, so each entity is made once.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROLE_ADMIN, ROLE_USER } from '../../shared/auth';
import type { ServerConfig } from '../config';
import { type SqlPort, run } from '../db/sql';
import type { Logger } from '../logging/logger';
import type { BuiltInRole } from './built-in-roles';
import type { PasswordHasher } from './password-hasher';
import type { RoleDirectory } from './role-directory';
import type { UserDirectory } from './user-directory';

export const ADMIN_USERNAME = 'admin';
export const SYSTEM_USERNAME = 'systemuser';
/** Public clients that exist on every instance. */
export const DEFAULT_CLIENTS = ['workbench', 'cli'] as const;
export const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password';

export interface BootstrapDeps {
  sql: SqlPort;
  /** The built-in roles with their default permissions (made from the commands' contracts). */
  builtInRoles: readonly BuiltInRole[];
  config: ServerConfig;
  logger: Logger;
  roles: RoleDirectory;
  users: UserDirectory;
  hasher: PasswordHasher;
  /** Where a generated admin password is announced (stdout by default). */
  announce?: (line: string) => void;
}

export async function bootstrapIam(deps: BootstrapDeps): Promise<void> {
  const { sql, roles, users, builtInRoles } = deps;
  const missing: BuiltInRole[] = [];
  for (const role of builtInRoles) if (!(await roles.byName(role.name))) missing.push(role);
  const hasSystemUser = (await users.byName(SYSTEM_USERNAME)) !== undefined;
  const given = await grantedDefaults(sql);
  const now = Date.now();
  const newDefaults: { role: string; composites: string[] }[] = [];
  await sql.transaction(function* () {
    for (const role of missing) {
      yield* roles.createSteps({ name: role.name, description: role.description, builtin: true });
    }
    for (const role of builtInRoles) {
      // Each default is given once: one an admin took away later stays away.
      const fresh = role.composites.filter((c) => !given.has(`${role.name}\u0000${c}`));
      if (fresh.length === 0) continue;
      yield* roles.addCompositesSteps(role.name, fresh);
      for (const composite of fresh) {
        yield* run(
          'INSERT INTO iam_role_default_grant (role_name, composite, granted) VALUES ($1, $2, $3) ' +
            'ON CONFLICT DO NOTHING',
          [role.name, composite, now],
        );
      }
      if (!missing.includes(role)) newDefaults.push({ role: role.name, composites: fresh });
    }
    for (const clientId of DEFAULT_CLIENTS) {
      yield* run(
        'INSERT INTO iam_client (client_id, public, created) VALUES ($1, 1, $2) ON CONFLICT DO NOTHING',
        [clientId, Date.now()],
      );
    }
    if (!hasSystemUser) {
      const row = yield* users.insertSteps({
        username: SYSTEM_USERNAME,
        passwordHash: null,
        canLogin: false,
        firstName: 'System',
      });
      yield* users.addRolesSteps(row.uuid, [ROLE_ADMIN]);
    }
  });
  for (const { role, composites } of newDefaults) {
    deps.logger.info(
      { role, composites },
      'Gave a built-in role the default permissions it did not have yet',
    );
  }
  if (!(await users.byName(ADMIN_USERNAME))) await createAdmin(deps);
}

/** `role\0composite` of every default the built-in roles of this installation were ever given. */
async function grantedDefaults(sql: SqlPort): Promise<Set<string>> {
  const rows = await sql.all<{ role_name: string; composite: string }>(
    'SELECT role_name, composite FROM iam_role_default_grant',
  );
  return new Set(rows.map((r) => `${r.role_name}\u0000${r.composite}`));
}

async function createAdmin({ sql, config, logger, users, hasher, announce }: BootstrapDeps): Promise<void> {
  const generated = !config.adminPassword;
  const password = config.adminPassword ?? randomBytes(18).toString('base64url');
  const passwordHash = await hasher.hash(password);
  await sql.transaction(function* () {
    const row = yield* users.insertSteps({ username: ADMIN_USERNAME, passwordHash, firstName: 'Admin' });
    yield* users.addRolesSteps(row.uuid, [ROLE_ADMIN, ROLE_USER]);
  });
  if (!generated) {
    logger.info({ username: ADMIN_USERNAME }, 'Created the admin user with the configured password');
    return;
  }
  const file = join(config.dataDir, INITIAL_ADMIN_PASSWORD_FILE);
  mkdirSync(config.dataDir, { recursive: true });
  writeFileSync(file, password + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  (announce ?? ((line) => process.stdout.write(line + '\n')))(
    `Created user '${ADMIN_USERNAME}' with the generated password: ${password}  (also in ${file}, mode 0600)`,
  );
  logger.info({ username: ADMIN_USERNAME, file }, 'Created the admin user with a generated password');
}
