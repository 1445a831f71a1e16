/** Every iam.* command, for the server's command list. */
import type { CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { iamApitoken } from './apitoken';
import { iamApitokenList } from './apitoken-list';
import { iamApitokenRevoke } from './apitoken-revoke';
import { iamBruteforceRelease } from './bruteforce-release';
import { iamBruteforceStatus } from './bruteforce-status';
import { iamGroupAddRoles } from './group-add-roles';
import { iamGroupCreate } from './group-create';
import { iamGroupDelete } from './group-delete';
import { iamGroupList } from './group-list';
import { iamGroupListNames } from './group-list-names';
import { iamGroupRoles } from './group-roles';
import { iamGroupMembers } from './group-members';
import { iamRoleAddComposites } from './role-add-composites';
import { iamRoleCreate } from './role-create';
import { iamRoleMembers } from './role-members';
import { iamRunAs } from './run-as';
import { iamSearch } from './search';
import { iamTenantCreate } from './tenant-create';
import { iamTenantList } from './tenant-list';
import { iamToken } from './token';
import { iamTokenLogout } from './token-logout';
import { iamTokenRefresh } from './token-refresh';
import { iamUserAddGroups } from './user-add-groups';
import { iamUserAddRoles } from './user-add-roles';
import { iamUserAddTenants } from './user-add-tenants';
import { iamUserCreate } from './user-create';
import { iamUserDelete } from './user-delete';
import { iamUserGet } from './user-get';
import { iamUserGroups } from './user-groups';
import { iamUserList } from './user-list';
import { iamUserRoles } from './user-roles';

export const iamCommands: CommandDefinition<ServerServices>[] = [
  iamUserCreate,
  iamUserGet,
  iamUserList,
  iamUserDelete,
  iamUserAddGroups,
  iamUserAddRoles,
  iamUserAddTenants,
  iamUserGroups,
  iamUserRoles,
  iamGroupCreate,
  iamGroupList,
  iamGroupListNames,
  iamGroupRoles,
  iamSearch,
  iamGroupDelete,
  iamGroupMembers,
  iamGroupAddRoles,
  iamRoleCreate,
  iamRoleAddComposites,
  iamRoleMembers,
  iamTenantCreate,
  iamTenantList,
  iamRunAs,
  iamToken,
  iamTokenRefresh,
  iamTokenLogout,
  iamApitoken,
  iamApitokenList,
  iamApitokenRevoke,
  iamBruteforceStatus,
  iamBruteforceRelease,
];
