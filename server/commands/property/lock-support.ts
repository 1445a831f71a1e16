/** What the property.lock.* and property.tag.* commands share: the lock request from params, names resolved. */
import { PipeworkError } from '../../../shared/errors';
import { LOCK_TYPES, type LockType } from '../../../shared/property';
import type { LockRequest } from '../../store/property-marks-service';
import { textParam, type PropertyContext } from './property-command-support';

/** A whole number of milliseconds (the reference sends it as text too), or undefined. */
export function millisParam(ctx: PropertyContext, name: string): number | undefined {
  const raw = ctx.params[name];
  if (raw === undefined || raw === null || raw === '') return undefined;
  const value = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new PipeworkError(
      'PARAM_INVALID',
      `Parameter '${name}' must be a whole number of milliseconds above 0.`,
      {
        parameter: name,
      },
    );
  }
  return value;
}

/** The lock `property.lock.put` asks for, with the user or group it names looked up in the IAM. */
export async function lockRequestOf(ctx: PropertyContext): Promise<LockRequest> {
  const type = (textParam(ctx, 'type') ?? 'user') as LockType;
  if (!(LOCK_TYPES as readonly string[]).includes(type)) {
    throw new PipeworkError('PARAM_INVALID', `Lock type '${type}' is none of ${LOCK_TYPES.join(', ')}.`, {
      parameter: 'type',
    });
  }
  const uuid = textParam(ctx, 'uuid');
  const name = textParam(ctx, 'name');
  const request: LockRequest = {
    type,
    ttl: millisParam(ctx, 'ttl') ?? null,
    details: textParam(ctx, 'details') ?? null,
  };
  const iam = ctx.services.iam;
  switch (type) {
    case 'user': {
      if (uuid === undefined && name === undefined) return request;
      const user = await iam.users.require(uuid !== undefined ? { uuid } : { username: name });
      return { ...request, uuid: user.uuid, name: user.username };
    }
    case 'group': {
      if (uuid === undefined && name === undefined) return request;
      const group = await iam.groups.require(uuid !== undefined ? { uuid } : { name });
      return { ...request, uuid: group.uuid, name: group.name };
    }
    case 'role':
      return { ...request, name: name ?? null };
    case 'namespace':
      return { ...request, name: name ?? ctx.services.config.realm };
    default:
      return request;
  }
}
