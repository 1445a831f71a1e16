/** A list's rows as CSV (RFC 4180: fields quoted when needed; a leading =,+,-,@ is prefixed so spreadsheets never run it). */
import type { ListColumn } from '../forms/form-schema';

function cell(value: unknown): string {
  let text =
    value === null || value === undefined
      ? ''
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(
  columns: readonly ListColumn[],
  rows: readonly { key: string; value: unknown }[],
): string {
  const header = ['key', ...columns.map((c) => c.title)].map(cell).join(',');
  const lines = rows.map((row) => {
    const value = (row.value ?? {}) as Record<string, unknown>;
    return [row.key, ...columns.map((c) => value[c.field])].map(cell).join(',');
  });
  return [header, ...lines].join('\r\n') + '\r\n';
}
