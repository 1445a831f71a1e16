/** `property.keys.children.page`: one page of a tree level, so a folder of any size opens at once. */
import { defineCommand } from '../../../shared/commands';
import { childrenPage, MAX_CHILDREN_PAGE } from '../../store/property-children-page';
import type { ServerServices } from '../../services';
import { firstParam, integerParam, propertiesOf, textParam } from './property-command-support';

export const propertyKeysChildrenPage = defineCommand<ServerServices>(
  {
    name: 'property.keys.children.page',
    summary:
      'Returns one page of the keys one level below a folder ({children, next}); sub-folders end with /.',
    description:
      'Like property.keys.children, in pages in key order: pass the `next` of one answer as `after` to get the ' +
      'following page; `next` is null on the last page.',
    parameters: {
      pattern: { type: 'string', description: 'The parent folder: global/app, global/app/ or global/app/*.' },
      after: {
        type: 'string',
        description: "The entry after which the page starts (the previous page's next).",
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_CHILDREN_PAGE,
        default: 500,
        description: `At most this many entries (at most ${MAX_CHILDREN_PAGE}).`,
      },
    },
    defaultParameter: 'pattern',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'The first 100 entries of a large folder',
        pipeline:
          'pipeline:\n  - property.keys.children.page:\n      pattern: global/app/big/\n      limit: 100\n',
      },
    ],
  },
  (ctx) =>
    childrenPage(
      propertiesOf(ctx),
      ctx.principal,
      firstParam(ctx, 'pattern'),
      textParam(ctx, 'after'),
      integerParam(ctx, 'limit') ?? 500,
    ),
);
