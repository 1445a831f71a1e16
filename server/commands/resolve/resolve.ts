/** `resolve` and its older name `content.get`: what a URI points to (`api/uris.md`), loaded as the caller. */
import { defineCommand, type CommandDefinition } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { resolveUriParameter } from '../../uri/resolve-uri';

const URI_PARAMETER = {
  type: 'string',
  minLength: 1,
  description:
    'The URI: $uri:property:<key> (with @attribute or #field), $uri:pipeline:<key>, $uri:drive:<path>, ' +
    '$uri:user:<username> or $uri:user:uuid=<uuid>, or an http(s) address (through the outbound address guard).',
} as const;

function defineResolve(name: string, summary: string): CommandDefinition<ServerServices> {
  return defineCommand<ServerServices>(
    {
      name,
      // A $uri:pipeline: runs a pipeline (and an http address calls out): never over GET.
      effect: 'write',
      audience: 'developer',
      summary,
      description:
        'A property gives its value (JSON parsed); `@attribute` filters the whole property (`@value`, ' +
        '`@attachments.size()`), `#field` its JSON value (`#title`). A pipeline runs as the caller and gives its ' +
        'final body; a drive file gives its bytes; a user gives the user map. A property the caller may not read ' +
        'is FORBIDDEN.',
      parameters: { uri: URI_PARAMETER },
      required: ['uri'],
      defaultParameter: 'uri',
      input: 'any',
      output: 'any',
      examples: [
        {
          title: 'The title of an app config',
          pipeline: 'pipeline:\n  - resolve:\n      uri: "$uri:property:global/app/myapp/config/app#title"\n',
        },
      ],
    },
    (ctx) => resolveUriParameter(ctx, String(ctx.params.uri), 'uri'),
  );
}

export const resolve = defineResolve('resolve', 'Loads what a URI points to and returns it.');
export const contentGet = defineResolve(
  'content.get',
  'Loads what a URI points to and returns it (the older name of resolve).',
);

export const resolveCommands: CommandDefinition<ServerServices>[] = [resolve, contentGet];
