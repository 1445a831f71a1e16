/** What the secret.* commands share: the caller, the scope parameters, the time to live. */
import type { Principal } from '../../../shared/auth';
import type { CommandContext, JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import type { ScopeInput, SecretScope } from '../../secrets';
import type { ServerServices } from '../../services';

export type SecretContext = CommandContext<ServerServices>;

export function callerOf(ctx: SecretContext): Principal {
  if (!ctx.principal) throw new PipeworkError('UNAUTHENTICATED', 'Secrets need an authenticated caller.');
  return ctx.principal;
}

export const NAME: JsonSchema = {
  type: 'string',
  minLength: 1,
  description: 'The unique name of the secret.',
};

export const SCOPE_PARAMETERS: Record<string, JsonSchema> = {
  scope: {
    type: 'string',
    enum: ['user', 'group', 'tenant', 'installation'],
    default: 'user',
    description:
      "Whose secret: your own (user, the default), a group's or a tenant's (scopeName names it) or the installation's.",
  },
  scopeName: { type: 'string', description: 'The name (or uuid) of the group or tenant of the secret.' },
};

export function scopeOf(ctx: SecretContext): ScopeInput {
  const scopeName = ctx.params.scopeName;
  return {
    scope: (ctx.params.scope as SecretScope | undefined) ?? 'user',
    ...(typeof scopeName === 'string' && scopeName !== '' ? { scopeName } : {}),
  };
}

/** `timeToLive` in minutes: a whole number, given as a number or a text of digits (the real product's type). */
export function minutesOf(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const minutes = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(minutes) || minutes <= 0)
    throw new PipeworkError('PARAM_INVALID', 'timeToLive is a whole number of minutes above 0.', {
      parameter: 'timeToLive',
    });
  return minutes;
}
