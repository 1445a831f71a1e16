/**
 * The real product's url-encoded pipeline (`application/x-www-form-urlencoded`): each form field is a command,
 * its name the command, its value the parameters as `<name>:<value>` pairs separated by `;`, e.g.
 * `datetime=format:dd.MM.YY&set.body=value:"Today is: #{body}"`. A value may be put in 'single' or "double"
 * quotes (then it may hold `;`); a pair without a name (`log='HELLO WORLD'`) is the command's default
 * parameter. `=` is taken like `:` between a name and its value (the guide writes `level=INFO` too).
 */
import { buildScript, type SourceLocator } from './build-script';
import { checkSourceLength } from './limits';
import type { PipelineScript } from './model';
import { syntaxError } from './syntax-error';

const NO_POSITIONS: SourceLocator = {
  keyAt: () => undefined,
  valueAt: () => undefined,
  scalarAt: () => undefined,
};

const PARAMETER_NAME = /^[A-Za-z_$][A-Za-z0-9_.$-]*$/;

/** Splits at `;` outside quotes and `#{...}`; an unterminated quote or expression is PIPELINE_SYNTAX. */
function splitPairs(value: string, command: string): string[] {
  const pairs: string[] = [];
  let quote: string | null = null;
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    if (quote !== null) {
      if (ch === quote) quote = null;
      continue;
    }
    if (depth > 0) {
      if (ch === '{') depth++;
      else if (ch === '}') depth--;
      else if (ch === "'" || ch === '"') quote = ch;
      continue;
    }
    if (ch === '#' && value[i + 1] === '{') {
      depth = 1;
      i++;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === ';') {
      pairs.push(value.slice(start, i));
      start = i + 1;
    }
  }
  if (quote !== null) {
    throw syntaxError(`The parameters of '${command}' have an unterminated ${quote} quote`, undefined, {
      details: { commandName: command },
    });
  }
  if (depth > 0) {
    throw syntaxError(`The parameters of '${command}' have an unterminated #{ expression`, undefined, {
      details: { commandName: command },
    });
  }
  pairs.push(value.slice(start));
  return pairs;
}

/** A value as written, or the text inside its quotes when it is quoted as a whole. */
function unquote(text: string, command: string): string {
  const first = text[0];
  if (first !== "'" && first !== '"') return text;
  const end = text.indexOf(first, 1);
  if (end !== text.length - 1) {
    throw syntaxError(`Text after the quoted value '${text}' of '${command}'`, undefined, {
      hint: 'put the whole value in quotes, and separate parameters with ;',
      details: { commandName: command },
    });
  }
  return text.slice(1, -1);
}

/** The parameters of one command from its field value; a bare value is the default parameter. */
function parametersOf(value: string, command: string): unknown {
  const params: Record<string, unknown> = {};
  let defaultValue: string | undefined;
  for (const rawPair of splitPairs(value, command)) {
    const pair = rawPair.trim();
    if (pair === '') continue;
    const separator = pair.search(/[:=]/);
    const name = separator > 0 ? pair.slice(0, separator).trim() : '';
    if (separator > 0 && PARAMETER_NAME.test(name) && pair[0] !== "'" && pair[0] !== '"') {
      if (Object.hasOwn(params, name)) {
        throw syntaxError(`Parameter '${name}' of '${command}' is given twice`, undefined, {
          details: { commandName: command, parameter: name },
        });
      }
      Object.defineProperty(params, name, {
        value: unquote(pair.slice(separator + 1).trim(), command),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      if (defaultValue !== undefined) {
        throw syntaxError(`'${command}' has two values without a parameter name`, undefined, {
          hint: 'write <name>:<value> pairs separated by ;',
          details: { commandName: command },
        });
      }
      defaultValue = unquote(pair, command);
    }
  }
  if (defaultValue === undefined) return params;
  if (Object.keys(params).length === 0) return defaultValue;
  throw syntaxError(`'${command}' mixes a value without a name with named parameters`, undefined, {
    hint: 'name every parameter, e.g. message:HELLO;level:INFO',
    details: { commandName: command },
  });
}

/** Parses the form body (still url-encoded) into the pipeline model. */
export function parsePipelineForm(text: string): PipelineScript {
  return buildScript(formPipelineDocument(text), NO_POSITIONS, 'uri');
}

/** The form body as the pipeline document it stands for (`{pipeline: [...]}`), e.g. to store it as YAML. */
export function formPipelineDocument(text: string): { pipeline: unknown[] } {
  checkSourceLength(text);
  const items: unknown[] = [];
  for (const [command, value] of new URLSearchParams(text.trim())) {
    if (command === '') throw syntaxError('A command without a name', undefined);
    items.push(value.trim() === '' ? command : { [command]: parametersOf(value, command) });
  }
  if (items.length === 0) {
    throw syntaxError('The script is empty', undefined, { hint: 'a pipeline needs at least one command' });
  }
  return { pipeline: items };
}
