/** Renders the command reference (docs/commands.md) from the registry: the contracts are the one source. */
import type { CommandAudience, CommandContract, CommandStreaming, JsonSchema } from '../../shared/commands';
import { isReadOnly, permissionOf } from '../../shared/commands';

function typeText(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map((v) => `\`${String(v)}\``).join(' \\| ');
  if (!schema.type) return 'any';
  return Array.isArray(schema.type) ? schema.type.join(' \\| ') : schema.type;
}

function cell(text: string | undefined): string {
  return (text ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

const UPLOAD_WORDS = { raw: 'a raw body (any type but multipart)', multipart: "each multipart 'file' part" };
const ANSWER_WORDS = { chunks: 'chunk by chunk', ranges: 'chunk by chunk, with HTTP range requests (206)' };

/** The docs line of a streamed command: what its direct call streams (the contract's `streaming`). */
export function streamingText(name: string, streaming: CommandStreaming): string {
  const parts: string[] = [];
  if (streaming.input?.length) {
    const bodies = streaming.input.map((kind) => UPLOAD_WORDS[kind]).join(' or ');
    parts.push(`a POST streams ${bodies} into storage as it arrives`);
  }
  if (streaming.output) parts.push(`a GET answers ${ANSWER_WORDS[streaming.output]}`);
  return `Streamed when called directly (\`/api/v3/command/${name}\`): ${parts.join('; ')}.`;
}

function renderCommand(contract: CommandContract): string {
  const lines = [`### \`${contract.name}\``, '', contract.summary, ''];
  if (contract.description) lines.push(contract.description, '');
  if (contract.aliases?.length)
    lines.push(`Also called: ${contract.aliases.map((a) => `\`${a}\``).join(', ')}.`, '');
  const required = new Set(contract.required ?? []);
  const params = Object.entries(contract.parameters);
  if (params.length > 0) {
    lines.push('| parameter | type | required | description |', '|---|---|---|---|');
    for (const [name, schema] of params) {
      const marker = name === contract.defaultParameter ? ' (default)' : '';
      lines.push(
        `| \`${name}\`${marker} | ${typeText(schema)} | ${required.has(name) ? 'yes' : ''} | ${cell(schema.description)} |`,
      );
    }
    lines.push('');
  }
  lines.push(
    `Input: ${contract.input}. Output: ${contract.output}. Permission: \`${permissionOf(contract)}\` ` +
      `(${AUDIENCE_WORDS[contract.audience ?? 'admin']}). ` +
      (isReadOnly(contract) ? 'Reads only: runs over GET too.' : 'Writes: over POST only.'),
    '',
  );
  if (contract.streaming) lines.push(streamingText(contract.name, contract.streaming), '');
  for (const example of contract.examples ?? []) {
    lines.push(`${example.title}:`, '', '```yaml', example.pipeline.trimEnd(), '```', '');
  }
  return lines.join('\n');
}

/** The whole reference, grouped by the first part of the name. */
/** Who holds a command's permission on a new installation, by its audience. */
const AUDIENCE_WORDS: Record<CommandAudience, string> = {
  user: 'every user: ROLE_USER',
  developer: 'developers: ROLE_DEVELOPER',
  admin: 'admins only',
};

export function renderCommandReference(contracts: readonly CommandContract[]): string {
  const groups = new Map<string, CommandContract[]>();
  for (const contract of contracts) {
    const group = contract.name.split('.')[0]!;
    groups.set(group, [...(groups.get(group) ?? []), contract]);
  }
  const out = [
    '# Command reference',
    '',
    '<!-- Generated from the command contracts by `npm run docs`; do not edit by hand. -->',
    '',
    'Every command also takes the common parameters `if`, `input`, `output`, `onError`, `id` and `description`',
    '(see [pipeline-format.md](pipeline-format.md)). A command runs only for callers holding its permission.',
    '',
  ];
  for (const [group, members] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`## ${group}`, '');
    for (const contract of members) out.push(renderCommand(contract));
  }
  return out.join('\n').trimEnd() + '\n';
}
