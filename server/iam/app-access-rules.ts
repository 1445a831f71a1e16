/**
 * The app access rules of the IAM system (spec 2.4, 5.3) for the property store: an app `X` is guarded when a
 * role `CAN_APP_X` exists; then only holders of it (and admins) may read or write inside the app folder.
 * Apps without such a role are left to the folder rules. The app's role is also "the app's own role" that may
 * store code in the app's executable sections (`pipeline/`, `script/`, `test/`, `workflow/`) beside developers
 * and admins: such code runs as whoever stored it (docs/security.md, "Who code runs as").
 * An app whose `config/app` names `show` roles is, besides, seen only by their holders (and admins and
 * developers): to everyone else it is as if it did not exist (`app-show-index.ts`).
 */
import { hasPermission } from '../../shared/auth';
import type { AppAccessRules } from '../store/property-access';
import type { AppShowIndex } from './app-show-index';
import type { IamService } from './iam-types';

export function iamAppAccessRules(
  iam: Pick<IamService, 'appAccessRole'>,
  show?: Pick<AppShowIndex, 'mayShow'>,
): AppAccessRules {
  return {
    allows(principal, app) {
      if (show && !show.mayShow(principal, app.folder)) return false;
      const role = iam.appAccessRole(app.name);
      if (role === null) return undefined;
      return hasPermission(principal, role) ? undefined : false;
    },
    mayStoreCode(principal, app) {
      const role = iam.appAccessRole(app.name);
      return role !== null && hasPermission(principal, role);
    },
  };
}
