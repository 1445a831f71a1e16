/**
 * The listing behind `property.object.instances` (forms and lists in the workbench): one object's instances
 * as a page, read with the caller's rights. An object's instances live in one app folder, so one read check
 * on the folder decides for every row (app `show` roles included, through the app access rules).
 */
import type { Principal } from '../../shared/auth';
import { PipeworkError } from '../../shared/errors';
import {
  normalizePropertyKey,
  objectKeyOf,
  type InstanceFilter,
  type InstancePageQuery,
} from '../../shared/property';
import type { PropertyService } from './property-service';

export interface ObjectInstancesRequest {
  /** The object: `<app>/object/<NAME>/<VERSION>`, its `schema` key or its `instance` folder. */
  object: unknown;
  sort?: string;
  descending?: boolean;
  filters?: InstanceFilter[];
  search?: string;
  offset: number;
  limit: number;
}

export interface ObjectInstance {
  key: string;
  uuid: string;
  version: number;
  created: number;
  updated: number | null;
  /** The parsed value (null when it is not JSON). */
  value: unknown;
}

export interface ObjectInstancesPage {
  /** The object's instance folder. */
  folder: string;
  total: number;
  offset: number;
  instances: ObjectInstance[];
}

/** The object's instance folder from any of the accepted spellings; PARAM_INVALID for anything else. */
export function instanceFolderOf(raw: unknown): string {
  const key = normalizePropertyKey(raw).replace(/\/(schema|instance)$/, '');
  const object = objectKeyOf(`${key}/instance/x`);
  if (!object)
    throw new PipeworkError(
      'PARAM_INVALID',
      `'${String(raw).slice(0, 120)}' is not an object: give <app>/object/<NAME>/<VERSION>.`,
      { parameter: 'object' },
    );
  return `${key}/instance`;
}

function parsed(text: string | null): unknown {
  try {
    return JSON.parse(text ?? 'null') as unknown;
  } catch {
    return null;
  }
}

export async function objectInstances(
  service: PropertyService,
  principal: Principal | null,
  request: ObjectInstancesRequest,
): Promise<ObjectInstancesPage> {
  const folder = instanceFolderOf(request.object);
  // Instances are the direct children of the folder: readable exactly when a child key is.
  service.access.assertRead(principal, `${folder}/x`);
  const query: InstancePageQuery = {
    folder,
    offset: request.offset,
    limit: request.limit,
    ...(request.sort ? { sort: { field: request.sort, descending: request.descending ?? false } } : {}),
    ...(request.filters?.length ? { filters: request.filters } : {}),
    ...(request.search ? { search: request.search } : {}),
  };
  const page = await service.store.instancePage(query);
  return {
    folder,
    total: page.total,
    offset: request.offset,
    instances: page.rows.map((row) => ({ ...row, value: parsed(row.value) })),
  };
}
