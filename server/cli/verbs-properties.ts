/** Verbs on properties: list, get, put, delete, events. */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { endpointUrl, eventStream, type EventStreamQuery } from '../../shared/api';
import { CliError, command, send } from './cli-client';
import type { Register, VerbContext } from './cli-context';
import { EXIT } from './exit-codes';
import { toProperty } from './publish';

interface ListedProperty {
  key: string;
  type: string | null;
  created: number;
  updated: number | null;
  hash?: string | null;
}

interface FullProperty extends ListedProperty {
  uuid: string;
  value: string | null;
  timeToLive: number | null;
}

const stripSlash = (key: string) => key.replace(/^\//, '');
const when = (ms: number | null) => (ms ? new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z') : '');

async function confirm(ctx: VerbContext, question: string): Promise<boolean> {
  const rl = createInterface({ input: ctx.streams.stdin, output: ctx.streams.stderr, terminal: true });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** Follows `GET /api/v3/events` (Server-Sent Events) and hands each event's JSON on until `limit` or the end. */
async function followEvents(
  ctx: VerbContext,
  query: EventStreamQuery,
  limit: number | undefined,
  onEvent: (event: Record<string, unknown>) => void,
  onConnected: () => void,
): Promise<void> {
  const settings = ctx.settings();
  const abort = new AbortController();
  const response = await send(settings, endpointUrl(eventStream, {}, query), { stream: abort.signal });
  onConnected();
  const reader = response.stream!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let seen = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = message
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (!data) continue;
        onEvent(JSON.parse(data) as Record<string, unknown>);
        if (limit !== undefined && ++seen >= limit) return;
      }
    }
  } finally {
    abort.abort();
  }
}

