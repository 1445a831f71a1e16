/** `npm run docs`: regenerates the parts of docs/ that come from code (command reference, error codes). */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CommandRegistry } from '../../shared/commands';
import { serverCommands } from '../commands';
import { renderCommandReference } from './command-reference';
import { withErrorTable } from './error-reference';
import { withRolesTable } from './roles-reference';
import { withUtilityTables } from './pel-utilities-reference';

export const COMMANDS_DOC = fileURLToPath(new URL('../../docs/commands.md', import.meta.url));
export const API_DOC = fileURLToPath(new URL('../../docs/api.md', import.meta.url));
export const AUTH_DOC = fileURLToPath(new URL('../../docs/auth.md', import.meta.url));
export const PEL_DOC = fileURLToPath(new URL('../../docs/pel.md', import.meta.url));

/** What the generated documents should contain now. */
export function generatedDocs(): { path: string; content: string }[] {
  const contracts = new CommandRegistry(serverCommands).contracts();
  return [
    { path: COMMANDS_DOC, content: renderCommandReference(contracts) },
    { path: API_DOC, content: withErrorTable(readFileSync(API_DOC, 'utf8')) },
    { path: AUTH_DOC, content: withRolesTable(readFileSync(AUTH_DOC, 'utf8')) },
    { path: PEL_DOC, content: withUtilityTables(readFileSync(PEL_DOC, 'utf8')) },
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { path, content } of generatedDocs()) writeFileSync(path, content);
  console.log('docs/commands.md, docs/api.md, docs/auth.md and docs/pel.md are up to date.');
}
