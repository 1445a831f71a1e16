/** What the iam.* commands share: the caller, the IAM service, list paging, name lists, and their parameter schemas. */
import type { Principal } from '../../../shared/auth';
import type { CommandContext, JsonSchema } from '../../../shared/commands';
import { PipeworkError } from '../../../shared/errors';
import { type IamService, parseNameList } from '../../iam';
import type { ServerServices } from '../../services';

export type IamContext = CommandContext<ServerServices>;

export function iamOf(ctx: IamContext): IamService {
  return ctx.services.iam;
}

/** The caller; the runner has already refused anonymous calls, this keeps the types honest. */
export function callerOf(ctx: IamContext): Principal {
  if (!ctx.principal)
    throw new PipeworkError(
      'UNAUTHENTICATED',
      `Command '${ctx.step.command}' needs an authenticated caller.`,
    );
  return ctx.principal;
}

export function stringParam(ctx: IamContext, name: string): string | undefined {
  const value = ctx.params[name];
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

export function requiredString(ctx: IamContext, name: string): string {
  const value = stringParam(ctx, name);
  if (value === undefined) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Missing required parameter '${name}' for command '${ctx.step.command}'.`,
      {
        parameter: name,
      },
    );
  }
  return value;
}

/** A comma separated list, a JSON array text, or a list from an expression. */
export function namesParam(ctx: IamContext, name: string): string[] {
  return parseNameList(ctx.params[name]);
}

export function listQueryOf(ctx: IamContext): { filter?: string; max?: number; offset?: number } {
  return {
    filter: stringParam(ctx, 'filter'),
    max: typeof ctx.params.max === 'number' ? ctx.params.max : undefined,
    offset: typeof ctx.params.offset === 'number' ? ctx.params.offset : undefined,
  };
}

/** Pages a list already in memory the way the list commands page (max capped at 1000). */
export function page<T>(items: readonly T[], query: { max?: number; offset?: number }): T[] {
  const max = Math.min(Math.max(Math.trunc(query.max ?? 1000), 0), 1000);
  const offset = Math.max(Math.trunc(query.offset ?? 0), 0);
  return items.slice(offset, offset + max);
}

export const NAME_LIST: JsonSchema = {
  type: ['string', 'array'],
  items: { type: 'string' },
};

export const LIST_PARAMETERS: Record<string, JsonSchema> = {
  max: { type: 'number', default: 1000, description: 'The max number of entries to return (at most 1000).' },
  offset: { type: 'number', default: 0, description: 'The offset to start return entries.' },
  filter: { type: 'string', description: 'Only entries whose name (or email) contains this text.' },
};

export const USER_REF_PARAMETERS: Record<string, JsonSchema> = {
  username: { type: 'string', description: 'The name of the user. If not set, param uuid must be set.' },
  uuid: { type: 'string', description: 'The uuid of the user. If set, the param username is ignored.' },
};
