/** The IAM module's public face: the service factory and the types other modules use. */
export { createIamService, TOKEN_AUDIENCE } from './iam-service';
export type { IamService, IamOptions, CreateUserInput } from './iam-types';
export { ADMIN_USERNAME, SYSTEM_USERNAME, DEFAULT_CLIENTS, INITIAL_ADMIN_PASSWORD_FILE } from './bootstrap';
export { builtInRoles, type BuiltInRole } from './built-in-roles';
export { TEST_HASH_COST, PRODUCTION_HASH_COST, type PasswordHashCost } from './password-hasher';
export {
  DEFAULT_BRUTE_FORCE_POLICY,
  type BruteForcePolicy,
  type BruteForceStatus,
} from './brute-force-guard';
export { parseNameList } from './names';
export type {
  UserRepresentation,
  GroupRepresentation,
  RoleRepresentation,
  TenantRepresentation,
} from './records';
