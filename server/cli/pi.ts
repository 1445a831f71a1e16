/** `pi`: the command-line client: run commands, local pipeline files, URIs; check pipelines; print the schema. */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CliError, send, settingsFromEnv, type CliResponse, type CliSettings } from './cli-client';
import { changedProperties, listingPatterns, readFolder } from './publish';

const HELP = `Usage: pi <command> [arguments] [options]

  pi command <name> [param=value ...]   Run one command (e.g. pi command datetime format=dd.MM.yyyy)
  pi run <file.pi.yaml|file.pi.json>     Run a local pipeline file
  pi uri '<cmd?p=v|cmd2>'                Run a one-line pipeline URI
  pi validate <file>                     Check a pipeline without running it (problems with line and column)
  pi pipeline <key>                      Run a pipeline stored as a property (e.g. global/app/demo/pipeline/x)
  pi publish <folder>                    Upload the folder's files as properties (only new or changed ones)
  pi delete <pattern>                    Delete the properties matching a key pattern (* one level, ** any)
  pi schema                              Print the pipeline JSON Schema (draft-07)

Options:
  -u, --user USER[:PASSWORD]   Basic credentials (else PIPEWORK_TOKEN, or PIPEWORK_USER and PIPEWORK_PASSWORD)
  -i, --input FILE             With 'command': send FILE ('-' for standard input) as the input body
  -t, --trace                  With 'run' and 'uri': print every step's trace
  -h, --help                   This help

Environment: PIPEWORK_URL (default http://127.0.0.1:8080).`;

function contentTypeOf(file: string): string {
  if (file.endsWith('.json')) return 'application/json';
  if (file.endsWith('.yaml') || file.endsWith('.yml')) return 'application/yaml';
  return 'text/plain';
}

function readInput(file: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(file === '-' ? 0 : file));
}

function print(response: CliResponse): void {
  if (response.status === 204) return;
  const text = Buffer.from(response.bytes);
  if (response.contentType.includes('json')) {
    process.stdout.write(JSON.stringify(JSON.parse(text.toString('utf8')), null, 2) + '\n');
  } else {
    process.stdout.write(text);
    if (response.contentType.startsWith('text/') && !text.toString('utf8').endsWith('\n'))
      process.stdout.write('\n');
  }
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      user: { type: 'string', short: 'u' },
      input: { type: 'string', short: 'i' },
      trace: { type: 'boolean', short: 't' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [verb, ...rest] = positionals;
  if (values.help || !verb) {
    console.log(HELP);
    return verb || values.help ? 0 : 2;
  }
  const settings = settingsFromEnv(process.env, values.user);
  const trace = values.trace ? '?trace=true' : '';
  switch (verb) {
    case 'command': {
      const [name, ...pairs] = rest;
      if (!name) throw new CliError('pi command needs a command name.', 2);
      const query = new URLSearchParams();
      for (const pair of pairs) {
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new CliError(`Parameter '${pair}' must read name=value.`, 2);
        query.append(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const path = `/api/v3/command/${encodeURIComponent(name)}${pairs.length ? `?${query}` : ''}`;
      const body = values.input ? readInput(values.input) : undefined;
      const contentType = values.input
        ? contentTypeOf(values.input === '-' ? 'x.json' : values.input)
        : undefined;
      print(await send(settings, path, { method: body ? 'POST' : 'GET', body, contentType }));
      return 0;
    }
    case 'run':
    case 'validate': {
      const [file] = rest;
      if (!file) throw new CliError(`pi ${verb} needs a pipeline file.`, 2);
      const text = readFileSync(file, 'utf8');
      if (verb === 'run') {
        print(
          await send(settings, `/api/v3/pipeline${trace}`, {
            method: 'POST',
            body: text,
            contentType: contentTypeOf(file),
            source: file,
          }),
        );
        return 0;
      }
      const format = file.endsWith('.json') ? 'json' : 'yaml';
      const response = await send(settings, `/api/v3/command/pipeline.validate?format=${format}`, {
        method: 'POST',
        body: text,
        contentType: 'text/plain',
      });
      const problems = JSON.parse(Buffer.from(response.bytes).toString('utf8')) as {
        severity: string;
        code: string;
        message: string;
        line?: number;
        column?: number;
      }[];
      for (const p of problems)
        console.log(`${file}:${p.line ?? 1}:${p.column ?? 1}: ${p.severity} ${p.code}: ${p.message}`);
      return problems.some((p) => p.severity === 'error') ? 1 : 0;
    }
    case 'uri': {
      const [uri] = rest;
      if (!uri) throw new CliError('pi uri needs a pipeline URI.', 2);
      print(
        await send(settings, `/api/v3/pipeline${trace}`, {
          method: 'POST',
          body: uri,
          contentType: 'text/plain',
        }),
      );
      return 0;
    }
    case 'pipeline': {
      const [key] = rest;
      if (!key) throw new CliError('pi pipeline needs the key of a stored pipeline.', 2);
      const stored = await send(
        settings,
        `/api/v3/command/property.value.get?key=${encodeURIComponent(key)}`,
      );
      const text = Buffer.from(stored.bytes).toString('utf8');
      print(
        await send(settings, `/api/v3/pipeline${trace}`, {
          method: 'POST',
          body: text,
          contentType: 'application/yaml',
          source: key,
        }),
      );
      return 0;
    }
    case 'publish': {
      const [folder] = rest;
      if (!folder) throw new CliError('pi publish needs a folder.', 2);
      return publish(settings, folder);
    }
    case 'delete': {
      const [pattern] = rest;
      if (!pattern) throw new CliError('pi delete needs a key pattern.', 2);
      print(await send(settings, `/api/v3/command/property.delete?filter=${encodeURIComponent(pattern)}`));
      return 0;
    }
    case 'schema':
      print(await send(settings, '/api/v3/command:pipe.schema.v7'));
      return 0;
    default:
      throw new CliError(`Unknown command '${verb}'. Run 'pi --help'.`, 2);
  }
}

async function publish(settings: CliSettings, folder: string): Promise<number> {
  const local = readFolder(folder);
  const remote = new Map<string, { value: string | null; type: string | null }>();
  for (const pattern of listingPatterns(local)) {
    const listed = await send(
      settings,
      `/api/v3/command/property.list?filter=${encodeURIComponent(pattern)}`,
    );
    const text = Buffer.from(listed.bytes).toString('utf8');
    const properties = (text ? JSON.parse(text) : []) as {
      key: string;
      value: string | null;
      type: string | null;
    }[];
    for (const p of properties) remote.set(p.key.replace(/^\//, ''), p);
  }
  const changed = changedProperties(local, remote);
  for (const property of changed) {
    const form = new URLSearchParams({
      key: property.key,
      value: property.value,
      type: property.type,
      evalValue: 'false',
    });
    await send(settings, '/api/v3/command/property.schema.put', {
      method: 'POST',
      body: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
      source: property.file,
    });
    console.log(`published ${property.key} (${property.type})`);
  }
  console.log(`${changed.length} of ${local.length} files published; the others were unchanged.`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof CliError || error instanceof TypeError ? `pi: ${error.message}` : error);
    process.exit(error instanceof CliError ? error.exitCode : 2);
  },
);
