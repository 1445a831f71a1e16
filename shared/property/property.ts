/** The property record (spec 2.3 plus `version`) and the changes a write makes, as every layer sees them. */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface Property {
  /** Never changes after creation (a move keeps it). */
  uuid: string;
  key: string;
  /** Always text; binary content is base64 with `;encoding=base64` in `type`. */
  value: string | null;
  /** Mime type of `value`; `text/plain` when none was given. */
  type: string;
  /** Epoch milliseconds. */
  created: number;
  /** Epoch milliseconds of the last change, null until the first one. */
  updated: number | null;
  /** Minutes since creation after which the property expires; null or 0: never. */
  timeToLive: number | null;
  defaultValue: JsonValue;
  /** 1 on creation, +1 on every change; `property.put` may demand it for compare-and-swap. */
  version: number;
}

/** What a create needs; the store fills in uuid, timestamps and version. */
export interface NewProperty {
  key: string;
  /** Absent: null on create, unchanged when `save` updates an existing property. */
  value?: string | null;
  type?: string;
  timeToLive?: number | null;
  defaultValue?: JsonValue;
}

/** Fields a change may set; absent fields stay as they are. */
export interface PropertyPatch {
  value?: string | null;
  type?: string;
  timeToLive?: number | null;
  defaultValue?: JsonValue;
}

/** One committed change, the source of a `property.<kind>` event: `origin` before, `target` after. */
export type PropertyChange =
  | { kind: 'created'; origin: null; target: Property }
  | { kind: 'changed'; origin: Property; target: Property }
  | { kind: 'deleted'; origin: Property; target: null };

/** Metadata of an attachment (its bytes live in chunks). */
export interface PropertyAttachment {
  uuid: string;
  name: string;
  contentType: string;
  /** Total bytes over all chunks. */
  length: number;
  /** Number of chunks (indexes 0 .. chunks-1). */
  chunks: number;
  created: number;
  updated: number | null;
}

/** The default mime type of a value stored without one. */
export const DEFAULT_PROPERTY_TYPE = 'text/plain';
