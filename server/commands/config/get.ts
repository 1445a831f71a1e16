/** `config.get`: the instance's non-secret configuration, whole, one group, or one value. */
import { defineCommand } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import { publicConfig } from './public-config';

export const configGet = defineCommand<ServerServices>(
  {
    name: 'config.get',
    summary:
      "Returns the instance's configuration that is not secret: version, URL, limits, optional parts set up.",
    description:
      'Groups: instance (version, name, url, stage, profiles), limits, mail (smtpConfigured, outbox, from), ' +
      'cache, encryption (the names of server keys), sql (the names of data sources). Secrets (the SMTP URL, ' +
      'key values, data source URLs, passwords) are never shown, only whether they are set.',
    parameters: {
      group: { type: 'string', description: 'One group only (e.g. limits); all when absent.' },
      key: { type: 'string', description: 'One value of the group (e.g. pipelineSteps); needs group.' },
    },
    input: 'any',
    output: 'json',
    effect: 'read',
    audience: 'developer',
    examples: [
      {
        title: 'Is mail set up?',
        pipeline: 'pipeline:\n  - config.get: {group: mail, key: smtpConfigured}\n',
      },
    ],
  },
  (ctx) => {
    const all = publicConfig(ctx.services);
    const { group, key } = ctx.params as { group?: string; key?: string };
    if (group === undefined) {
      if (key !== undefined)
        throw new PipeworkError('PARAM_INVALID', 'key needs a group.', { parameter: 'group' });
      return all;
    }
    const section = Object.hasOwn(all, group) ? all[group]! : undefined;
    if (!section)
      throw new PipeworkError(
        'PARAM_INVALID',
        `No configuration group '${group}'; groups: ${Object.keys(all).join(', ')}.`,
        {
          parameter: 'group',
        },
      );
    if (key === undefined) return section;
    if (!Object.hasOwn(section, key))
      throw new PipeworkError('PARAM_INVALID', `No key '${key}' in group '${group}'.`, { parameter: 'key' });
    return section[key];
  },
);
