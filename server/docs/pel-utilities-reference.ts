/** Renders the utility tables of docs/pel.md from PEL's one list of utility specs (shared/pel/utilities). */
import { UTILITY_SPECS, type UtilitySpec, signaturesOf } from '../../shared/pel/utilities';
import { replaceBetween } from './generated-section';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(spec: UtilitySpec): string {
  const rows = Object.values(spec.functions).map((f) => {
    const signatures = signaturesOf(f).map((s) => `\`@${spec.name}.${s}\``);
    return `| ${signatures.map(cell).join('<br>')} | ${cell(f.doc)} |`;
  });
  const origin = spec.serverProvided ? ' Filled in by the server for each run.' : '';
  return [
    `### @${spec.name}`,
    '',
    `${spec.doc}${origin}`,
    '',
    '| function | what it does |',
    '|---|---|',
    ...rows,
  ].join('\n');
}

export function renderUtilityTables(specs: readonly UtilitySpec[] = UTILITY_SPECS): string {
  return specs.map(table).join('\n\n');
}

export function withUtilityTables(document: string): string {
  return replaceBetween(document, 'pel-utilities', `\n${renderUtilityTables()}\n`);
}
