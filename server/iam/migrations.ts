/** The IAM module's tables: users, groups, roles, tenants, clients, signing keys, refresh tokens, login failures. */
import type { Migration } from '../db';

export const IAM_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'users, groups, roles, tenants, clients, keys, refresh tokens, login failures',
    up(db) {
      db.exec(`
        CREATE TABLE iam_user (
          uuid TEXT PRIMARY KEY,
          username TEXT NOT NULL UNIQUE COLLATE NOCASE,
          email TEXT COLLATE NOCASE,
          first_name TEXT,
          last_name TEXT,
          password_hash TEXT,
          can_login INTEGER NOT NULL DEFAULT 1,
          enabled INTEGER NOT NULL DEFAULT 1,
          attributes TEXT,
          created INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX iam_user_email ON iam_user (email) WHERE email IS NOT NULL;

        CREATE TABLE iam_role (
          uuid TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          description TEXT,
          attributes TEXT,
          builtin INTEGER NOT NULL DEFAULT 0,
          created INTEGER NOT NULL
        );
        CREATE TABLE iam_role_composite (
          parent_uuid TEXT NOT NULL REFERENCES iam_role (uuid) ON DELETE CASCADE,
          child_uuid TEXT NOT NULL REFERENCES iam_role (uuid) ON DELETE CASCADE,
          PRIMARY KEY (parent_uuid, child_uuid)
        );

        CREATE TABLE iam_group (
          uuid TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          attributes TEXT,
          created INTEGER NOT NULL
        );
        CREATE TABLE iam_group_role (
          group_uuid TEXT NOT NULL REFERENCES iam_group (uuid) ON DELETE CASCADE,
          role_uuid TEXT NOT NULL REFERENCES iam_role (uuid) ON DELETE CASCADE,
          PRIMARY KEY (group_uuid, role_uuid)
        );
        CREATE TABLE iam_group_member (
          group_uuid TEXT NOT NULL REFERENCES iam_group (uuid) ON DELETE CASCADE,
          user_uuid TEXT NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
          PRIMARY KEY (group_uuid, user_uuid)
        );
        CREATE INDEX iam_group_member_user ON iam_group_member (user_uuid);

        CREATE TABLE iam_user_role (
          user_uuid TEXT NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
          role_uuid TEXT NOT NULL REFERENCES iam_role (uuid) ON DELETE CASCADE,
          PRIMARY KEY (user_uuid, role_uuid)
        );
        CREATE INDEX iam_user_role_role ON iam_user_role (role_uuid);

        CREATE TABLE iam_tenant (
          uuid TEXT PRIMARY KEY,
          name TEXT NOT NULL UNIQUE,
          created INTEGER NOT NULL
        );
        CREATE TABLE iam_tenant_member (
          tenant_uuid TEXT NOT NULL REFERENCES iam_tenant (uuid) ON DELETE CASCADE,
          user_uuid TEXT NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
          PRIMARY KEY (tenant_uuid, user_uuid)
        );
        CREATE INDEX iam_tenant_member_user ON iam_tenant_member (user_uuid);

        CREATE TABLE iam_client (
          client_id TEXT PRIMARY KEY,
          public INTEGER NOT NULL,
          secret_hash TEXT,
          created INTEGER NOT NULL
        );

        CREATE TABLE iam_signing_key (
          kid TEXT PRIMARY KEY,
          alg TEXT NOT NULL,
          private_jwk TEXT NOT NULL,
          public_jwk TEXT NOT NULL,
          created INTEGER NOT NULL
        );

        CREATE TABLE iam_refresh_family (
          family_id TEXT PRIMARY KEY,
          user_uuid TEXT NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
          client_id TEXT NOT NULL,
          created INTEGER NOT NULL,
          expires INTEGER NOT NULL,
          revoked INTEGER
        );
        CREATE TABLE iam_refresh_token (
          token_hash TEXT PRIMARY KEY,
          family_id TEXT NOT NULL REFERENCES iam_refresh_family (family_id) ON DELETE CASCADE,
          issued INTEGER NOT NULL,
          expires INTEGER NOT NULL,
          rotated INTEGER
        );
        CREATE INDEX iam_refresh_token_family ON iam_refresh_token (family_id);

        CREATE TABLE iam_login_failure (
          username TEXT PRIMARY KEY COLLATE NOCASE,
          failures INTEGER NOT NULL,
          first_failure INTEGER NOT NULL,
          locked_until INTEGER
        );
      `);
    },
  },
  {
    version: 2,
    description: 'API tokens (stored as digests)',
    up(db) {
      db.exec(`
        CREATE TABLE iam_api_token (
          uuid TEXT PRIMARY KEY,
          token_hash TEXT NOT NULL UNIQUE,
          user_uuid TEXT NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
          name TEXT NOT NULL,
          created INTEGER NOT NULL,
          expires INTEGER NOT NULL,
          last_used INTEGER,
          revoked INTEGER
        );
        CREATE INDEX iam_api_token_user ON iam_api_token (user_uuid);
      `);
    },
  },
  {
    version: 3,
    description:
      'login failures per account and source (an address is locked out of an account, not the account)',
    up(db) {
      // Counts are short-lived (a window, a lock): they start again empty.
      db.exec(`
        DROP TABLE iam_login_failure;
        CREATE TABLE iam_login_failure (
          username TEXT NOT NULL COLLATE NOCASE,
          source TEXT NOT NULL,
          failures INTEGER NOT NULL,
          first_failure INTEGER NOT NULL,
          locked_until INTEGER,
          PRIMARY KEY (username, source)
        );
      `);
    },
  },
  {
    version: 4,
    description:
      'the default permissions each built-in role has been given (so new ones reach old installations)',
    up(db) {
      db.exec(`
        CREATE TABLE iam_role_default_grant (
          role_name TEXT NOT NULL,
          composite TEXT NOT NULL,
          granted INTEGER NOT NULL,
          PRIMARY KEY (role_name, composite)
        );
      `);
    },
  },
];
