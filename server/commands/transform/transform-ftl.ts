/** `transform.ftl`: renders a FreeMarker template (the subset in server/ftl/) on a model: given, or the pipeline's message. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { isCustomUriText } from '../../../shared/uri/custom-uri';
import { isBinaryContent } from '../../../shared/values';
import type { ServerServices } from '../../services';
import { resolveUriParameter, uriValueAsText } from '../../uri/resolve-uri';
import { renderFtl } from '../../ftl';
import { inputText } from './input-text';

/** A template's length at most (characters). */
export const MAX_FTL_TEMPLATE = 1024 * 1024;

function modelOf(value: unknown): Record<string, unknown> {
  let model = isBinaryContent(value) ? new TextDecoder().decode(value.data) : value;
  if (typeof model === 'string' && /^\s*\{/.test(model)) {
    try {
      model = JSON.parse(model) as unknown;
    } catch (error) {
      throw new PipeworkError(
        'PARAM_INVALID',
        `transform.ftl: the model is not JSON (${(error as Error).message}).`,
        {
          parameter: 'model',
        },
      );
    }
  }
  if (model === null || typeof model !== 'object' || Array.isArray(model))
    throw new PipeworkError(
      'PARAM_INVALID',
      'transform.ftl: the model must be a map (its fields are the names).',
      {
        parameter: 'model',
      },
    );
  return model as Record<string, unknown>;
}

export const transformFtl = defineCommand<ServerServices>(
  {
    name: 'transform.ftl',
    summary:
      'Renders a FreeMarker template on a model (default: the message, so `${body.x}` and `${vars.y}`).',
    description:
      'Supported: `${...}` with paths, `x!default` (also in parentheses: `(x!"d")?upper_case`), `x??`, arithmetic, comparisons (`<`, `lt`, `gt`, ...), ranges (`1..3`, `0..<n`, `0..*n`; slices `xs[1..]`), list and hash literals, and the built-ins upper_case, lower_case, cap_first, uncap_first, capitalize, trim, length, size, keys, values, first, last, reverse, sort, join, split, contains, starts_with, ends_with, index_of, replace, left_pad, right_pad, has_content, then, string (also `?string("0.00")` on numbers), c, number, abs, round, floor, ceiling, html, xml, no_esc, seq_contains, seq_index_of, is_string, is_number, is_boolean, is_sequence, is_hash and the loop ones (index, counter, has_next, is_first, is_last, item_parity); `<#if>/<#elseif>/<#else>`, `<#list x as y>` (`as key, value` over a map, `<#else>` when empty), `<#assign>`, comments. Any other directive is refused by name. The template is not read for PEL (its `${}` are FreeMarker\'s); it may be a URI (`$uri:property:<key>`, `$uri:drive:<path>`). At most 1,000,000 steps (range items included), 10 MB of output and 10 s; past a budget LIMIT_EXCEEDED.',
    parameters: {
      template: {
        type: 'string',
        description: 'The FreeMarker template, or a URI to it; default: the body.',
      },
      model: {
        description:
          'The model: a map (or its JSON text, or a URI to it) whose fields are the names; default: {body, vars, headers}.',
      },
    },
    rawParameters: ['template'],
    input: 'any',
    output: 'text',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Hello from a model',
        pipeline:
          'pipeline:\n  - transform.ftl:\n      model: {"firstName": "Max", "lastName": "Smith"}\n      template: "Hello ${firstName} ${lastName}!"\n',
      },
      {
        title: 'A list of the body',
        pipeline:
          'body: {"people": [{"name": "Maria"}, {"name": "Markus"}]}\npipeline:\n  - transform.ftl:\n      template: "<#list body.people as p>${p.name}<#if p?has_next>, </#if></#list>"\n',
      },
    ],
  },
  async (ctx) => {
    let template =
      typeof ctx.params.template === 'string' && ctx.params.template !== ''
        ? ctx.params.template
        : inputText(ctx.scope.body, 'transform.ftl', 'a template');
    if (isCustomUriText(template))
      template = uriValueAsText(await resolveUriParameter(ctx, template, 'template', ['property', 'drive']));
    if (template.length > MAX_FTL_TEMPLATE)
      throw new PipeworkError(
        'PARAM_INVALID',
        `transform.ftl: a template holds at most ${MAX_FTL_TEMPLATE} characters.`,
        {
          parameter: 'template',
        },
      );
    let model = ctx.params.model;
    if (typeof model === 'string' && isCustomUriText(model))
      model = await resolveUriParameter(ctx, model, 'model', ['property', 'drive']);
    const scope =
      model === undefined || model === null || model === ''
        ? { body: ctx.scope.body, vars: ctx.scope.vars, headers: ctx.scope.headers }
        : modelOf(model);
    return renderFtl(template, scope, { label: 'transform.ftl', parameter: 'template' });
  },
);
