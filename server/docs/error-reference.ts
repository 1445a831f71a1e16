/** Renders the table of error codes for docs/api.md from the one catalogue in shared/errors. */
import { ERROR_CODES } from '../../shared/errors';
import { replaceBetween } from './generated-section';

export function withErrorTable(document: string): string {
  const rows = Object.entries(ERROR_CODES).map(
    ([code, { status, summary }]) => `| \`${code}\` | ${status} | ${summary} |`,
  );
  return replaceBetween(
    document,
    'error-codes',
    ['| code | status | when |', '|---|---|---|', ...rows].join('\n'),
  );
}
