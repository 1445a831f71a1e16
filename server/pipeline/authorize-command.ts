/** The per-step permission check: a caller needs the command's `CAN_PIPE_<name>` role (or a `*` grant of it). */
import { hasPermission, type Principal } from '../../shared/auth';
import { permissionOf, type CommandContract } from '../../shared/commands';
import { PipeworkError } from '../../shared/errors';

export function authorizeCommand(principal: Principal | null, contract: CommandContract): void {
  const permission = permissionOf(contract);
  if (!principal) {
    throw new PipeworkError('UNAUTHENTICATED', `Command '${contract.name}' needs an authenticated caller.`);
  }
  if (!hasPermission(principal, permission)) {
    throw new PipeworkError('FORBIDDEN', `You lack the permission ${permission} to run '${contract.name}'.`, {
      commandName: contract.name,
      permission,
    });
  }
}
