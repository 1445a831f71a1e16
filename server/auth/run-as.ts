/** The rules of switching identity (RunAs header and `iam.run.as`): who may switch, to whom, and once only. */
import { type Principal, hasPermission, isAdmin } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';

export const CAN_RUN_AS_SOURCE = 'CAN_RUN_AS_SOURCE';
export const CAN_RUN_AS_TARGET = 'CAN_RUN_AS_TARGET';

/**
 * The principal to continue as. FORBIDDEN when the caller already switched (no nesting), lacks
 * `CAN_RUN_AS_SOURCE`, names an unknown user or one without `CAN_RUN_AS_TARGET`, or would reach
 * `ROLE_ADMIN` without holding it. Unknown and unreachable targets get the same answer.
 */
export function switchPrincipal(caller: Principal, targetName: string, target: Principal | null): Principal {
  if (caller.actingUsername !== undefined) {
    throw new PipeworkError('FORBIDDEN', 'RunAs cannot be nested.', { reason: 'nested' });
  }
  if (!hasPermission(caller, CAN_RUN_AS_SOURCE)) {
    throw new PipeworkError('FORBIDDEN', `Missing permission ${CAN_RUN_AS_SOURCE} to run as another user.`, {
      permission: CAN_RUN_AS_SOURCE,
    });
  }
  if (!target || !hasPermission(target, CAN_RUN_AS_TARGET)) {
    throw new PipeworkError('FORBIDDEN', `Cannot run as '${targetName}'.`, { reason: 'target' });
  }
  if (isAdmin(target) && !isAdmin(caller)) {
    throw new PipeworkError('FORBIDDEN', `Cannot run as '${targetName}': it would gain ROLE_ADMIN.`, {
      reason: 'escalation',
    });
  }
  return Object.freeze({ ...target, actingUsername: caller.username });
}
