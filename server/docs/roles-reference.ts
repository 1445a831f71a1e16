/** Renders the built-in roles table of docs/auth.md from the roles the commands' audiences make. */
import { BUILT_IN_ROLES } from '../commands/command-roles';
import { replaceBetween } from './generated-section';

export function withRolesTable(document: string): string {
  const rows = BUILT_IN_ROLES.map((role) => {
    const extra =
      role.name === 'ROLE_ADMIN' ? ', and every permission implicitly; sees every property folder' : '';
    return `| \`${role.name}\` | ${role.composites.map((c) => `\`${c}\``).join(', ')}${extra} |`;
  });
  return replaceBetween(document, 'built-in-roles', ['| role | contains |', '|---|---|', ...rows].join('\n'));
}
