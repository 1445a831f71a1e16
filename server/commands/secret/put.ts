/** `secret.put`: creates or replaces a named secret; the answer never holds its value. */
import { defineCommand } from '../../../shared/commands';
import { SECRET_FORMATS, type SecretFormat } from '../../secrets';
import type { ServerServices } from '../../services';
import { NAME, SCOPE_PARAMETERS, callerOf, minutesOf, scopeOf } from './secret-command-support';
import { runMaskOf } from '../../runs/run-scope';

export const secretPut = defineCommand<ServerServices>(
  {
    name: 'secret.put',
    summary:
      'Creates or replaces a named secret, stored encrypted; pipelines use it by name, nobody reads it back.',
    description:
      'Formats: bearer ("Bearer: <token>"), header ("<Name>: <value>"), username-password ("<user>:<password>") ' +
      'and secret-text (any text). A value that does not fit its format is refused (PARAM_INVALID) and nothing is ' +
      'stored. The value is encrypted (AES-256-GCM) with the master key kept outside the database and is masked ' +
      "in the answer, trace and logs of the run. Writing a group's secret takes a member of the group; a " +
      "tenant's or the installation's, an admin.",
    parameters: {
      format: { type: 'string', enum: [...SECRET_FORMATS], description: 'The format of the secret.' },
      name: NAME,
      secret: { type: 'string', minLength: 1, description: 'The value, in the pattern of its format.' },
      timeToLive: {
        type: ['integer', 'string'],
        description: 'Minutes after which the secret is deleted; kept until deleted when absent.',
      },
      ...SCOPE_PARAMETERS,
    },
    required: ['format', 'name', 'secret'],
    input: 'none',
    output: 'json',
    effect: 'write',
    audience: 'user',
    examples: [
      {
        title: 'Keep an API token for http.get',
        pipeline:
          'pipeline:\n  - secret.put:\n      name: crm-token\n      format: bearer\n      secret: "Bearer: #{vars.token}"\n',
      },
    ],
  },
  (ctx) =>
    ctx.services.secrets.put(runMaskOf(ctx.services), callerOf(ctx), {
      name: String(ctx.params.name),
      format: ctx.params.format as SecretFormat,
      secret: String(ctx.params.secret),
      timeToLive: minutesOf(ctx.params.timeToLive),
      ...scopeOf(ctx),
    }),
);
