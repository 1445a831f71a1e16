/** `property.schema.put`: creates a property (or updates, skips, or refuses an existing one: `existStrategy`). */
import { defineCommand } from '../../../shared/commands';
import type { ExistStrategy } from '../../../shared/property';
import type { ServerServices } from '../../services';
import {
  EVAL_VALUE,
  integerParam,
  KEY_OR_PATH,
  KEY_OR_PATH_GIVEN,
  keyOf,
  propertiesOf,
  textParam,
  valueOf,
  warnOfLenientSchema,
} from './property-command-support';
import { ENCRYPTED_PARAMETER } from './encrypted-values';
import { ATTACHMENTS_PARAMETER, TAGS_PARAMETER, attachmentsToAdd, tagsToAdd } from './schema-put-extras';

export const propertySchemaPut = defineCommand<ServerServices>(
  {
    name: 'property.schema.put',
    summary: 'Creates a property; with existStrategy update (default), skip or error when the key exists.',
    description:
      'The value comes from `value`, else from the input body. Strings are stored as they are (type text/plain ' +
      'unless `type` says otherwise); other JSON values as JSON text (application/json); bytes as base64 ' +
      '(`;encoding=base64`). Values under `<app>/object/<NAME>/<VERSION>/instance/<UUID>` must match the sibling ' +
      '`schema`; a file field of an instance naming a staged upload of the caller (`attachment: ' +
      "user/<uuid>/staging/<id>`, a form's large file) has it moved onto the instance as an attachment in the " +
      'same write (docs/forms-and-lists.md). Emits property.created (or property.changed on update). Returns ' +
      '`{result, property}` with result ' +
      'create, update or skip (and `warnings` when a stored object schema uses type names JSON Schema lacks, ' +
      'such as dateTime, each naming what it is read as). `attachments` adds files (they are loaded before ' +
      'anything is written); `tags` adds tags (name1:value1, name2:value2), returned as `tags`.',
    parameters: {
      ...KEY_OR_PATH,
      value: { description: 'The value (text, or any JSON value). When absent, the input body is used.' },
      type: {
        type: 'string',
        description: 'The mime type of the value, e.g. application/json or application/yaml;type=pipeline.',
      },
      ttl: {
        type: 'integer',
        minimum: 0,
        description: 'Time to live in minutes after creation; 0 or none: forever.',
      },
      timeToLive: { type: 'integer', minimum: 0, description: 'Same as ttl.' },
      defaultValue: { description: 'The default value of the property (any JSON value).' },
      evalValue: EVAL_VALUE,
      existStrategy: {
        type: 'string',
        enum: ['update', 'skip', 'error'],
        default: 'update',
        description: 'When the key exists: update it, skip it, or fail with PROPERTY_EXISTS.',
      },
      attachments: ATTACHMENTS_PARAMETER,
      tags: TAGS_PARAMETER,
      encrypted: ENCRYPTED_PARAMETER,
    },
    defaultParameter: 'key',
    rawParameters: ['value'],
    requiredOneOf: KEY_OR_PATH_GIVEN,
    input: 'any',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Create an app configuration',
        pipeline:
          'pipeline:\n  - property.schema.put:\n      key: global/app/myapp/config/app\n      value: {"title": "My app"}\n',
      },
    ],
  },
  async (ctx) => {
    const tags = tagsToAdd(ctx);
    const toAttach = await attachmentsToAdd(ctx);
    const ttl = integerParam(ctx, 'timeToLive') ?? integerParam(ctx, 'ttl');
    const { result, property } = await propertiesOf(ctx).create(
      ctx.principal,
      {
        key: keyOf(ctx),
        value: valueOf(ctx),
        type: textParam(ctx, 'type'),
        timeToLive: ttl,
        defaultValue: ctx.params.defaultValue,
        encrypted: ctx.params.encrypted === true,
      },
      (textParam(ctx, 'existStrategy') ?? 'update') as ExistStrategy,
    );
    const warnings = result === 'skip' ? [] : warnOfLenientSchema(ctx, property);
    const attachments = [];
    if (result !== 'skip') {
      for (const a of toAttach) {
        const options = { contentType: a.mimeType, content: a.data };
        attachments.push(
          await propertiesOf(ctx).attachments.put(ctx.principal, property.key, a.name, options),
        );
      }
    }
    const tagged =
      result !== 'skip' && Object.keys(tags).length > 0
        ? await propertiesOf(ctx).marks.putTags(ctx.principal, property.key, tags)
        : undefined;
    const answer = {
      result,
      property,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(tagged ? { tags: tagged } : {}),
    };
    return warnings.length > 0 ? { ...answer, warnings } : answer;
  },
);
