/** The IAM entities as rows and as the Keycloak-shaped representations the iam.* commands return. */

export interface UserRow {
  uuid: string;
  username: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  password_hash: string | null;
  can_login: number;
  enabled: number;
  attributes: string | null;
  created: number;
}

export interface RoleRow {
  uuid: string;
  name: string;
  description: string | null;
  attributes: string | null;
  builtin: number;
  created: number;
}

export interface GroupRow {
  uuid: string;
  name: string;
  attributes: string | null;
  created: number;
}

export interface TenantRow {
  uuid: string;
  name: string;
  created: number;
}

/** Keycloak's UserRepresentation (the fields a client uses). */
export interface UserRepresentation {
  id: string;
  username: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  enabled: boolean;
  createdTimestamp: number;
  attributes: Record<string, unknown>;
}

export interface RoleRepresentation {
  id: string;
  name: string;
  description: string | null;
  composite: boolean;
  attributes: Record<string, unknown>;
}

export interface GroupRepresentation {
  id: string;
  name: string;
  path: string;
  attributes: Record<string, unknown>;
}

export interface TenantRepresentation {
  id: string;
  name: string;
}

function attributesOf(json: string | null): Record<string, unknown> {
  if (!json) return {};
  try {
    const parsed: unknown = JSON.parse(json);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export function userRepresentation(row: UserRow): UserRepresentation {
  return {
    id: row.uuid,
    username: row.username,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    enabled: row.enabled === 1,
    createdTimestamp: row.created,
    attributes: attributesOf(row.attributes),
  };
}

export function roleRepresentation(row: RoleRow, composite: boolean): RoleRepresentation {
  return {
    id: row.uuid,
    name: row.name,
    description: row.description,
    composite,
    attributes: attributesOf(row.attributes),
  };
}

export function groupRepresentation(row: GroupRow): GroupRepresentation {
  return { id: row.uuid, name: row.name, path: `/${row.name}`, attributes: attributesOf(row.attributes) };
}

export function tenantRepresentation(row: TenantRow): TenantRepresentation {
  return { id: row.uuid, name: row.name };
}

/** Paging and filtering as the list commands take them (`max` capped at 1000). */
export interface ListQuery {
  filter?: string;
  max?: number;
  offset?: number;
}

export function pageOf(query: ListQuery): { limit: number; offset: number; like: string } {
  const limit = Math.min(Math.max(Math.trunc(query.max ?? 1000), 0), 1000);
  const offset = Math.max(Math.trunc(query.offset ?? 0), 0);
  const like = `%${(query.filter ?? '').replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return { limit, offset, like };
}
