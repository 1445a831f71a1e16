/** The rules for IAM names (users, roles, groups, tenants) and the parsing of name lists given to commands. */
import { PipeworkError } from '../../shared/errors';

/** No `:` (Basic splits on it), no `,` (the Authorization header lists credentials with it), no spaces. */
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;
/** Permission roles carry dots and a trailing `*` (`CAN_PIPE_property.*`). */
const ROLE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,126}\*?$/;
/** Group and tenant names: printable, no `/` (group paths use it) and no `,` (name lists use it). */
const ENTITY_NAME = /^[^/,\s\p{Cc}][^/,\p{Cc}]{0,126}[^/,\s\p{Cc}]?$/u;

function check(kind: string, pattern: RegExp, value: string, parameter?: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Invalid ${kind} '${String(value)}'.`,
      parameter ? { parameter } : {},
    );
  }
  return value;
}

/** Whether a text could be a username at all (a login with anything else cannot match a user). */
export const isPossibleUsername = (v: string) => USERNAME.test(v);
export const checkUsername = (v: string, parameter?: string) => check('username', USERNAME, v, parameter);
export const checkRoleName = (v: string, parameter?: string) => check('role name', ROLE_NAME, v, parameter);
export const checkGroupName = (v: string, parameter?: string) =>
  check('group name', ENTITY_NAME, v, parameter);
export const checkTenantName = (v: string, parameter?: string) =>
  check('tenant name', ENTITY_NAME, v, parameter);

/**
 * A list of names as commands receive it: a comma separated string, a JSON array, or an array value from
 * an expression. Blank entries are dropped; order is kept, duplicates removed.
 */
export function parseNameList(value: unknown): string[] {
  let items: unknown[];
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        items = Array.isArray(parsed) ? parsed : [trimmed];
      } catch {
        items = trimmed.split(',');
      }
    } else items = trimmed.split(',');
  } else items = [value];
  const names = items.map((item) => String(item).trim()).filter((s) => s.length > 0);
  return [...new Set(names)];
}
