/**
 * The built-in roles and their default permissions, made from each command's `audience` (its contract):
 * `ROLE_USER` may run the commands for every user, `ROLE_DEVELOPER` those and the developers' ones, and
 * `ROLE_ADMIN` everything. Each permission is a command's own name, never a pattern, so a new admin-only
 * command is never granted by a pattern written for its neighbours. docs/auth.md shows the table
 * (`npm run docs`).
 */
import { ROLE_ADMIN, ROLE_DEVELOPER, ROLE_USER } from '../../shared/auth';
import { type CommandAudience, type CommandContract, permissionOf } from '../../shared/commands';
import { CAN_RUN_AS_SOURCE, CAN_RUN_AS_TARGET } from '../auth/run-as';

export interface BuiltInRole {
  name: string;
  description: string;
  /** Roles this one contains (created when missing). */
  composites: string[];
}

/** The permissions of the commands for one audience, in name order (each once, aliases share it). */
function permissionsFor(contracts: readonly CommandContract[], audience: CommandAudience): string[] {
  const names = new Set<string>();
  for (const contract of contracts) if (contract.audience === audience) names.add(permissionOf(contract));
  return [...names].sort();
}

export function builtInRoles(contracts: readonly CommandContract[]): BuiltInRole[] {
  return [
    {
      name: ROLE_USER,
      description: 'Every signed-in user (given to each new user).',
      composites: [...permissionsFor(contracts, 'user'), CAN_RUN_AS_TARGET],
    },
    {
      name: ROLE_DEVELOPER,
      description: 'Builds apps: properties, pipelines, scripts, data and messaging commands.',
      composites: [ROLE_USER, ...permissionsFor(contracts, 'developer')],
    },
    {
      name: ROLE_ADMIN,
      description: 'Administers the instance: holds every permission and sees every folder.',
      composites: [ROLE_DEVELOPER, CAN_RUN_AS_SOURCE],
    },
  ];
}
