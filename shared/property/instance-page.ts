/**
 * The purpose-made listing of one object's instances (`property.object.instances`): a page sorted and
 * filtered by fields of their JSON values, answered by the store so that lists of many thousands of
 * instances never travel whole. Kept small on purpose; the general `property.query` is a separate command.
 */
import { PipeworkError } from '../errors';

/** A field of an instance's JSON value, as dotted names (`address.city`), or one of the record's columns. */
export type InstanceField = string;

/** The record's own columns, sortable beside the value's fields. */
export const INSTANCE_COLUMNS = ['$key', '$created', '$updated'] as const;

export interface InstanceFilter {
  field: InstanceField;
  /** `contains`: case-insensitive substring of the field's text; `equals`: the field's text exactly. */
  op: 'contains' | 'equals';
  value: string;
}

export interface InstancePageQuery {
  /** The object's instance folder: `<app>/object/<NAME>/<VERSION>/instance` (no trailing slash). */
  folder: string;
  sort?: { field: InstanceField; descending?: boolean };
  filters?: readonly InstanceFilter[];
  /** Case-insensitive text anywhere in the value. */
  search?: string;
  offset: number;
  limit: number;
}

export interface InstanceRow {
  key: string;
  uuid: string;
  version: number;
  created: number;
  updated: number | null;
  /** The value's JSON text. */
  value: string | null;
}

export interface InstancePage {
  /** How many instances match the filters (all pages). */
  total: number;
  rows: InstanceRow[];
}

export const MAX_INSTANCE_PAGE = 500;
export const MAX_INSTANCE_FILTERS = 10;
const FIELD = /^[A-Za-z_$][A-Za-z0-9_$-]{0,99}(\.[A-Za-z_$][A-Za-z0-9_$-]{0,99}){0,4}$/;

/** The field's path segments; PARAM_INVALID for anything but up to five dotted plain names. */
export function instanceFieldPath(field: string, parameter: string): string[] {
  if (!FIELD.test(field))
    throw new PipeworkError(
      'PARAM_INVALID',
      `'${field.slice(0, 80)}' is not a field: use up to five dotted names of letters, digits, _, $ or -.`,
      { parameter },
    );
  return field.split('.');
}

/** Whether the field is one of the record's columns rather than a field of the value. */
export function isInstanceColumn(field: string): field is (typeof INSTANCE_COLUMNS)[number] {
  return (INSTANCE_COLUMNS as readonly string[]).includes(field);
}
