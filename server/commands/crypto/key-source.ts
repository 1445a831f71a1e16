/** Which key `encrypt`/`decrypt` use: `password` (scrypt) or `key`, the name of a server key; exactly one. */
import type { CommandContext, JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ServerServices } from '../../services';
import type { KeySource } from './sealed-value';

export const KEY_PARAMETERS: Record<string, JsonSchema> = {
  password: {
    type: 'string',
    minLength: 1,
    description: 'The password the key is derived from (scrypt, random salt).',
  },
  key: {
    type: 'string',
    minLength: 1,
    description:
      'Instead of a password: the name of a server key, set as PIPEWORK_KEY_<NAME> (case does not matter).',
  },
};

export function keySourceOf(ctx: CommandContext<ServerServices>): KeySource {
  const { password, key } = ctx.params;
  if ((password === undefined) === (key === undefined)) {
    throw new PipeworkError('PARAM_INVALID', 'Give either password or key (the name of a server key).', {
      parameter: password === undefined ? 'password' : 'key',
    });
  }
  if (password !== undefined) return { password: String(password) };
  const keyName = String(key).toLowerCase();
  const secret = ctx.services.config.keys?.[keyName];
  if (!secret || !/^[a-z0-9_]+$/.test(keyName))
    throw new PipeworkError('PARAM_INVALID', `No server key '${String(key)}' is configured.`, {
      parameter: 'key',
    });
  return { keyName, secret };
}
