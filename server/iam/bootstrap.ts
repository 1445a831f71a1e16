/**
 * First-start setup, idempotent on every start: the built-in roles, the public clients, the technical
 * `systemuser` (no password, cannot log in; the target of `iam.run.as systemuser` in app setup pipelines)
 * and the `admin` user (DESIGN.md section 3).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROLE_ADMIN, ROLE_USER } from '../../shared/auth';
import type { ServerConfig } from '../config';
import type { SqliteDatabase } from '../db';
import type { Logger } from '../logging/logger';
import { BUILT_IN_ROLES } from './built-in-roles';
import type { PasswordHasher } from './password-hasher';
import type { RoleDirectory } from './role-directory';
import type { UserDirectory } from './user-directory';

export const ADMIN_USERNAME = 'admin';
export const SYSTEM_USERNAME = 'systemuser';
/** Public clients that exist on every instance. */
export const DEFAULT_CLIENTS = ['workbench', 'cli'] as const;
export const INITIAL_ADMIN_PASSWORD_FILE = 'initial-admin-password';

export interface BootstrapDeps {
  db: SqliteDatabase;
  config: ServerConfig;
  logger: Logger;
  roles: RoleDirectory;
  users: UserDirectory;
  hasher: PasswordHasher;
  /** Where a generated admin password is announced (stdout by default). */
  announce?: (line: string) => void;
}

export function bootstrapIam(deps: BootstrapDeps): void {
  const { db, roles, users } = deps;
  db.transaction(() => {
    for (const role of BUILT_IN_ROLES) {
      if (roles.byName(role.name)) continue;
      roles.create({ name: role.name, description: role.description, builtin: true });
      roles.addComposites(role.name, role.composites);
    }
    const insertClient = db.prepare(
      'INSERT OR IGNORE INTO iam_client (client_id, public, created) VALUES (?, 1, ?)',
    );
    for (const clientId of DEFAULT_CLIENTS) insertClient.run(clientId, Date.now());
    if (!users.byName(SYSTEM_USERNAME)) {
      const row = users.insert({
        username: SYSTEM_USERNAME,
        passwordHash: null,
        canLogin: false,
        firstName: 'System',
      });
      users.addRoles(row.uuid, [ROLE_ADMIN]);
    }
  })();
  if (!users.byName(ADMIN_USERNAME)) createAdmin(deps);
}

function createAdmin({ config, logger, users, hasher, announce }: BootstrapDeps): void {
  const generated = !config.adminPassword;
  const password = config.adminPassword ?? randomBytes(18).toString('base64url');
  const row = users.insert({
    username: ADMIN_USERNAME,
    passwordHash: hasher.hashSync(password),
    firstName: 'Admin',
  });
  users.addRoles(row.uuid, [ROLE_ADMIN, ROLE_USER]);
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
