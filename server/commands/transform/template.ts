/**
 * `transform` (also `data.transform`): renders a PEL template (`Dear #{name},`) over the input, or over
 * each item of a list with `iterate`. The input's fields are names in the template; body, vars and
 * headers stay reachable. The template may be stored: `$uri:property:<key>`, read as the caller.
 */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { templateRenderer } from '../data/evaluate-in-context';
import { isCustomUriText } from '../../../shared/uri/custom-uri';
import { resolveUriParameter, uriValueAsText } from '../../uri/resolve-uri';

export const transform = defineCommand<ServerServices>(
  {
    name: 'transform',
    aliases: ['data.transform'],
    summary: 'Renders a PEL template over the input (or each item of a list with iterate).',
    description:
      'Inside the template, the input’s fields are names (`#{name}`); with `modelName` the input is under that name instead (`#{order.id}`). A template that is one `#{...}` alone gives its value (a map, a list), otherwise text. Only the `pel` engine is offered.',
    parameters: {
      template: {
        type: 'string',
        description: 'The template text, or `$uri:property:<key>` / `$uri:drive:<path>` of a stored one.',
      },
      iterate: {
        type: 'boolean',
        default: false,
        description: 'The input is a list: renders the template for each item, giving a list.',
      },
      modelName: {
        type: 'string',
        pattern: '^([A-Za-z_$][\\w$]*)?$',
        description: 'The name the input (or item) has in the template; empty: its fields are the names.',
      },
      engine: {
        type: 'string',
        enum: ['pel', 'freemarker'],
        default: 'pel',
        description: 'Only pel is supported.',
      },
    },
    required: ['template'],
    defaultParameter: 'template',
    rawParameters: ['template'],
    input: 'any',
    output: 'any',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'One line per order',
        pipeline:
          "body: [{id: 1, total: 9.5}, {id: 2, total: 20}]\npipeline:\n  - transform:\n      iterate: true\n      template: 'Order #{id}: #{total} EUR'\n",
      },
    ],
  },
  async (ctx) => {
    if (ctx.params.engine === 'freemarker') {
      throw new PipeworkError(
        'PARAM_INVALID',
        "The template engine 'freemarker' is not supported here: use the transform.ftl command for FreeMarker templates, or 'pel' (#{...}).",
        {
          parameter: 'engine',
        },
      );
    }
    let template = String(ctx.params.template);
    if (isCustomUriText(template))
      template = uriValueAsText(await resolveUriParameter(ctx, template, 'template', ['property', 'drive']));
    const modelName = typeof ctx.params.modelName === 'string' ? ctx.params.modelName : '';
    const model = (value: unknown) => (modelName ? { [modelName]: value } : value);
    if (ctx.params.iterate === true) {
      if (!Array.isArray(ctx.input)) {
        throw new PipeworkError('PARAM_INVALID', 'transform with iterate: true needs a list as input.', {
          parameter: 'iterate',
        });
      }
      const render = templateRenderer(template, 'template');
      return ctx.input.map((item) => render(ctx, model(item)));
    }
    return templateRenderer(template, 'template')(ctx, model(ctx.input));
  },
);
