/** `property.list`: the properties (all fields) matching a wildcard pattern that the caller may read. */
import { createHash } from 'node:crypto';
import { defineCommand } from '../../../shared/commands';
import { instancePathOf } from '../../../shared/property';
import type { ServerServices } from '../../services';
import { PATTERN, firstParam, integerParam, propertiesOf } from './property-command-support';

export const propertyList = defineCommand<ServerServices>(
  {
    name: 'property.list',
    summary: 'Lists the properties matching a key pattern (default: all) that the caller may read.',
    description:
      'Each entry has path (the key with the instance prefix, /pipeforce/<realm>/...), uuid, key, value, type, ' +
      'created, updated, timeToLive, defaultValue and version, in key order, and `tags` when it has any (its ' +
      'lock is the tag property.lock). Properties in the trash bin are left out unless includeTrashed is true: ' +
      'then those the caller may read and change are listed too, with `trashed: true`, `trashedAt` and `purgeAt`.',
    parameters: {
      pattern: PATTERN,
      filter: { ...PATTERN, description: 'The same as pattern (the name used by older clients).' },
      limit: { type: 'integer', minimum: 0, description: 'At most this many properties.' },
      offset: {
        type: 'integer',
        minimum: 0,
        default: 0,
        description: 'Skip this many matching properties first (for paging with limit).',
      },
      excludePatterns: {
        type: ['string', 'array'],
        items: { type: 'string' },
        description: 'Key patterns (a list, or comma separated) of properties to leave out.',
      },
      includeTrashed: {
        type: 'boolean',
        default: false,
        description: 'Also list properties in the trash bin (those the caller may read and change).',
      },
      hash: {
        type: 'boolean',
        default: false,
        description:
          'When true, each entry has `hash` (SHA-256, hex, of the value text; null for no value) in place of `value`: ' +
          'what `pi publish` compares to send only changed files.',
      },
    },
    defaultParameter: 'pattern',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'All object schemas of version v1',
        pipeline: 'pipeline:\n  - property.list: global/app/*/object/*/v1/schema\n',
      },
    ],
  },
  async (ctx) => {
    const excludes = ctx.params.excludePatterns;
    const listed = await propertiesOf(ctx).list(
      ctx.principal,
      firstParam(ctx, 'pattern', 'filter') ?? '**',
      integerParam(ctx, 'limit'),
      {
        offset: integerParam(ctx, 'offset'),
        excludePatterns: (Array.isArray(excludes)
          ? excludes
          : typeof excludes === 'string'
            ? excludes.split(',')
            : []
        )
          .map((p) => String(p).trim())
          .filter((p) => p !== ''),
      },
    );
    const instance = ctx.services.config.realm;
    const service = propertiesOf(ctx);
    const tags = await service.marks.tagsOfListed(listed.map((p) => p.key));
    const entries: Record<string, unknown>[] = listed.map((property) => ({
      path: instancePathOf(property.key, instance),
      ...property,
      ...(tags.has(property.key) ? { tags: tags.get(property.key) } : {}),
    }));
    if (ctx.params.includeTrashed === true) {
      const binned = await service.marks.trashed(ctx.principal, firstParam(ctx, 'pattern', 'filter') ?? '**');
      for (const b of binned) {
        entries.push({
          path: instancePathOf(b.property.key, instance),
          ...b.property,
          ...(Object.keys(b.tags).length > 0 ? { tags: b.tags } : {}),
          trashed: true,
          trashedAt: b.trashedAt,
          purgeAt: b.purgeAt,
        });
      }
      entries.sort((a, b) => (String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0));
      const limit = integerParam(ctx, 'limit');
      if (limit !== undefined) entries.splice(limit);
    }
    const list = entries;
    if (ctx.params.hash !== true) return list;
    return list.map(({ value, ...rest }) => ({
      ...rest,
      hash:
        value === null || value === undefined
          ? null
          : createHash('sha256').update(String(value), 'utf8').digest('hex'),
    }));
  },
);
