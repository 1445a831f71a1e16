/** Verbs that run things: command, run, uri, pipeline, validate, schema. */
import { readFileSync } from 'node:fs';
import { CliError, send, type CliResponse } from './cli-client';
import type { Register, VerbContext } from './cli-context';
import { EXIT } from './exit-codes';

function contentTypeOf(file: string): string {
  if (file.endsWith('.json')) return 'application/json';
  if (file.endsWith('.yaml') || file.endsWith('.yml')) return 'application/yaml';
  return 'text/plain';
}

function readFileOrStdin(file: string): Buffer {
  try {
    return readFileSync(file === '-' ? 0 : file);
  } catch (error) {
    throw new CliError(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      EXIT.notFound,
      'FILE_NOT_FOUND',
    );
  }
}

/** A null result: `200` with an empty body and no type (older servers answered `204`). */
function isEmptyAnswer(response: CliResponse): boolean {
  return response.status === 204 || (response.bytes.length === 0 && response.contentType === '');
}

/** Prints a command's or pipeline's answer: JSON pretty, text with a final newline, bytes as they are. */
export function printResponse(ctx: VerbContext, response: CliResponse): void {
  if (isEmptyAnswer(response)) {
    if (ctx.out.json) ctx.out.data(null);
    return;
  }
  if (response.contentType.includes('json')) {
    ctx.out.data(response.json());
    return;
  }
  if (ctx.out.json && response.contentType.startsWith('text/')) {
    ctx.out.data(response.text());
    return;
  }
  ctx.out.raw(response.bytes);
  if (response.contentType.startsWith('text/') && !response.text().endsWith('\n')) ctx.out.raw('\n');
}

function runPipelineText(
  ctx: VerbContext,
  text: string | Buffer,
  contentType: string,
  source: string,
  trace?: boolean,
) {
  return send(ctx.settings(), `/api/v3/pipeline${trace ? '?trace=true' : ''}`, {
    method: 'POST',
    body: typeof text === 'string' ? text : new Uint8Array(text),
    contentType,
    source,
  });
}

export const registerRunVerbs: Register = (program, action) => {
  program
    .command('command')
    .description('Run one command, e.g. pi command datetime format=dd.MM.yyyy')
    .argument('<name>', 'the command name')
    .argument('[params...]', 'parameters as name=value')
    .option('-i, --input <file>', "send FILE ('-' for standard input) as the command's input body")
    .action(
      action(async (ctx, name: string, pairs: string[], options: { input?: string }) => {
        const query = new URLSearchParams();
        for (const pair of pairs) {
          const eq = pair.indexOf('=');
          if (eq <= 0) throw new CliError(`Parameter '${pair}' must read name=value.`, EXIT.usage);
          query.append(pair.slice(0, eq), pair.slice(eq + 1));
        }
        const path = `/api/v3/command/${encodeURIComponent(name)}${pairs.length ? `?${query}` : ''}`;
        const body = options.input ? new Uint8Array(readFileOrStdin(options.input)) : undefined;
        const contentType = options.input
          ? contentTypeOf(options.input === '-' ? 'x.json' : options.input)
          : undefined;
        printResponse(
          ctx,
          await send(ctx.settings(), path, { method: 'POST', body, contentType }), // GET runs only reads
        );
      }),
    );

  program
    .command('run')
    .description('Run a local pipeline file (.pi.yaml or .pi.json)')
    .argument('<file>', 'the pipeline file')
    .option('-t, --trace', "print every step's trace")
    .action(
      action(async (ctx, file: string, options: { trace?: boolean }) => {
        const text = readFileOrStdin(file);
        printResponse(ctx, await runPipelineText(ctx, text, contentTypeOf(file), file, options.trace));
      }),
    );

  program
    .command('uri')
    .description("Run a one-line pipeline URI, e.g. pi uri 'set.body?value=a|log'")
    .argument('<uri>', 'the pipeline URI')
    .option('-t, --trace', "print every step's trace")
    .action(
      action(async (ctx, uri: string, options: { trace?: boolean }) => {
        printResponse(ctx, await runPipelineText(ctx, uri, 'text/plain', 'uri', options.trace));
      }),
    );

  program
    .command('pipeline')
    .description('Run a pipeline stored as a property, e.g. global/app/demo/pipeline/submit')
    .argument('<key>', 'the property key of the pipeline')
    .option('-t, --trace', "print every step's trace")
    .action(
      action(async (ctx, key: string, options: { trace?: boolean }) => {
        const stored = await send(
          ctx.settings(),
          `/api/v3/command/property.value.get?key=${encodeURIComponent(key)}`,
        );
        printResponse(ctx, await runPipelineText(ctx, stored.text(), 'application/yaml', key, options.trace));
      }),
    );

  program
    .command('validate')
    .description('Check a pipeline file without running it (problems with line and column)')
    .argument('<file>', 'the pipeline file')
    .action(
      action(async (ctx, file: string) => {
        const text = readFileOrStdin(file).toString('utf8');
        const format = file.endsWith('.json') ? 'json' : 'yaml';
        const response = await send(ctx.settings(), `/api/v3/command/pipeline.validate?format=${format}`, {
          method: 'POST',
          body: text,
          contentType: 'text/plain',
        });
        const problems =
          response.json<
            { severity: string; code: string; message: string; line?: number; column?: number }[]
          >();
        if (ctx.out.json) ctx.out.data(problems);
        else {
          for (const p of problems) {
            const severity = ctx.out.paint(p.severity, p.severity === 'error' ? 'red' : 'yellow');
            ctx.out.line(`${file}:${p.line ?? 1}:${p.column ?? 1}: ${severity} ${p.code}: ${p.message}`);
          }
          if (problems.length === 0) ctx.out.note(`${file}: no problems`);
        }
        return problems.some((p) => p.severity === 'error') ? EXIT.failed : EXIT.ok;
      }),
    );

  program
    .command('schema')
    .description('Print the pipeline JSON Schema (draft-07)')
    .action(
      action(async (ctx) => {
        printResponse(ctx, await send(ctx.settings(), '/api/v3/command:pipe.schema.v7'));
      }),
    );
};
