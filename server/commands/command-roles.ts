/** The built-in roles of this server, made from the audience in each registered command's contract. */
import { builtInRoles } from '../iam/built-in-roles';
import { serverCommands } from './index';

export const BUILT_IN_ROLES = builtInRoles(serverCommands.map((command) => command.contract));
