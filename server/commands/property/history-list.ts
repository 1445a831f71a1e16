/** `property.history.list`: the kept versions of a property, newest first, without their values. */
import { defineCommand } from '../../../shared/commands';
import type { ServerServices } from '../../services';
import { KEY_OR_PATH, integerParam, keyOf } from './property-command-support';
import { historyOf } from './history-support';

export const propertyHistoryList = defineCommand<ServerServices>(
  {
    name: 'property.history.list',
    summary: 'Lists the kept versions of a property, newest first (also of a deleted or moved key).',
    description:
      'Each version has id, key, uuid, kind (created, changed, deleted, moved-in, moved-out), version, type, ' +
      'timeToLive, defaultValue, actor (uuid of who changed it), actorName (their username; null once deleted), at (epoch ms), otherKey (for moves) and ' +
      'valueLength; property.history.get returns one with its value. Needs the read right on the key.',
    parameters: {
      ...KEY_OR_PATH,
      limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'At most this many.' },
      before: { type: 'integer', minimum: 1, description: 'Only versions with an id below this (paging).' },
    },
    defaultParameter: 'key',
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'user',
    examples: [
      {
        title: 'The history of a pipeline',
        pipeline: 'pipeline:\n  - property.history.list: global/app/myapp/pipeline/hello\n',
      },
    ],
  },
  async (ctx) => {
    const versions = await historyOf(ctx).list(ctx.principal, keyOf(ctx), {
      limit: integerParam(ctx, 'limit'),
      before: integerParam(ctx, 'before'),
    });
    const actors = [...new Set(versions.map((v) => v.actor).filter((a): a is string => a !== null))];
    const names = new Map(
      await Promise.all(
        actors.map(
          async (uuid) => [uuid, (await ctx.services.iam.principalByUuid(uuid))?.username ?? null] as const,
        ),
      ),
    );
    return versions.map((v) => ({ ...v, actorName: v.actor === null ? null : (names.get(v.actor) ?? null) }));
  },
);