export const registerPropertyVerbs: Register = (program, action) => {
  program
    .command('list')
    .description('List the properties matching a key pattern (* one level, ** any), e.g. global/app/demo/**')
    .argument('<pattern>', 'the key pattern')
    .action(
      action(async (ctx, pattern: string) => {
        const listed = await command<ListedProperty[]>(ctx.settings(), 'property.list', {
          pattern,
          hash: true,
        });
        if (ctx.out.json) ctx.out.data(listed.map((p) => ({ ...p, key: stripSlash(p.key) })));
        else if (listed.length === 0) ctx.out.note(`No property matches ${pattern}.`);
        else
          ctx.out.table(
            ['KEY', 'TYPE', 'UPDATED'],
            listed.map((p) => [stripSlash(p.key), p.type ?? 'text/plain', when(p.updated ?? p.created)]),
          );
      }),
    );

  program
    .command('get')
    .description('Print the value of a property (bytes of a base64 value as bytes); --meta for its metadata')
    .argument('<key>', 'the property key')
    .option(
      '--meta',
      'print the metadata (uuid, key, type, created, updated, timeToLive) instead of the value',
    )
    .action(
      action(async (ctx, key: string, options: { meta?: boolean }) => {
        const property = await command<FullProperty>(ctx.settings(), 'property.get', { key });
        const { value, ...meta } = property;
        meta.key = stripSlash(meta.key);
        if (options.meta) {
          if (ctx.out.json) ctx.out.data(meta);
          else
            ctx.out.table(
              ['', ''],
              Object.entries(meta).map(([k, v]) => [
                k,
                k === 'created' || k === 'updated' ? when(v as number) : String(v ?? ''),
              ]),
            );
          return;
        }
        if (ctx.out.json) {
          ctx.out.data({ ...meta, value });
          return;
        }
        if (value === null) return;
        if ((property.type ?? '').includes('encoding=base64')) ctx.out.raw(Buffer.from(value, 'base64'));
        else ctx.out.raw(value.endsWith('\n') || !ctx.streams.stdout.isTTY ? value : `${value}\n`);
      }),
    );

  program
    .command('put')
    .description(
      "Store a file ('-' for standard input) as a property; the type comes from the file's extension",
    )
    .argument('<key>', 'the property key')
    .argument('<file>', "the file, or '-' for standard input")
    .option('--type <mime>', 'the mime type (default: from the extension and content, as pi publish does)')
    .action(
      action(async (ctx, key: string, file: string, options: { type?: string }) => {
        let bytes: Buffer;
        try {
          bytes = readFileSync(file === '-' ? 0 : file);
        } catch (error) {
          throw new CliError(
            `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
            EXIT.notFound,
          );
        }
        const detected = toProperty(file, file === '-' ? 'stdin' : basename(file), bytes);
        const type = options.type ?? detected.type;
        const value = type.includes('encoding=base64') ? bytes.toString('base64') : bytes.toString('utf8');
        const answer = await command<{ result: string; property: FullProperty }>(
          ctx.settings(),
          'property.schema.put',
          { key, value, type, evalValue: false },
          file,
        );
        const result = answer.result === 'create' ? 'created' : 'updated';
        if (ctx.out.json) ctx.out.data({ result, key: stripSlash(answer.property.key), type });
        else ctx.out.line(`${ctx.out.paint(result, 'green')} ${stripSlash(answer.property.key)} (${type})`);
      }),
    );

  program
    .command('delete')
    .description('Delete the properties matching a key pattern; shows them and asks first unless --yes')
    .argument('<pattern>', 'a key or key pattern (* one level, ** any)')
    .option('-y, --yes', 'delete without asking (needed when not on a terminal)')
    .action(
      action(async (ctx, pattern: string, options: { yes?: boolean }) => {
        const settings = ctx.settings();
        const keys = (await command<string[]>(settings, 'property.keys', { pattern })).map(stripSlash);
        if (keys.length === 0) {
          if (ctx.out.json) ctx.out.data({ deleted: [] });
          else ctx.out.note(`No property matches ${pattern}.`);
          return EXIT.notFound;
        }
        if (!options.yes) {
          if (!ctx.streams.stdin.isTTY)
            throw new CliError(
              `pi delete ${pattern} would delete ${keys.length} properties; add --yes to do it without a terminal.`,
              EXIT.usage,
            );
          for (const key of keys) ctx.out.note(`  ${key}`);
          if (!(await confirm(ctx, `Delete these ${keys.length} properties? [y/N] `))) {
            ctx.out.note('Nothing deleted.');
            return EXIT.failed;
          }
        }
        const deleted = await command<string[] | string | null>(settings, 'property.delete', {
          filter: pattern,
        });
        const list = (Array.isArray(deleted) ? deleted : deleted ? [deleted] : []).map(stripSlash);
        if (ctx.out.json) ctx.out.data({ deleted: list });
        else ctx.out.line(`Deleted ${list.length} ${list.length === 1 ? 'property' : 'properties'}.`);
        return EXIT.ok;
      }),
    );

  program
    .command('events')
    .description('Follow property events as they happen, e.g. pi events global/app/demo/**')
    .argument('[pattern]', 'a property key pattern the events are about')
    .option('--event <key>', 'only this event key (a trailing * allowed), e.g. property.created')
    .option('--limit <n>', 'stop after n events', (v) => Number.parseInt(v, 10))
    .action(
      action(async (ctx, pattern: string | undefined, options: { event?: string; limit?: number }) => {
        const query: EventStreamQuery = { filter: pattern, key: options.event };
        const connected = () => {
          if (!ctx.out.json)
            ctx.out.note(`Following events${pattern ? ` on ${pattern}` : ''} (Ctrl-C stops).`);
        };
        await followEvents(
          ctx,
          query,
          options.limit,
          (event) => {
            if (ctx.out.json) {
              ctx.out.line(JSON.stringify(event));
              return;
            }
            const payload = (event.payload ?? {}) as { target?: { key?: string }; origin?: { key?: string } };
            const key = stripSlash(payload.target?.key ?? payload.origin?.key ?? '');
            const at = typeof event.timestamp === 'number' ? event.timestamp : Date.now();
            ctx.out.line(`${when(at)}  ${String(event.eventKey).padEnd(18)}  ${key}`);
          },
          connected,
        );
      }),
    );
};
