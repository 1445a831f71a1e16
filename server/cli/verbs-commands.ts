/**
 * `pi commands [words...]`: the server's commands from its pipeline schema (generated from each command's one
 * contract), found by words; one match shows its parameters.
 */
import type { Command } from 'commander';
import { commandCatalog, searchCommands, type CommandDoc } from '../../shared/commands/schema-catalog';
import type { ActionWrapper, VerbContext } from './cli-context';
import { CliError, send } from './cli-client';
import { EXIT } from './exit-codes';

function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

function describeOne(ctx: VerbContext, doc: CommandDoc): void {
  const out = ctx.out;
  out.line(out.paint(doc.name, 'bold') + (doc.aliases.length ? `  (also ${doc.aliases.join(', ')})` : ''));
  out.line(doc.description);
  if (doc.inputType || doc.outputType)
    out.line(`input ${doc.inputType ?? 'any'} → output ${doc.outputType ?? 'any'}`);
  const own = doc.parameters.filter((p) => !p.common);
  if (own.length === 0) return;
  out.line();
  out.table(
    ['parameter', 'type', 'required', 'default', 'description'],
    own.map((p) => [
      p.name,
      p.enum ? p.enum.map(String).join('|') : p.types.join('|'),
      p.required ? 'yes' : '',
      p.default === undefined ? '' : JSON.stringify(p.default),
      firstSentence(p.description),
    ]),
  );
}

export const registerCommandVerbs = (program: Command, action: ActionWrapper): void => {
  program
    .command('commands')
    .argument('[words...]', 'words the name, description or parameters contain, e.g. mail or drive save')
    .description("List the server's commands; with words, the matching ones (one match: its parameters)")
    .action(
      action(async (ctx, words: string[]) => {
        const schema = (await send(ctx.settings(), '/api/v3/command:pipe.schema.v7')).json<unknown>();
        const found = searchCommands(commandCatalog(schema), words.join(' '));
        if (found.length === 0) throw new CliError(`No command matches '${words.join(' ')}'.`, EXIT.notFound);
        const exact = found.find(
          (doc) => doc.name === words.join(' ') || doc.aliases.includes(words.join(' ')),
        );
        if (ctx.out.json) {
          ctx.out.data(exact ?? (found.length === 1 ? found[0] : found));
        } else if (exact || found.length === 1) {
          describeOne(ctx, exact ?? found[0]!);
        } else {
          ctx.out.table(
            ['command', 'summary'],
            found.map((doc) => [doc.name, firstSentence(doc.description)]),
          );
        }
        return EXIT.ok;
      }),
    );
};
