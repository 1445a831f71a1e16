/** `script.run`: runs a JavaScript `function command(pi)` in the QuickJS sandbox; its return value is the output. */
import { defineCommand, type CommandContext } from '../../../shared/commands';
import { PipeworkError, type ErrorCode } from '../../../shared/errors';
import { decodePropertyValue } from '../../../shared/property';
import { describeJsonRefusal, stringifyBounded } from '../../../shared/values';
import { UTILITY_CATALOG_TEXT, scriptHostFor } from '../../script/script-host';
import type { ScriptFailure } from '../../script/script-pool';
import type { ServerServices } from '../../services';
import type { Principal } from '../../../shared/auth';
import { readStoredCode } from '../../pipeline/stored-code-run-as';
import { storedPipelineKey } from '../../../shared/uri/custom-uri';

type ScriptContext = CommandContext<ServerServices>;

/** The largest message (body, headers, vars, args) handed to a script, as JSON text. */
const MAX_INPUT_CHARS = 20_000_000;

const FAILURE_CODES: Record<ScriptFailure, ErrorCode> = {
  timeout: 'LIMIT_EXCEEDED',
  memory: 'LIMIT_EXCEEDED',
  stack: 'LIMIT_EXCEEDED',
  cancelled: 'LIMIT_EXCEEDED',
  busy: 'TOO_MANY_REQUESTS',
  script: 'BAD_REQUEST',
  internal: 'INTERNAL',
};

/**
 * The script text: inline (run as the caller), or the value of the property at `path` (`property:` prefix
 * optional), read as the caller and run as the caller bound by its author (docs/security.md).
 */
async function scriptText(ctx: ScriptContext): Promise<{ text: string; runAs: Principal | null }> {
  const inline = ctx.params.script;
  if (typeof inline === 'string' && inline.trim() !== '') return { text: inline, runAs: ctx.principal };
  const path = ctx.params.path;
  if (typeof path !== 'string' || path.trim() === '') {
    throw new PipeworkError('PARAM_INVALID', "script.run needs 'script' or 'path'.", { parameter: 'path' });
  }
  const found = storedPipelineKey(path);
  if ('message' in found)
    throw new PipeworkError('PARAM_INVALID', `Parameter 'path': ${found.message}.`, { parameter: 'path' });
  const { key } = found;
  const { code: property, runAs } = await readStoredCode(ctx.services, ctx.principal, key, () =>
    ctx.services.properties.get(ctx.principal, key),
  );
  const value = decodePropertyValue(property);
  if (typeof value !== 'string') {
    throw new PipeworkError('BAD_REQUEST', `The property '${key}' does not hold a script text.`, {
      parameter: 'path',
    });
  }
  return { text: value, runAs };
}

function checkLanguage(language: unknown): void {
  const name = typeof language === 'string' ? language.trim().toLowerCase() : 'js';
  if (['', 'js', 'javascript', 'ecmascript'].includes(name)) return;
  throw new PipeworkError(
    'PARAM_INVALID',
    `Script language '${String(language)}' is not supported: only JavaScript (js) runs here.`,
    { parameter: 'language' },
  );
}

function inputText(ctx: ScriptContext): string {
  const { headers, vars } = ctx.scope;
  const json = stringifyBounded(
    { body: ctx.input, headers, vars, args: ctx.params.args ?? {} },
    MAX_INPUT_CHARS,
  );
  if (!json.ok) {
    throw new PipeworkError(
      'LIMIT_EXCEEDED',
      `The message given to the script ${describeJsonRefusal(json.reason, MAX_INPUT_CHARS)}.`,
    );
  }
  return json.text;
}

export const scriptRun = defineCommand<ServerServices>(
  {
    name: 'script.run',
    summary: 'Runs a JavaScript function command(pi) in a sandbox; its return value becomes the output.',
    description:
      'The script defines `function command(pi)`. `pi.message` holds copies of `body` (the input), `headers` and ' +
      '`vars`; `pi.args` the `args` parameter; `pi.log.info(...)` (also trace, debug, warn, error) writes to the ' +
      "pipeline's log and trace; `pi.util.<utility>.<function>(...)` calls a PEL utility (e.g. " +
      '`pi.util.date.timestamp()`, `pi.util.text.upperCase(s)`), `pi.util.timestamp()` and `pi.util.uuid()` are ' +
      'shortcuts, `pi.property.get(key)` reads a property value as the caller. When `command` returns nothing ' +
      'the output is `pi.message.body` as the script left it. Each run gets a fresh QuickJS context with memory, ' +
      'stack and time limits; it cannot reach the server, the network or the file system.',
    parameters: {
      script: { type: 'string', description: 'The script to run (JavaScript defining function command).' },
      path: {
        type: 'string',
        description:
          'The key of a property holding the script, e.g. property:global/app/myapp/script/hello.js (the property: prefix is optional).',
      },
      language: {
        type: 'string',
        default: 'js',
        description: 'The script language: js (JavaScript). python and groovy are not supported here.',
      },
      args: {
        type: 'object',
        description: 'Arguments for the script, readable as pi.args.',
      },
    },
    defaultParameter: 'path',
    input: 'any',
    output: 'any',
    effect: 'write',
    audience: 'developer',
    examples: [
      {
        title: 'Compute a value in a script',
        pipeline:
          'body: { price: 10, quantity: 3 }\npipeline:\n  - script.run:\n      script: |\n        function command(pi) {\n          pi.log.info("computing total");\n          return { total: pi.message.body.price * pi.message.body.quantity };\n        }\n',
      },
    ],
  },
  async (ctx) => {
    checkLanguage(ctx.params.language);
    const { text: code, runAs } = await scriptText(ctx);
    const outcome = await ctx.services.scripts.run(
      { code, inputText: inputText(ctx), catalogText: UTILITY_CATALOG_TEXT },
      scriptHostFor(ctx, runAs),
    );
    if (!outcome.ok) {
      throw new PipeworkError(FAILURE_CODES[outcome.reason], `script.run: ${outcome.message}`, {
        reason: outcome.reason,
        ...(outcome.reason === 'busy' ? { retryAfterSeconds: 2 } : {}),
      });
    }
    return outcome.outputText === undefined ? null : JSON.parse(outcome.outputText);
  },
);
