/**
 * The IAM module's tables on PostgreSQL: the same tables and columns as on SQLite (`migrations.ts`), so the
 * directories run the same statements on both. Case-insensitive names (SQLite's NOCASE) are unique indexes on
 * `lower(...)`; millisecond timestamps are bigint; flags stay integers 0/1 as on SQLite.
 */
import type { PostgresMigration } from '../store/postgres/postgres-migrations';

export const POSTGRES_IAM_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'users, groups, roles, tenants, clients, keys, refresh tokens, login failures',
    sql: `
      CREATE TABLE iam_user (
        uuid text PRIMARY KEY,
        username text NOT NULL,
        email text,
        first_name text,
        last_name text,
        password_hash text,
        can_login integer NOT NULL DEFAULT 1,
        enabled integer NOT NULL DEFAULT 1,
        attributes text,
        created bigint NOT NULL
      );
      CREATE UNIQUE INDEX iam_user_username ON iam_user (lower(username));
      CREATE UNIQUE INDEX iam_user_email ON iam_user (lower(email)) WHERE email IS NOT NULL;

      CREATE TABLE iam_role (
        uuid text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        description text,
        attributes text,
        builtin integer NOT NULL DEFAULT 0,
        created bigint NOT NULL
      );
      CREATE TABLE iam_role_composite (
        parent_uuid text NOT NULL REFERENCES iam_role (uuid) ON DELETE CASCADE,
        child_uuid text NOT NULL REFERENCES iam_role (uuid) ON DELETE CASCADE,
        PRIMARY KEY (parent_uuid, child_uuid)
      );
      CREATE INDEX iam_role_composite_child ON iam_role_composite (child_uuid);

      CREATE TABLE iam_group (
        uuid text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        attributes text,
        created bigint NOT NULL
      );
      CREATE TABLE iam_group_role (
        group_uuid text NOT NULL REFERENCES iam_group (uuid) ON DELETE CASCADE,
        role_uuid text NOT NULL REFERENCES iam_role (uuid) ON DELETE CASCADE,
        PRIMARY KEY (group_uuid, role_uuid)
      );
      CREATE INDEX iam_group_role_role ON iam_group_role (role_uuid);
      CREATE TABLE iam_group_member (
        group_uuid text NOT NULL REFERENCES iam_group (uuid) ON DELETE CASCADE,
        user_uuid text NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
        PRIMARY KEY (group_uuid, user_uuid)
      );
      CREATE INDEX iam_group_member_user ON iam_group_member (user_uuid);

      CREATE TABLE iam_user_role (
        user_uuid text NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
        role_uuid text NOT NULL REFERENCES iam_role (uuid) ON DELETE CASCADE,
        PRIMARY KEY (user_uuid, role_uuid)
      );
      CREATE INDEX iam_user_role_role ON iam_user_role (role_uuid);

      CREATE TABLE iam_tenant (
        uuid text PRIMARY KEY,
        name text NOT NULL UNIQUE,
        created bigint NOT NULL
      );
      CREATE TABLE iam_tenant_member (
        tenant_uuid text NOT NULL REFERENCES iam_tenant (uuid) ON DELETE CASCADE,
        user_uuid text NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
        PRIMARY KEY (tenant_uuid, user_uuid)
      );
      CREATE INDEX iam_tenant_member_user ON iam_tenant_member (user_uuid);

      CREATE TABLE iam_client (
        client_id text PRIMARY KEY,
        public integer NOT NULL,
        secret_hash text,
        created bigint NOT NULL
      );

      CREATE TABLE iam_signing_key (
        kid text PRIMARY KEY,
        alg text NOT NULL,
        private_jwk text NOT NULL,
        public_jwk text NOT NULL,
        created bigint NOT NULL
      );

      CREATE TABLE iam_refresh_family (
        family_id text PRIMARY KEY,
        user_uuid text NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
        client_id text NOT NULL,
        created bigint NOT NULL,
        expires bigint NOT NULL,
        revoked bigint
      );
      CREATE INDEX iam_refresh_family_user ON iam_refresh_family (user_uuid);
      CREATE TABLE iam_refresh_token (
        token_hash text PRIMARY KEY,
        family_id text NOT NULL REFERENCES iam_refresh_family (family_id) ON DELETE CASCADE,
        issued bigint NOT NULL,
        expires bigint NOT NULL,
        rotated bigint
      );
      CREATE INDEX iam_refresh_token_family ON iam_refresh_token (family_id);

      CREATE TABLE iam_login_failure (
        username text PRIMARY KEY,
        failures integer NOT NULL,
        first_failure bigint NOT NULL,
        locked_until bigint
      );
    `,
  },
  {
    version: 2,
    description: 'API tokens (stored as digests)',
    sql: `
      CREATE TABLE iam_api_token (
        uuid text PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        user_uuid text NOT NULL REFERENCES iam_user (uuid) ON DELETE CASCADE,
        name text NOT NULL,
        created bigint NOT NULL,
        expires bigint NOT NULL,
        last_used bigint,
        revoked bigint
      );
      CREATE INDEX iam_api_token_user ON iam_api_token (user_uuid);
    `,
  },
  {
    version: 3,
    description:
      'login failures per account and source (an address is locked out of an account, not the account)',
    sql: `
      DROP TABLE iam_login_failure;
      CREATE TABLE iam_login_failure (
        username text NOT NULL,
        source text NOT NULL,
        failures integer NOT NULL,
        first_failure bigint NOT NULL,
        locked_until bigint,
        PRIMARY KEY (username, source)
      );
    `,
  },
  {
    version: 4,
    description:
      'the default permissions each built-in role has been given (so new ones reach old installations)',
    sql: `
      CREATE TABLE iam_role_default_grant (
        role_name text NOT NULL,
        composite text NOT NULL,
        granted bigint NOT NULL,
        PRIMARY KEY (role_name, composite)
      );
    `,
  },
];
