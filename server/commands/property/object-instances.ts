/** `property.object.instances`: one page of an object's instances, sorted and filtered on the server (lists, forms). */
import { defineCommand, type JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { MAX_INSTANCE_PAGE, type InstanceFilter } from '../../../shared/property';
import { objectInstances } from '../../store/object-instances';
import type { ServerServices } from '../../services';
import { integerParam, propertiesOf, textParam, type PropertyContext } from './property-command-support';

const FILTER_ITEM: JsonSchema = {
  type: 'object',
  properties: {
    field: { type: 'string' },
    op: { enum: ['contains', 'equals'] },
    value: { type: 'string', maxLength: 1000 },
  },
  required: ['field', 'value'],
  additionalProperties: false,
};

/** The filters: a list, or its JSON text (a URL parameter); each item checked again here. */
function filtersOf(ctx: PropertyContext): InstanceFilter[] {
  let raw = ctx.params.filter;
  if (raw === undefined || raw === '') return [];
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch {
      raw = undefined;
    }
  }
  const bad = () =>
    new PipeworkError('PARAM_INVALID', 'filter must be a list of {field, op, value}.', {
      parameter: 'filter',
    });
  if (!Array.isArray(raw)) throw bad();
  return raw.map((item: unknown) => {
    const f = item as Partial<InstanceFilter> | null;
    if (!f || typeof f.field !== 'string' || typeof f.value !== 'string') throw bad();
    if (f.op !== undefined && f.op !== 'contains' && f.op !== 'equals') throw bad();
    return { field: f.field, op: f.op ?? 'contains', value: f.value.slice(0, 1000) };
  });
}

export const propertyObjectInstances = defineCommand<ServerServices>(
  {
    name: 'property.object.instances',
    summary:
      "Returns one page of an object's instances ({folder, total, offset, instances}), sorted and filtered by fields of their values.",
    description:
      'Pipework-specific (the lists of the workbench): the instances stored under <app>/object/<NAME>/<VERSION>/instance, ' +
      'read with your permissions. Sort and filter by dotted field names of the value (address.city) or by $key, ' +
      '$created, $updated; filters are case-insensitive `contains` or exact `equals` on the field as text.',
    parameters: {
      object: {
        type: 'string',
        description: 'The object: global/app/<app>/object/<NAME>/<VERSION> (its schema key is accepted too).',
      },
      sort: { type: 'string', description: 'The field to sort by; default key order.' },
      descending: { type: 'boolean', default: false, description: 'Sort from the largest.' },
      filter: {
        type: ['array', 'string'],
        items: FILTER_ITEM,
        description: 'Filters: [{field, op: contains|equals, value}] (or its JSON text); all must hold.',
      },
      search: { type: 'string', maxLength: 1000, description: 'Text anywhere in the value (any case).' },
      offset: { type: 'integer', minimum: 0, default: 0, description: 'Instances skipped.' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_INSTANCE_PAGE,
        default: 100,
        description: `At most this many instances (at most ${MAX_INSTANCE_PAGE}).`,
      },
    },
    required: ['object'],
    defaultParameter: 'object',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'The 50 newest invoices of ACME',
        pipeline:
          'pipeline:\n  - property.object.instances:\n      object: global/app/demo/object/invoice/v1\n' +
          '      sort: $created\n      descending: true\n      limit: 50\n' +
          '      filter: [{ field: customer, op: contains, value: ACME }]\n',
      },
    ],
  },
  (ctx) =>
    objectInstances(propertiesOf(ctx), ctx.principal, {
      object: ctx.params.object,
      sort: textParam(ctx, 'sort'),
      descending: ctx.params.descending === true || ctx.params.descending === 'true',
      filters: filtersOf(ctx),
      search: textParam(ctx, 'search'),
      offset: integerParam(ctx, 'offset') ?? 0,
      limit: integerParam(ctx, 'limit') ?? 100,
    }),
);
