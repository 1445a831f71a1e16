/** Verbs on property history: `pi history` lists a property's versions (or restores one), `pi diff` shows what changed. */
import { command } from './cli-client';
import type { Register } from './cli-context';

interface VersionSummary {
  id: number;
  kind: string;
  version: number | null;
  type: string | null;
  actor: string | null;
  actorName?: string | null;
  at: number;
  otherKey: string | null;
  valueLength: number | null;
}

const when = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const idOf = (text: string) => {
  const id = Number(text.replace(/^v/, ''));
  if (!Number.isInteger(id) || id < 1)
    throw new Error(`'${text}' is not a version id (see pi history <key>).`);
  return id;
};

export const registerHistoryVerbs: Register = (program, action) => {
  program
    .command('history')
    .description("List a property's kept versions, newest first; --restore <id> makes one current again")
    .argument('<key>', 'the property key (also of a deleted key)')
    .option('--limit <n>', 'at most this many versions', '20')
    .option(
      '--restore <id>',
      'restore this version (a new version; the property is created again if deleted)',
    )
    .action(
      action(async (ctx, key: string, options: { limit: string; restore?: string }) => {
        if (options.restore !== undefined) {
          const restored = await command<{
            restoredFrom: number;
            result: string;
            property: { version: number };
          }>(ctx.settings(), 'property.history.restore', { key, version: idOf(options.restore) });
          if (ctx.out.json) ctx.out.data(restored);
          else
            ctx.out.note(
              `Restored version ${restored.restoredFrom} of ${key} (${restored.result}); it is now at version ${restored.property.version}.`,
            );
          return;
        }
        const versions = await command<VersionSummary[]>(ctx.settings(), 'property.history.list', {
          key,
          limit: Number(options.limit),
        });
        if (ctx.out.json) ctx.out.data(versions);
        else if (versions.length === 0) ctx.out.note(`No kept versions of ${key}.`);
        else
          ctx.out.table(
            ['ID', 'KIND', 'VERSION', 'WHEN', 'BY', 'TYPE', 'SIZE'],
            versions.map((v) => [
              String(v.id),
              v.otherKey ? `${v.kind} (${v.otherKey})` : v.kind,
              v.version === null ? '' : String(v.version),
              when(v.at),
              v.actorName ?? v.actor ?? 'system',
              v.type ?? '',
              v.valueLength === null ? '' : String(v.valueLength),
            ]),
          );
      }),
    );

  program
    .command('diff')
    .description('Show the unified diff of a property between two versions (default: from <from> to now)')
    .argument('<key>', 'the property key')
    .argument('<from>', 'the earlier version id (see pi history)')
    .argument('[to]', 'the later version id; the property as it is now when absent')
    .action(
      action(async (ctx, key: string, from: string, to?: string) => {
        const diff = await command<{
          patch: string;
          changed: { value: boolean; type: boolean };
          from: { type: string | null };
          to: { type: string | null };
        }>(ctx.settings(), 'property.history.diff', {
          key,
          from: idOf(from),
          to: to === undefined ? undefined : idOf(to),
        });
        if (ctx.out.json) {
          ctx.out.data(diff);
          return;
        }
        if (diff.changed.type) ctx.out.note(`type: ${diff.from.type ?? ''} -> ${diff.to.type ?? ''}`);
        if (diff.patch === '') ctx.out.note('The values are the same.');
        else ctx.out.raw(diff.patch);
      }),
    );
};
